package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.ThreadCosts;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.stats.LatencySummary;
import org.HdrHistogram.Histogram;

/** One load window on one variant's broker, as results.json lists it; every window of the run is listed. */
public final class Window {
    /** Phases in run order; only calibration windows of the kept pinning state and measure windows make the interval. */
    public static final String WARM_UP = "warm-up";
    public static final String RATE_CHECK = "rate-check";
    public static final String CALIBRATION = "calibration";
    public static final String MEASURE = "measure";
    public static final String PROFILE = "profile";

    /** 1-based position in the run. */
    public int index;
    public String phase;
    /** 1-based number of the pair (one window per variant) this window belongs to, counted over the whole run. */
    public int pair;
    public String variant;
    /** The placement in force for the window: pinned, split or unpinned ({@link Placement#label}). */
    public String placement = Placement.UNPINNED.label;
    /** The placement is "pinned" (kept for readers of older results; split windows are not pinned in this sense). */
    public boolean pinned;
    public boolean profiled;
    /** Total rate the agents were asked for, msg/s; 0 = unlimited. */
    public double targetRateMsgPerS;
    /** From the switch to this broker to the switch away from it, seconds. */
    public double loadSeconds;
    /** Messages the broker stored in the window (its own counter). */
    public Long messagesStored;
    public Double storedMsgPerS;
    /** Stored at least {@link WindowRunner#HELD_FRACTION} of the target rate; null when unlimited. */
    public Boolean heldRate;
    /** Broker JVM CPU (user + system from /proc) over exactly this window, per message stored in it. */
    public Double brokerCpuUsPerMsg;
    public Double brokerCores;
    /** ms-sync: the slave JVM's CPU over the window per message the master stored. */
    public Double slaveCpuUsPerMsg;
    /** ms-sync: master + slave JVM CPU over the window per message the master stored: what the pair costs. */
    public Double pairCpuUsPerMsg;
    /**
     * --clients: the window's client's agent JVMs' CPU (user + system from /proc, every process of that client) over
     * exactly this window, per message that client handled in it ({@link #clientMessages}); its cores; and its threads.
     */
    public Double clientCpuUsPerMsg;
    public Double clientCores;
    /** --clients: messages the window's client sent and had acknowledged (producer side) or received (consumer side) in it. */
    public Long clientMessages;
    /**
     * --clients: the client handled at least {@link WindowRunner#HELD_FRACTION} of the target rate over the window (its
     * producers sent it, its consumers kept up with it); null when unlimited or not comparing clients.
     */
    public Boolean clientKeptUp;
    public ThreadCosts clientThreads;
    public Double storedBytesPerMsg;
    /** The broker JVM's threads over the window, per message stored: context switches, CPU by thread group. */
    public ThreadCosts brokerThreads;
    /** ms-sync: the slave JVM's, per message the master stored. */
    public ThreadCosts slaveThreads;
    public Double gcPauseMs;
    /** The whole machine's CPU time not idle over the window, per message stored ({@link CpuMeasure#MACHINE}). */
    public Double machineCpuUsPerMsg;
    /** Busy CPU of the machine not explained by any process of the run, cores: other load. */
    public Double otherCpuCores;
    /** Agent side: answers and failures of the sends issued in the window. */
    public long acked;
    public long failed;
    /** The failures by kind (exception type or broker response code, timeout, lost connection); absent when none. */
    public java.util.Map<String, Long> errorsByKind;
    /** Messages the agents' consumers received in the window (with consumers; of every cluster, nearly all this one's). */
    public long consumed;
    public LatencySummary latencyMs;
    /** Whether this window's pair went into the interval; see {@link #note} when not. */
    public boolean inInterval;
    /** Why the window is not in the interval, or what was wrong with it. */
    public String note;
    /** Kept for merging per variant; not written. */
    transient Histogram latency;

    /** The window held its rate, lost no sends and has a CPU figure: usable for the statistics. */
    public boolean usable() {
        return brokerCpuUsPerMsg != null && brokerCpuUsPerMsg > 0 && failed == 0 && !Boolean.FALSE.equals(heldRate)
            && !Boolean.FALSE.equals(clientKeptUp);
    }

    /** Why {@link #usable()} is false, in words. */
    String unusableBecause() {
        if (Boolean.FALSE.equals(heldRate)) {
            return String.format(java.util.Locale.ROOT, "missed the rate: %,.0f of %,.0f msg/s", storedMsgPerS == null ? 0.0 : storedMsgPerS,
                targetRateMsgPerS);
        }
        if (failed > 0) {
            return failed + " failed send(s)";
        }
        if (Boolean.FALSE.equals(clientKeptUp)) {
            return String.format(java.util.Locale.ROOT, "the client handled %,d messages, under %.0f%% of %,.0f msg/s", clientMessages,
                WindowRunner.HELD_FRACTION * 100, targetRateMsgPerS);
        }
        return "no broker CPU figure";
    }
}
