package dev.rmqpatch.bench.protocol;

/** {@code GET /status}: who the agent is and what it is doing. */
public final class AgentStatus {
    public String name;
    public String host;
    public long pid;
    /** IDLE, PREPARED, WARMUP, MEASURING, STOPPING, FAILED. */
    public String state;
    /** Set when the state is FAILED, or for a request that could not be served. */
    public String error;
    public String javaVersion;
    public int cpus;
    /** The agent's wall clock when it answered, microseconds since the epoch: the coordinator's clock-offset probe. */
    public long wallClockMicros;
    /** Where the agent's RocketMQ classes came from and whether they run patched (read once, at the agent's start). */
    public java.util.List<LoadedClass> rocketmqClasses;
}
