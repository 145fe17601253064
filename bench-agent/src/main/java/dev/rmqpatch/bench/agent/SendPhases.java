package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The phases of one load generator's run, whatever client sends: warm-up, then the measurement window that
 * {@link #beginMeasurement()} opens. Senders charge every outcome to {@link #current()}; progress drains the current
 * phase's interval; the result's totals add up all phases and its window is the last one.
 */
final class SendPhases {
    private final List<PhaseStats> phases = new ArrayList<>();
    private volatile PhaseStats current;
    /** Set by the first rate schedule: from then on results carry the send-delay histogram. */
    private volatile boolean rateLimited;
    private long measureStartNanos;
    private long measureStartCpu;

    /** Opens the first phase (warm-up), from {@code startNanos}. */
    void start(long startNanos) {
        current = add(startNanos);
    }

    /** The phase sends are charged to now; null before {@link #start}. */
    PhaseStats current() {
        return current;
    }

    /** Starts the measurement window: from now on sends are charged to a fresh phase, and the process CPU counts. */
    synchronized void beginMeasurement() {
        measureStartNanos = System.nanoTime();
        measureStartCpu = processCpuNanos();
        current = add(measureStartNanos);
    }

    private PhaseStats add(long startNanos) {
        PhaseStats stats = new PhaseStats(startNanos);
        synchronized (phases) {
            phases.add(stats);
        }
        return stats;
    }

    /** A send schedule at {@code ratePerSecond} from {@code startNanos}, or null for unlimited (0). */
    UniformRateLimiter limiter(double ratePerSecond, long startNanos) {
        if (!(ratePerSecond > 0)) {
            return null;
        }
        UniformRateLimiter limiter = new UniformRateLimiter(ratePerSecond);
        limiter.start(startNanos);
        rateLimited = true;
        return limiter;
    }

    /** What the current phase did since the last call. */
    ProgressReport progress() {
        PhaseStats phase = current;
        ProgressReport report = new ProgressReport();
        if (phase == null) {
            return report;
        }
        PhaseStats.Interval interval = phase.drainInterval(System.nanoTime());
        report.intervalNanos = interval.nanos;
        report.sent = interval.sent;
        report.acked = interval.acked;
        report.failed = interval.failed;
        report.errorsByKind = interval.errorsByKind;
        report.latencyHistogram = Histograms.encode(interval.latency);
        if (interval.sendDelay != null && interval.sendDelay.getTotalCount() > 0) {
            report.sendDelayHistogram = Histograms.encode(interval.sendDelay);
        }
        return report;
    }

    long ackedSinceStart() {
        long n = 0;
        synchronized (phases) {
            for (PhaseStats p : phases) {
                n += p.counts(0).acked;
            }
        }
        return n;
    }

    /**
     * Fills the counts of a stopped run into {@code result}: totals over all phases, and the measurement window from
     * {@link #beginMeasurement()} to {@code stopNanos} / {@code stopCpu}. {@code inFlight} answers still missing
     * belong to the newest phase: the older ones ended long before.
     */
    synchronized void fill(AgentResult result, long stopNanos, long stopCpu, long inFlight) {
        PhaseStats window;
        result.total = new Counts();
        synchronized (phases) {
            window = phases.size() > 1 ? current : null;
            for (PhaseStats p : phases) {
                result.total.add(p.counts(p == current ? inFlight : 0));
            }
        }
        if (window == null) {
            // Stopped during warm-up: an empty window, but the totals still describe what was sent.
            result.window = new Counts();
            result.windowNanos = 0;
            result.latencyHistogram = Histograms.encode(Histograms.create());
            result.byStatus = new TreeMap<>();
            result.byError = new TreeMap<>();
            result.errorSamples = new TreeMap<>();
        } else {
            result.window = window.counts(inFlight);
            result.windowNanos = stopNanos - measureStartNanos;
            result.cpuNanos = stopCpu - measureStartCpu;
            result.latencyHistogram = Histograms.encode(window.cumulativeLatency());
            if (rateLimited) {
                result.sendDelayHistogram = Histograms.encode(window.cumulativeSendDelay());
            }
            result.byStatus = window.byStatus();
            result.byError = window.byError();
            result.errorSamples = window.errorSamples();
        }
    }

    /** This JVM's CPU time (all threads), 0 where the JVM does not report it. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return 0;
    }
}
