package dev.rmqpatch.bench.protocol;

import java.util.List;

/** Coordinator to agent: create and start the producers for one run. JSON body of {@code POST /prepare}. */
public final class PrepareRequest {
    public String runId;
    public String namesrv;
    public List<String> topics;
    /**
     * Clusters to switch the load between ({@code compare --efficiency}): the agent starts producers for each; after
     * {@code POST /start} it sends nothing until {@code POST /target} picks one. Null: one target, {@link #namesrv} and
     * {@link #topics}, loaded from the start.
     */
    public List<Target> targets;
    /** Queues the coordinator created per topic; the agent checks that its route shows as many. */
    public int partitionsPerTopic;
    public int messageSize;
    public int producersPerTopic;
    public int threads;
    /** sync, async or oneway. */
    public String mode;
    /** This agent's share of the workload's producerRate; 0 = unlimited. */
    public double ratePerSecond;
    public int sendTimeoutMs;
    /** Async only: messages in flight per agent before a thread waits. */
    public int maxOutstanding;
    /** rocketmq (stock DefaultMQProducer, the default when absent) or wire (pre-encoded frames over netty). */
    public String client;
    /** Tags and keys of every message; null or empty = none (the workload's messageTags / messageKeys). */
    public String tags;
    public String keys;
    /** OMB's keyDistributor (NO_KEY, KEY_ROUND_ROBIN, RANDOM_NANO); null = NO_KEY. Replaces {@link #keys} when set. */
    public String keyDistributor;
    /** OMB's payloadFile: the body every message carries (messageSize bytes, base64), read by the coordinator; null = none. */
    public String payloadBase64;
    /** OMB's randomized payloads: a pool of this many bodies (0 = none), each this share of random bytes then zeros. */
    public int randomizedPayloadPoolSize;
    public double randomBytesRatio;
    /** User properties of every message, in this order; null = none. */
    public java.util.Map<String, String> userProperties;
    /** Wire client only: netty event-loop threads; 0 = one (on a shared machine one loop costs least CPU per message). */
    public int ioThreads;
    /** How long to wait for the topics' routes to appear at the name server before giving up. */
    public int routeWaitMs = 15_000;
    /** This agent's place in the run (0..agents-1): the high part of its senders' stream ids (see BodyStamp). */
    public int agentIndex;
    /**
     * Write the 24-byte stamp (stream, sequence, send time) at the start of every body and keep the set of acknowledged
     * sequences, for end-to-end latency and the count check; set when the run has consumers.
     */
    public boolean stampBodies;
    /** This agent's wall clock minus the coordinator's, microseconds, as the coordinator measured it (0 on its own host). */
    public long clockOffsetMicros;
    /** Push consumers this agent runs (stock DefaultMQPushConsumer, clustering); null or empty = none. */
    public List<Subscription> subscriptions;

    /** One subscription (its own consumer group) of one topic, and how many of its consumers run on this agent. */
    public static final class Subscription {
        public String topic;
        public String group;
        public int consumers;
        /** The name server of the topic's cluster; null = the request's {@code namesrv} (efficiency mode has several). */
        public String namesrv;

        public Subscription() {
        }

        public Subscription(String topic, String group, int consumers) {
            this.topic = topic;
            this.group = group;
            this.consumers = consumers;
        }
    }

    /** One cluster the load can be sent to. */
    public static final class Target {
        public String namesrv;
        public List<String> topics;

        public Target() {
        }

        public Target(String namesrv, List<String> topics) {
            this.namesrv = namesrv;
            this.topics = topics;
        }
    }
}
