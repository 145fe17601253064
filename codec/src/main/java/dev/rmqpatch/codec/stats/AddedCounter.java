package dev.rmqpatch.codec.stats;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * P18. One topic's put counter in {@code StoreStatsService}'s maps: still an {@link AtomicLong} (the maps' type, and
 * what any unpatched caller such as DLedgerCommitLog adds to), plus a {@link LongAdder} that the patched put paths add
 * to instead, in per-thread cells rather than by compare-and-set on one shared line. The count stock would hold is
 * {@link #total()}: the AtomicLong's value plus the adder's sum. (AtomicLong's methods are final, so the two cannot
 * be one: the store's two readers of these maps are patched to read {@link #total()}.)
 */
public final class AddedCounter extends AtomicLong {

    private static final long serialVersionUID = 1L;

    private final transient LongAdder added = new LongAdder();

    public AddedCounter() {
        super();
    }

    /** P21: a counter whose AtomicLong starts at {@code initialValue}, as stock's {@code new AtomicLong(initialValue)}. */
    public AddedCounter(long initialValue) {
        super(initialValue);
    }

    /** Counts {@code delta} in the adder: the patched put paths' increment. */
    public void add(long delta) {
        added.add(delta);
    }

    /** What stock's AtomicLong would hold: every add through either path, once the adds it races with are done. */
    public long total() {
        return get() + added.sum();
    }

    /** The count stock would hold for any counter in the maps, this kind or a plain AtomicLong. */
    public static long totalOf(AtomicLong counter) {
        return counter instanceof AddedCounter ? ((AddedCounter) counter).total() : counter.get();
    }
}
