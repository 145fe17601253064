package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.profile.ProfileSet;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The results.json of a comparison; field names are documented in the README. */
public final class CompareResults {
    /** "ok", "failed" (with error) or "running" (written after every round, so an interrupted run leaves a file). */
    public String status = "running";
    public String error;
    /** This mode; compare --efficiency writes {@link dev.rmqpatch.bench.efficiency.EfficiencyResults} with "efficiency". */
    public final String mode = "saturation";
    /** How the agents sent, in every round and in the sink runs: rocketmq (stock DefaultMQProducer) or wire. */
    public String clientMode;
    /** The --rate of every round, total msg/s; 0 = unlimited (the agents saturate the broker). */
    public double rateMsgPerS;
    public String baseline;
    public List<VariantResult> variants = new ArrayList<>();
    /** The harness ceiling: the same workload and client against the raw sink; null with --no-sink. */
    public Ceiling harnessCeiling;
    /**
     * The same workload and client against the stock-remoting sink: its sinkCpuUsPerMsg is what any broker on the stock
     * remoting layer pays per message before storing anything; null with --no-sink or --ceiling.
     */
    public Ceiling remotingFloor;
    /** compare --profile: how the profiles were taken, and the baseline's top methods across variants. */
    public ProfileSet.Comparison profile;
    public List<String> warnings = new ArrayList<>();
    public Map<String, Object> metadata = new LinkedHashMap<>();

    /** One variant over all its rounds. */
    public static final class VariantResult {
        public String name;
        public String distribution;
        public String conf;
        public Map<String, String> confOverrides;
        /** Acknowledged messages per second, per round and summarised. */
        public Spread tps;
        /** Latency percentiles of all rounds' histograms merged with Histogram.add (never averaged percentiles). */
        public LatencySummary latencyMs;
        public Spread brokerCpuUsPerMsg;
        public Spread storedBytesPerMsg;
        public Spread gcPauseMs;
        /** CPU of the machine not used by any process of the run (other load), cores; a distortion indicator. */
        public Spread otherCpuCores;
        /** ms-sync topology only: the slave JVM's CPU per message stored on the master. */
        public Spread slaveCpuUsPerMsg;
        /** Medians (and merged latency percentiles) divided by the baseline's. */
        public Map<String, Double> ratioToBaseline = new LinkedHashMap<>();
        /** Whether this variant's min-max range overlaps the baseline's, per figure (true = not separable). */
        public Map<String, Boolean> rangeOverlapsBaseline = new LinkedHashMap<>();
        public long failedSends;
        /** Failed sends of all rounds' measurement windows by kind (exception or broker response code, timeout, lost connection). */
        public Map<String, Long> errorsByKind;
        /** CPU the agent JVMs used per message: how much of the machine the load generator took in these rounds. */
        public Spread agentCpuUsPerMsg;
        /** Runs with consumers: deliveries per second in the window, per round and summarised (same shape as tps). */
        public Spread consumeTps;
        /** Consume time minus send time, all rounds' histograms merged (same shape as latencyMs). */
        public LatencySummary endToEndLatencyMs;
        /** Acknowledged sends never consumed, summed over subscriptions and rounds; duplicate deliveries likewise. */
        public Long missingMessages;
        public Long duplicateMessages;
        public List<RoundResult> rounds = new ArrayList<>();
        /** compare --profile: this variant's profile over all its rounds' measured windows. */
        public ProfileSet.VariantProfile profile;
        /** --stall only: the stalls of this variant's master brokers over its rounds, and its failed sends by how they failed. */
        public StoreStalls.Record stalls;
    }

    /** One round of one variant; the full run result is in resultFile. */
    public static final class RoundResult {
        public int round;
        public String status;
        public Double tps;
        public LatencySummary latencyMs;
        public Double brokerCpuUsPerMsg;
        public Double storedBytesPerMsg;
        public Double gcPauseMs;
        public Double brokerCores;
        public Double otherCpuCores;
        /** The broker JVM's busiest thread over the round (kernel name, 15 characters) and the cores it used: 1.0 is a CPU. */
        public String busiestBrokerThread;
        public Double busiestBrokerThreadCores;
        /** The broker JVM's context switches per message stored in the round. */
        public Double brokerContextSwitchesPerMsg;
        /** ms-sync topology only, read after the load stopped (the slave given a few seconds to catch up). */
        public Long masterCommitLogMaxOffset;
        public Long slaveCommitLogMaxOffset;
        public Double slaveCpuUsPerMsg;
        public long failedSends;
        public Map<String, Long> errorsByKind;
        public Double agentCpuUsPerMsg;
        public Double consumeTps;
        public LatencySummary endToEndLatencyMs;
        public Long missingMessages;
        public Long duplicateMessages;
        public String resultFile;
    }

    /** A run against a sink: the harness ceiling (raw sink) or the remoting floor (stock remoting sink). */
    public static final class Ceiling {
        /** raw or remoting. */
        public String sinkServer;
        public String clientMode;
        public Double tps;
        public LatencySummary latencyMs;
        public Double agentCpuUsPerMsg;
        public Double sinkCpuUsPerMsg;
        /** Harness ceiling only: its msg/s over the baseline variant's median msg/s (how much headroom the agents leave). */
        public Double timesBaselineTps;
        /** Harness ceiling only: the agents' CPU per message in the baseline's rounds over the baseline broker's. */
        public Double baselineAgentToBrokerCpu;
        /** --profile, harness ceiling only: flame graphs of the raw sink and the agents during its measured window, by role. */
        public Map<String, String> flameGraphs;
        public String resultFile;
    }
}
