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
}
