package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.profile.ProfileSet;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The results.json of {@code compare --efficiency}; fields are documented in docs/harness/results-json.md. */
public final class EfficiencyResults {
    /** "ok", "failed" (with error; what was measured is still there) or "running" (written after every phase). */
    public String status = "running";
    public String error;
    public final String mode = "efficiency";
    /** How the agents sent: rocketmq (stock DefaultMQProducer) or wire (pre-encoded frames over netty). */
    public String clientMode;
    public String baseline;
    /** The fixed total send rate of the measured windows, msg/s. */
    public Double rateMsgPerS;
    /** "probe" (found by the warm-up and rate check) or "--rate". */
    public String rateSource;
    public int windowSeconds;
    /** Pairs asked for (--pairs) and pairs measured in the kept pinning state. */
    public int pairsPlanned;
    public int pairsMeasured;
    public String estimator;
    /** The CpuMeasure whose ratio is the run's result: BROKER (single topology) or PAIR (ms-sync: master + slave). */
    public String mainFigure;
    /**
     * Where every window's broker CPU came from: "proc" (the broker JVMs on this machine, user + system time from
     * /proc/PID/stat, with per-thread figures from /proc/PID/task) or "jmx" (brokers on other hosts, --remote: each JVM's
     * OperatingSystemMXBean ProcessCpuTime over remote JMX; no pinning and no per-thread figures).
     */
    public String cpuSource;
    /** --clients only: the one broker the clients were compared against, the side measured, and the producers feeding consumers. */
    public ClientRun clients;
    /** --remote only: per variant its name server(s), masters, and the JMX ports its CPU was read from. */
    public List<Map<String, Object>> remoteBrokers;
    public Pinning pinning = new Pinning();
    /** --freeze-idle: how the idle variants' brokers were stopped in the measured pairs; null without it. */
    public FreezeIdle freezeIdle;
    public Probe probe = new Probe();
    /**
     * The headline cell's figures: the rate the probe checked (or --rate), in the less favourable placement when both
     * were measured (the one where the variant saving most saves least). Every cell is in {@link #cells}.
     */
    public List<VariantResult> variants = new ArrayList<>();
    /** Every rate x placement measured, each with its own pairs and intervals; one cell with --rate and --pin on/off/auto. */
    public List<CellResult> cells = new ArrayList<>();
    /** compare --profile: how the profiles were taken, and the baseline's top methods across variants. */
    public ProfileSet.Comparison profile;
    /** compare --profile in ms-sync: the same for the slaves (named "&lt;variant&gt;-slave"). */
    public ProfileSet.Comparison slaveProfile;
    /** Every window of the run, warm-up included, in run order. */
    public List<Window> windows = new ArrayList<>();
    public List<String> warnings = new ArrayList<>();
    public Map<String, Object> metadata = new LinkedHashMap<>();

    /** --freeze-idle: the idle variants' master and slave JVMs stopped outside their own measured windows. */
    public static final class FreezeIdle {
        /** Seconds between a variant's continue and its first sample, the load paused. */
        public double settleSeconds;
        /** How many times a variant was stopped. */
        public int freezes;
        /** The longest a variant stayed stopped. */
        public double longestFrozenSeconds;
    }

    /** One variant over the windows of the interval. */
    public static final class VariantResult {
        public String name;
        public String distribution;
        public String conf;
        public Map<String, String> confOverrides;
        public CpuFigure brokerCpuUsPerMsg;
        /** ms-sync only: the slave JVM's CPU per message the master stored, over the same windows, with its ratio. */
        public CpuFigure slaveCpuUsPerMsg;
        /** ms-sync only: master + slave CPU per message, the run's main figure there (see {@link EfficiencyResults#mainFigure}). */
        public CpuFigure pairCpuUsPerMsg;
        /** --clients only: the client's agent JVMs' CPU per message it handled, the run's main figure there. */
        public CpuFigure clientCpuUsPerMsg;
        /** Local brokers: the whole machine's CPU time not idle per message stored, with its ratio ({@link CpuMeasure#MACHINE}). */
        public CpuFigure machineCpuUsPerMsg;
        /** --clients only: how this client's agent JVMs were started and what they loaded. */
        public ClientSetup client;
        public WindowStats storedBytesPerMsg;
        public WindowStats storedMsgPerS;
        public WindowStats gcPauseMs;
        public WindowStats otherCpuCores;
        /** The broker JVM's context switches and CPU by thread group per message, over the interval's windows. */
        public ThreadFigures threads;
        /** ms-sync: the slave's, per message the master stored. */
        public ThreadFigures slaveThreads;
        /** --clients: the client's agent JVMs' threads, per message the client handled. */
        public ThreadFigures clientThreads;
        /** Latency of the interval's windows, their histograms merged. */
        public LatencySummary latencyMs;
        /** Stored msg/s in this variant's last unlimited warm-up window: the probe's saturation estimate. */
        public Double saturatedMsgPerS;
        /** Measured windows (kept pinning state, not profiled) that missed the rate or lost sends. */
        public int windowsNotUsable;
        public long failedSends;
        /** --stall only: the stalls of this variant's master broker, and its failed sends (every window) by how they failed. */
        public StoreStalls.Record stalls;
        public ProfileSet.VariantProfile profile;
        /** ms-sync with --profile: the slave's (flame-&lt;variant&gt;-slave.html). */
        public ProfileSet.VariantProfile slaveProfile;
    }

