package dev.rmqpatch.stall;

/**
 * Where a stall is injected: a method of stock RocketMQ 4.9.x's store, entered by the thread that waits there when a
 * production store stalls. A stall at a point delays the thread that enters the method, at its entry, while it holds
 * whatever its caller holds. The same methods run in stock and patched brokers (no rmqpatch patch replaces them), so
 * both meet the same stalls.
 */
public enum StallPoint {
    /**
     * {@code MappedFile.appendMessagesInner}: a put's append to the CommitLog, under the CommitLog's put lock (a page
     * fault under dirty-page throttling, a slow disk). The sending thread waits, and every other put waits for the lock.
     */
    APPEND("org/apache/rocketmq/store/MappedFile", "appendMessagesInner"),
    /**
     * {@code AllocateMappedFileService.mmapOperation}: the next CommitLog file's allocation; a put that needs a new file
     * waits for it (up to 5 s in 4.9) holding the put lock.
     */
    ALLOCATE("org/apache/rocketmq/store/AllocateMappedFileService", "mmapOperation"),
    /** {@code MappedFile.flush}: a flush to disk (the flush thread; SYNC_FLUSH sends wait for it). */
    FLUSH("org/apache/rocketmq/store/MappedFile", "flush"),
    /**
     * {@code HAConnection$WriteSocketService.transferData}: the master's write to its slave; the slave lags and
     * SYNC_MASTER sends wait for its acknowledgement.
     */
    REPLICA("org/apache/rocketmq/store/ha/HAConnection$WriteSocketService", "transferData"),
    /**
     * {@code DefaultMessageStore.doDispatch}: the reput thread's hand-off of one stored message to its consume queue and
     * the index (a dispatch thread starved of CPU or slowed by the index); a message is stored and acknowledged but not
     * yet pullable until it passes.
     */
    DISPATCH("org/apache/rocketmq/store/DefaultMessageStore", "doDispatch");

    /** The class, in the JVM's internal form. */
    public final String owner;
    /** The method (every method of that name in the class). */
    public final String method;

    StallPoint(String owner, String method) {
        this.owner = owner;
        this.method = method;
    }

    /** The point named {@code name} (as {@link #names()} lists them), or an error naming the choices. */
    public static StallPoint named(String name) {
        for (StallPoint p : values()) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown stall point '" + name + "' (one of: " + names() + ")");
    }

    /** "append, allocate, flush, replica, dispatch": the points' names as the agent and the harness take them. */
    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (StallPoint p : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.name().toLowerCase(java.util.Locale.ROOT));
        }
        return sb.toString();
    }
}
