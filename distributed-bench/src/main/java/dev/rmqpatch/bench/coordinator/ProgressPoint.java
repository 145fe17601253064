package dev.rmqpatch.bench.coordinator;

/** One second of a run as printed on the progress line. */
public final class ProgressPoint {
    public String phase;
    public int second;
    /** Acknowledged (oneway: sent without error) per second over all agents. */
    public double tps;
    public Double p99Ms;
    public long errors;
    public long errorsSoFar;
    /** This second's errors by kind; null when there were none. */
    public java.util.Map<String, Long> errorsByKind;
}
