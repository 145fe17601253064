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
    /** Runs with consumers: deliveries per second over all agents, end-to-end p99 of the second, unconsumed bytes. */
    public Double consumeTps;
    public Double endToEndP99Ms;
    public Long backlogBytes;
    /** This second's errors by kind; null when there were none. */
    public java.util.Map<String, Long> errorsByKind;
}
