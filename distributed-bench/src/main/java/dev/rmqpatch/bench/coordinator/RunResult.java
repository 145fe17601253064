package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.broker.Replication;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Everything one run measured; written as JSON by {@code bench run}, embedded per round by {@code compare}. */
public final class RunResult {
    /** "ok", or "failed" with {@link #error} set and whatever was measured until then. */
    public String status = "running";
    public String error;
    public String label;
    public String runId;
    public String startedAt;
    public String finishedAt;
    /** How the agents sent: rocketmq (stock DefaultMQProducer) or wire (pre-encoded frames over netty). */
    public String clientMode;
    public WorkloadView workload;
    public String namesrv;
    public List<String> topics;
    /** Acknowledged messages per second over all agents (oneway: sent without error). */
    public Double tps;
    /** Outcomes of the sends issued in the measurement window, all agents. */
    public Counts counts;
    /** Outcomes of every send of the run, warm-up included. */
    public Counts totalCounts;
    public Map<String, Long> byStatus = new TreeMap<>();
    public Map<String, Long> byError = new TreeMap<>();
    /** The same run in OMB's result format; written to its own file, not to results.json (transient: Gson skips it). */
    public transient dev.rmqpatch.bench.omb.OmbResult omb;
    /** OMB's producerRate 0: the rate the search set at each control step (total msg/s); empty otherwise. */
    public List<RateStep> rateSearch;
    public Map<String, String> errorSamples = new TreeMap<>();
    /** Service latency of acknowledged sends, merged over agents with Histogram.add. */
    public LatencySummary latencyMs;
    /** Rate-limited runs: start delay against the intended send time, merged likewise. */
    public LatencySummary sendDelayMs;
    /** The merged latency histogram (microseconds, compressed, base64), for merging rounds later. */
    public String latencyHistogram;
    /** CPU the agent JVMs spent per acknowledged message: the harness's own cost. */
    public Double agentCpuUsPerMsg;
    public BrokerFigures broker;
    /** Runs with consumers: deliveries per second in the measurement window over all agents (duplicates included). */
    public Double consumeTps;
    /** Deliveries in the window and over the whole run (warm-up and drain included). */
    public Long consumedInWindow;
    public Long consumedTotal;
    /** Consume time minus send time of the window's deliveries, merged over agents (see {@link #clock}). */
    public LatencySummary endToEndLatencyMs;
    public String endToEndHistogram;
    /** Deliveries that could not be used, by kind (no stamp, listener failure), and one sample each. */
    public Map<String, Long> consumeErrors;
    public Map<String, String> consumeErrorSamples;
    /** The count check: acknowledged sends never consumed, duplicates, per subscription. */
    public dev.rmqpatch.bench.delivery.DeliveryCheck.Report delivery;
    /** How send and consume times were put on one clock. */
    public ClockView clock;
    /** consumerBacklogSizeGB > 0: how the backlog was built and drained. */
    public BacklogView backlog;
    /** compare --topology ms-sync: master and slave CommitLog max offsets at the end of the run; absent otherwise. */
    public Replication replication;
    public List<AgentView> agents = new ArrayList<>();
    public List<ProgressPoint> progress = new ArrayList<>();
    public List<String> warnings = new ArrayList<>();

    /** The workload as run, after command-line overrides. */
    public static final class WorkloadView {
        public String name;
        public int topics;
        public int partitionsPerTopic;
        public int messageSize;
        public int producersPerTopic;
        public double producerRate;
        public int warmupDurationSeconds;
        public int testDurationSeconds;
        public int threadsPerAgent;
        public String sendMode;
        public int subscriptionsPerTopic;
        public int consumerPerSubscription;
        public double consumerBacklogSizeGB;
        public String client;
        public String messageTags;
        public String messageKeys;
        /** OMB's keyDistributor, how bodies are made (payload file, randomized pool, random body), backlogDrainRatio. */
        public String keyDistributor;
        public String payload;
        public double backlogDrainRatio;
        /** True when producerRate 0 came from a workload file: OMB's search for the maximum sustainable rate (see rateSearch). */
        public boolean maxRateSearch;
    }

    /** The agents' clocks against the coordinator's. */
    public static final class ClockView {
        public String method;
        /** Per agent: its wall clock minus the coordinator's (us), and half the round trip of the probe that measured it. */
        public Map<String, Long> offsetMicros = new TreeMap<>();
        public Map<String, Long> uncertaintyMicros = new TreeMap<>();
    }

    /** OpenMessaging Benchmark's backlog test, as run. */
    public static final class BacklogView {
        public long requestedBytes;
        /** Seconds into the measurement window when the consumers were suspended, resumed, and when the backlog was gone. */
        public Integer pausedAtSecond;
        public Integer resumedAtSecond;
        public Integer drainedAtSecond;
        public long peakBytes;
    }

    /** One agent's share. */
    public static final class AgentView {
        public String name;
        public String address;
        public String host;
        public long pid;
        public double windowSeconds;
        public Double tps;
        public Counts counts;
        public Counts totalCounts;
        public Map<String, Long> byStatus;
        public Map<String, Long> byError;
        public Map<String, String> errorSamples;
        public LatencySummary latencyMs;
        public LatencySummary sendDelayMs;
        public Double cpuUsPerMsg;
        /** Runs with consumers: this agent's deliveries per second in its window. */
        public Double consumeTps;
        /** The client mode the agent reported. */
        public String client;
        /** Wire client: answers that arrived after their send was counted as timed out or lost. */
        public long lateAnswers;
    }

    /** One step of the max-rate search. */
    public static final class RateStep {
        public String phase;
        public int second;
        public double rate;

        public RateStep(String phase, int second, double rate) {
            this.phase = phase;
            this.second = second;
            this.rate = rate;
        }
    }
}
