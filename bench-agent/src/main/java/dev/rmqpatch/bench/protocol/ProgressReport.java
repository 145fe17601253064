package dev.rmqpatch.bench.protocol;

/** {@code GET /progress}: what happened since the previous progress call, in the current phase. */
public final class ProgressReport {
    public String state;
    public String error;
    public long intervalNanos;
    public long sent;
    public long acked;
    public long failed;
    /** The interval's failures by kind (exception type or broker response code, timeout, lost connection). */
    public java.util.Map<String, Long> errorsByKind;
    /** Service latency of the acknowledged sends in this interval, microseconds, compressed and base64. */
    public String latencyHistogram;
    /** Send delay (start minus intended start) of this interval's rate-limited sends, microseconds; null when none. */
    public String sendDelayHistogram;
    /** Runs with consumers: messages delivered to this agent's consumers in this interval (duplicates included). */
    public long consumed;
    /** Deliveries that could not be used (no stamp, listener failure), this interval. */
    public long consumeErrors;
    /** End-to-end latency (consume time minus send time) of this interval's deliveries, microseconds, compressed and base64. */
    public String endToEndHistogram;
    /** Since prepare: distinct messages this agent's consumers received, per consumer group. */
    public java.util.Map<String, Long> receivedByGroup;
    /** Since start: sends this agent had acknowledged (all phases); with receivedByGroup, the coordinator's view of the lag. */
    public long ackedSinceStart;
}
