package dev.rmqpatch.bench.protocol;

import java.util.Map;

/** {@code POST /stop}: everything the agent measured in the measurement window, plus totals over all phases. */
public final class AgentResult {
    public String name;
    public String host;
    public long pid;
    public String mode;
    /** rocketmq (stock DefaultMQProducer) or wire (pre-encoded frames); what produced these figures. */
    public String client;
    public int threads;
    public double ratePerSecond;
    /** Length of this agent's measurement window (from /measure to the stop request). */
    public long windowNanos;
    /** Outcomes of the sends issued in the measurement window. */
    public Counts window;
    /** Outcomes of every send the agent issued in this run, warm-up included; what the broker should have stored. */
    public Counts total;
    /** Acknowledged sends by {@code SendStatus} name. */
    public Map<String, Long> byStatus;
    /** Failed sends by exception type (and broker response code where there is one). */
    public Map<String, Long> byError;
    /** One message per error type, the first one seen. */
    public Map<String, String> errorSamples;
    /** Service latency (send call to answer) of acknowledged sends, microseconds, compressed and base64. */
    public String latencyHistogram;
    /** Rate-limited runs only: how late each send started against its intended time, microseconds. */
    public String sendDelayHistogram;
    /** CPU time the agent's JVM used during the window. */
    public long cpuNanos;
    /**
     * Runs with stamped bodies: every acknowledged send of the run (warm-up included), stream id to encoded
     * SequenceSet; the count check's reference.
     */
    public Map<String, String> ackedSequences;
    /** Runs with stamped bodies: the topic each stream of {@link #ackedSequences} sent to (a sender keeps to one topic). */
    public Map<String, String> streamTopics;
    /** Wire client: answers that came after their send had already been counted as timed out (or lost). */
    public long lateAnswers;
    /** Wire client: requests the brokers sent to the agent (not answers); ignored, counted so they are not invisible. */
    public long brokerRequests;
}
