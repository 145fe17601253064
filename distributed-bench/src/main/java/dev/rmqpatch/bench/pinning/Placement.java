package dev.rmqpatch.bench.pinning;

/**
 * Where the processes of an efficiency cell run. {@link #PINNED}: the brokers on the upper half of the CPUs, everything
 * else on the lower half ({@link PinningPlan}); {@link #SPLIT}: each broker's netty IO, netty codec and send-executor
 * threads on different CPUs ({@link SplitPlan}); {@link #UNPINNED}: every process on every CPU. The order is the order
 * of the cells in the table and of the placements in a round of blocks.
 */
public enum Placement {
    PINNED("on", "pinned"), SPLIT("split", "split"), UNPINNED("off", "unpinned");

    /** The word --pin takes for it. */
    public final String word;
    /** How the table, the progress output and results.json name it. */
    public final String label;

    Placement(String word, String label) {
        this.word = word;
        this.label = label;
    }

    /** The placement named {@code label} (as results.json writes it), or null. */
    public static Placement ofLabel(String label) {
        for (Placement p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        return null;
    }
}