    /** --clients: what every client of the run was measured against. */
    public static final class ClientRun {
        /** producer (the clients' producers send at the rate) or consumer (stock producers send, the clients' push consumers receive). */
        public String side;
        /** The broker variant (--variants) all clients ran against, one cluster. */
        public String broker;
        /** Consumer side: the stock producers' agent JVMs (the same for every client), their command lines. */
        public List<List<String>> loadAgentCommandLines;
    }

    /** --clients: one client's agent JVMs. */
    public static final class ClientSetup {
        /** stock, patched or agent. */
        public String kind;
        public List<String> disabledPatches;
        /** Class path entries before the harness's own (patched: the patched distribution's RocketMQ jars and the codec). */
        public List<String> classPathFirst;
        /** JVM options only this client's JVMs have (-javaagent, -Drmqpatch.disable). */
        public List<String> ownJvmOptions;
        /** The Java version the first agent JVM reported (java.version): where {@code @8} ran, 1.8.0_... */
        public String javaVersion;
        /** Every agent JVM's exact command line (java, options, class path, main class and arguments). */
        public List<List<String>> commandLines = new ArrayList<>();
        /** What the first agent JVM loaded, as it reported at start: where each RocketMQ class came from, and whether it is patched. */
        public List<dev.rmqpatch.bench.protocol.LoadedClass> loadedClasses;
    }

    /** One rate x placement: its pairs and each variant's figures over them (name and figures only). */
    public static final class CellResult {
        public double rateMsgPerS;
        /** The rate as a percentage of the slowest variant's saturated msg/s in the warm-up; null with --rate. */
        public Double percentOfSaturation;
        /** pinned, split or unpinned. */
        public String placement;
        /** The placement is "pinned" (kept for readers of older results). */
        public boolean pinned;
        public int pairsMeasured;
        /** The cell whose figures are also the top-level variants'. */
        public boolean headline;
        public List<VariantResult> variants = new ArrayList<>();
    }

    /** CPU per message (broker, slave or pair): the variant's own median over its windows, and for non-baseline variants the paired ratio. */
    public static final class CpuFigure {
        public Double median;
        public Double min;
        public Double max;
        public int windows;
        /** Geometric mean of the per-pair ratios to the baseline; null for the baseline itself. */
        public Double ratio;
        /** [low, high], 95% Student-t interval on the per-pair log ratios. */
        public double[] ratioCi95;
        /** [low, high], 95% percentile bootstrap over pairs: the check (narrower than t over few pairs). */
        public double[] ratioCi95Bootstrap;
        /** Half the interval's width relative to the ratio: 0.03 is about ±3%. */
        public Double halfWidth;
        /** Standard deviation of the per-pair log ratios: the scatter of one pair. */
        public Double sdLogRatio;
        public Integer pairs;
        /** "resolved" when both intervals exclude 1.0 over at least {@link EfficiencySummary#MIN_PAIRS_FOR_VERDICT} pairs, else "unresolved". */
        public String verdict;
    }

    /** Median, min and max of a figure over a variant's interval windows. */
    public static final class WindowStats {
        public Double median;
        public Double min;
        public Double max;
        public int windows;
    }

