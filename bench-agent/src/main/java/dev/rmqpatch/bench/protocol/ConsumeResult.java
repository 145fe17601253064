package dev.rmqpatch.bench.protocol;

import java.util.List;
import java.util.Map;

/** {@code POST /consumers/stop}: what an agent's consumers received, once the coordinator has let them drain. */
public final class ConsumeResult {
    public String name;
    /** The measurement window (from /measure to /stop of the producers). */
    public long windowNanos;
    /** Deliveries in the window, duplicates included: consume msg/s is this over the window. */
    public long windowConsumed;
    /** Deliveries since prepare, duplicates included. */
    public long totalConsumed;
    /** End-to-end latency of the window's deliveries, microseconds, compressed and base64. */
    public String endToEndHistogram;
    /** Deliveries whose send time lay after their consume time (clocks of two hosts apart by more than the offset). */
    public long negativeEndToEnd;
    /** Unusable deliveries by kind ("no stamp", listener exception type), since prepare. */
    public Map<String, Long> errorsByKind;
    public Map<String, String> errorSamples;
    public List<SubscriptionResult> subscriptions;

    /** One consumer group's share on this agent. */
    public static final class SubscriptionResult {
        public String group;
        public String topic;
        public int consumers;
        public long deliveries;
        /** Deliveries of a message this agent's consumers of the group had already received. */
        public long duplicates;
        /** Stream id to encoded SequenceSet of the distinct messages received. */
        public Map<String, String> received;
    }
}