    /**
     * A JVM's threads per message over a variant's interval windows (median, min, max of the windows' figures): all
     * context switches, voluntary (a thread going to sleep: a hand-off or a wait) and involuntary (preempted), read and
     * write system calls (/proc/PID/task/TID/io; absent where the kernel keeps none), and by thread group
     * (ThreadCosts.GROUPS, from the thread names: on older JDK 8 builds nearly every thread is "other").
     */
    public static final class ThreadFigures {
        public WindowStats contextSwitchesPerMsg;
        public WindowStats voluntarySwitchesPerMsg;
        public WindowStats involuntarySwitchesPerMsg;
        public WindowStats readCallsPerMsg;
        public WindowStats writeCallsPerMsg;
        public Map<String, WindowStats> groupCpuUsPerMsg = new LinkedHashMap<>();
        public Map<String, WindowStats> groupSwitchesPerMsg = new LinkedHashMap<>();
        /** A netty-io group's reads per message: requests (broker) or responses (client) per socket read, inverted. */
        public Map<String, WindowStats> groupReadCallsPerMsg = new LinkedHashMap<>();
        public Map<String, WindowStats> groupWriteCallsPerMsg = new LinkedHashMap<>();
    }

    /** What was pinned and why. */
    public static final class Pinning {
        /** --pin: both, all, auto, on, off, split or a list such as split,off. */
        public String mode;
        /** The headline cell's placement: pinned, split or unpinned. */
        public String placement;
        /** Whether the headline cell's windows ran pinned (placement "pinned"). */
        public boolean applied;
        public List<Integer> brokerCpus;
        public List<Integer> otherCpus;
        /** -XX:ActiveProcessorCount given to brokers and agents, pinned or not, so the JVMs size their threads alike. */
        public int activeProcessorCount;
        public String description;
        /** The processes pinned the last time pinning was applied: "brokers" and "others" (name servers, slaves, agents, jstat, coordinator). */
        public Map<String, List<Long>> pinnedPids;
        /** Why pinning was not applied (impossible, not permitted, not chosen); null when applied. */
        public String notAppliedBecause;
        /** --pin auto: the measured comparison of pinned and unpinned pairs. */
        public Calibration calibration;
        /** With a split placement: its CPUs and what it did to each broker's threads. */
        public Split split;
    }

    /** The split placement: which CPUs each group of a broker's threads got, and what the last placement read back. */
    public static final class Split {
        public List<Integer> ioCpus;
        public List<Integer> codecCpus;
        public List<Integer> sendCpus;
        /** All the brokers' CPUs: every other thread of a broker may run on them. */
        public List<Integer> brokerCpus;
        /** Name servers, slaves, agents and the coordinator. */
        public List<Integer> otherCpus;
        public String description;
        /** Why split cells were not measured (impossible, not permitted); null when they were. */
        public String notAppliedBecause;
        /** Single-thread taskset calls over the run: the first placement and the threads started since, at window starts. */
        public int threadCalls;
        public List<SplitBroker> brokers = new ArrayList<>();
    }

    /** One broker under the split placement, as read back from /proc/PID/task/TID/status at its last window start. */
    public static final class SplitBroker {
        public String variant;
        public long pid;
        /** By group (netty-io, netty-codec, send, rest): threads whose Cpus_allowed_list was the group's CPUs. */
        public Map<String, Integer> groups = new LinkedHashMap<>();
        /** Threads not yet on their group's CPUs (started between placing and reading back; placed at the next window). */
        public int notPlaced;
    }

    /** --pin auto: scatter of the per-pair log ratio with and without pinning; the smaller one is kept. */
    public static final class Calibration {
        public int pairsPerState;
        public Double sdLogRatioPinned;
        public Double sdLogRatioUnpinned;
        public boolean keptPinned;
    }

    /** How the rate was found. */
    public static final class Probe {
        public double fractionOfSaturation;
        public double p99LimitMs;
        /** Per variant: stored msg/s of its last unlimited warm-up window. */
        public Map<String, Double> saturatedMsgPerS = new LinkedHashMap<>();
        public List<Attempt> attempts = new ArrayList<>();
    }

    /** One rate tried in the rate check. */
    public static final class Attempt {
        public double rateMsgPerS;
        public Map<String, Double> storedMsgPerS = new LinkedHashMap<>();
        public Map<String, Double> p99Ms = new LinkedHashMap<>();
        public boolean ok;
    }
}
