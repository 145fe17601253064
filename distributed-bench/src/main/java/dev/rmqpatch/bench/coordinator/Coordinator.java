package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.BrokerSample;
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import dev.rmqpatch.bench.workload.Workload;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Runs one workload on a set of agents: probes them, creates the topics, prepares and starts all agents together,
 * prints progress every second, opens the measurement window on all agents and the broker at once, stops, and merges
 * the agents' histograms. Any agent or watched process that fails ends the run with an error naming it; what was
 * measured until then is returned in the exception. Nothing here blocks without a timeout.
 */
public final class Coordinator {
    /** Common start delay: long enough for every start request to arrive before anyone begins. */
    private static final long START_DELAY_MS = 300;

    private final List<AgentClient> agents;
    private final AgentGroup group;
    private final BrokerAdmin admin;
    private final BrokerProbe probe;
    private final JmxBrokerProbe jmx;
    private final List<ManagedProcess> watched;
    private final PrintStream out;
    private WindowListener windowListener;

    /**
     * Told when the measurement window opens and closes, e.g. to profile exactly that window. It must not fail the run:
     * what goes wrong in it is its own to report.
     */
    public interface WindowListener {
        /** Just before the agents start measuring (before the broker's first sample). */
        void opening();

        /** Just after the broker's last sample of the window. */
        void closed();
    }

    /**
     * @param probe broker-side figures, or null for none
     * @param watched local processes (broker, name server, sink) whose death ends the run
     */
    public Coordinator(List<AgentClient> agents, BrokerAdmin admin, BrokerProbe probe, List<ManagedProcess> watched, PrintStream out) {
        this(agents, admin, probe, null, watched, out);
    }

    /**
     * @param jmx broker CPU and GC over JMX (brokers on other hosts), replacing the probe's local figures; or null
     */
    public Coordinator(List<AgentClient> agents, BrokerAdmin admin, BrokerProbe probe, JmxBrokerProbe jmx, List<ManagedProcess> watched,
                       PrintStream out) {
        this.group = new AgentGroup(agents);
        this.agents = group.agents();
        this.admin = admin;
        this.probe = probe;
        this.jmx = jmx;
        this.watched = List.copyOf(watched);
        this.out = out;
    }

    /** Sets the listener of the measurement window (at most one); returns this. */
    public Coordinator withWindowListener(WindowListener listener) {
        this.windowListener = listener;
        return this;
    }

    public RunResult run(RunSpec spec) throws RunFailedException {
        try {
            return runOnce(spec);
        } finally {
            group.close();
        }
    }

    private RunResult runOnce(RunSpec spec) throws RunFailedException {
        RunResult result = new RunResult();
        result.label = spec.label;
        result.runId = spec.runId;
        result.startedAt = Instant.now().toString();
        result.workload = view(spec.workload);
        result.clientMode = spec.workload.client().label();
        result.namesrv = spec.namesrv;
        result.topics = spec.topics();
        boolean started = false;
        try {
            probeAgents();
            if (spec.createTopics) {
                createTopics(spec);
            }
            forAll(a -> a.prepare(prepareRequest(spec, a)));
            started = true;
            forAll(a -> a.start(START_DELAY_MS));
            sleep(START_DELAY_MS);
            long[] errorsSoFar = {0};
            tick(spec, "warm-up", spec.workload.warmupDurationSeconds(), result, errorsSoFar);

            if (windowListener != null) {
                windowListener.opening();
            }
            forAll(AgentClient::measure);
            BrokerSample before = sampleBroker(result);
            errorsSoFar[0] = 0;
            tick(spec, "measure", spec.workload.testDurationSeconds(), result, errorsSoFar);
            BrokerSample after = sampleBroker(result);
            if (windowListener != null) {
                windowListener.closed();
            }
            Duration stopTimeout = Duration.ofMillis(spec.sendTimeoutMs + 30_000L);
            List<AgentResult> results = forAll(a -> a.stop(stopTimeout));
            started = false;
            checkWatched();
            if (before != null) {
                result.broker = BrokerFigures.between(before, after);
            }
            aggregate(result, results);
            result.status = "ok";
            result.finishedAt = Instant.now().toString();
            return result;
        } catch (AgentFailure | Abort | BrokerAdmin.AdminException e) {
            result.status = "failed";
            result.error = e.getMessage();
            result.finishedAt = Instant.now().toString();
            if (started) {
                group.resetQuietly();
            }
            throw new RunFailedException(e.getMessage(), result, e);
        }
    }

    /** The probe's sample, with the JMX figures read right after it; a JMX problem is a warning, not a failure. */
    private BrokerSample sampleBroker(RunResult result) throws BrokerAdmin.AdminException {
        if (probe == null) {
            return null;
        }
        BrokerSample s = probe.sample();
        if (jmx != null) {
            jmx.fill(s);
            for (String w : jmx.warnings()) {
                if (!result.warnings.contains(w)) {
                    result.warnings.add(w);
                    out.println("WARNING: " + w);
                }
            }
        }
        return s;
    }

    private void probeAgents() throws AgentFailure {
        group.resetBusy();
    }

    private void createTopics(RunSpec spec) throws BrokerAdmin.AdminException, Abort {
        Map<String, String> masters = admin.masterBrokers(spec.namesrv);
        if (masters.isEmpty()) {
            throw new Abort("no broker is registered at name server " + spec.namesrv);
        }
        for (String topic : spec.topics()) {
            for (String broker : masters.values()) {
                admin.createTopic(broker, topic, spec.workload.partitionsPerTopic());
            }
        }
    }

    private PrepareRequest prepareRequest(RunSpec spec, AgentClient agent) {
        Workload w = spec.workload;
        PrepareRequest r = new PrepareRequest();
        r.runId = spec.runId;
        r.namesrv = spec.namesrv;
        r.topics = spec.topics();
        r.partitionsPerTopic = w.partitionsPerTopic();
        r.messageSize = w.messageSize();
        r.producersPerTopic = w.producersPerTopic();
        r.threads = w.threadsPerAgent();
        r.mode = w.sendMode().label();
        r.ratePerSecond = w.producerRate() / agents.size();
        r.sendTimeoutMs = spec.sendTimeoutMs;
        r.maxOutstanding = spec.maxOutstanding;
        r.routeWaitMs = spec.routeWaitMs;
        r.client = w.client().label();
        r.tags = w.messageTags();
        r.keys = w.messageKeys();
        r.ioThreads = spec.ioThreads;
        return r;
    }

    private void tick(RunSpec spec, String phase, int seconds, RunResult result, long[] errorsSoFar) throws AgentFailure, Abort {
        long begin = System.nanoTime();
        for (int s = 1; s <= seconds; s++) {
            long wait = begin + TimeUnit.SECONDS.toNanos(s) - System.nanoTime();
            if (wait > 0) {
                sleep(TimeUnit.NANOSECONDS.toMillis(wait));
            }
            checkWatched();
            List<ProgressReport> reports = forAll(AgentClient::progress);
            double tps = 0;
            long errors = 0;
            Map<String, Long> kinds = new java.util.TreeMap<>();
            List<Histogram> latencies = new ArrayList<>();
            for (int i = 0; i < reports.size(); i++) {
                ProgressReport r = reports.get(i);
                if ("FAILED".equals(r.state)) {
                    throw new AgentFailure(agents.get(i).name(), agents.get(i).name() + " failed: " + r.error, null);
                }
                if (r.intervalNanos > 0) {
                    tps += r.acked * 1e9 / r.intervalNanos;
                }
                errors += r.failed;
                if (r.errorsByKind != null) {
                    r.errorsByKind.forEach((k, n) -> kinds.merge(k, n, Long::sum));
                }
                if (r.latencyHistogram != null) {
                    latencies.add(Histograms.decode(r.latencyHistogram));
                }
            }
            errorsSoFar[0] += errors;
            ProgressPoint p = new ProgressPoint();
            p.phase = phase;
            p.second = s;
            p.tps = tps;
            p.p99Ms = LatencySummary.of(Histograms.merge(latencies)).p99;
            p.errors = errors;
            p.errorsSoFar = errorsSoFar[0];
            p.errorsByKind = kinds.isEmpty() ? null : kinds;
            result.progress.add(p);
            out.printf("[%s] %-7s %3d/%d s  tps %,10.0f  p99 %8s ms  errors %,d (%,d in %s)%s%n", spec.label, phase, s, seconds, tps,
                p.p99Ms == null ? "-" : String.format("%.2f", p.p99Ms), errors, errorsSoFar[0], phase, kinds.isEmpty() ? "" : "  " + kinds);
            out.flush();
        }
    }

    private void checkWatched() throws Abort {
        for (ManagedProcess p : watched) {
            if (!p.isAlive()) {
                throw new Abort(p.describeState());
            }
        }
        String death = group.deathNotice();
        if (death != null) {
            throw new Abort(death);
        }
    }

    private void aggregate(RunResult result, List<AgentResult> results) {
        Counts window = new Counts();
        Counts total = new Counts();
        List<Histogram> latencies = new ArrayList<>();
        List<Histogram> delays = new ArrayList<>();
        double tps = 0;
        long cpuNanos = 0;
        long cpuMessages = 0;
        for (int i = 0; i < results.size(); i++) {
            AgentResult r = results.get(i);
            RunResult.AgentView v = new RunResult.AgentView();
            v.name = r.name;
            v.address = agents.get(i).address();
            v.host = r.host;
            v.pid = r.pid;
            v.windowSeconds = r.windowNanos / 1e9;
            long done = r.window.acked + r.window.unconfirmed;
            v.tps = r.windowNanos > 0 ? done * 1e9 / r.windowNanos : null;
            v.counts = r.window;
            v.totalCounts = r.total;
            v.byStatus = r.byStatus;
            v.byError = r.byError;
            v.errorSamples = r.errorSamples;
            Histogram latency = Histograms.decode(r.latencyHistogram);
            latencies.add(latency);
            v.latencyMs = LatencySummary.of(latency);
            if (r.sendDelayHistogram != null) {
                Histogram delay = Histograms.decode(r.sendDelayHistogram);
                delays.add(delay);
                v.sendDelayMs = LatencySummary.of(delay);
            }
            v.cpuUsPerMsg = done > 0 ? r.cpuNanos / 1000.0 / done : null;
            v.client = r.client;
            v.lateAnswers = r.lateAnswers;
            result.agents.add(v);
            if (v.tps != null) {
                tps += v.tps;
            }
            cpuNanos += r.cpuNanos;
            cpuMessages += done;
            window.add(r.window);
            total.add(r.total);
            r.byStatus.forEach((k, n) -> result.byStatus.merge(k, n, Long::sum));
            r.byError.forEach((k, n) -> result.byError.merge(k, n, Long::sum));
            r.errorSamples.forEach(result.errorSamples::putIfAbsent);
            if (!r.window.balanced() || !r.total.balanced()) {
                result.warnings.add(r.name + ": outcomes do not add up to sends (window " + describe(r.window) + ", total "
                    + describe(r.total) + ")");
            }
        }
        Histogram merged = Histograms.merge(latencies);
        result.tps = tps;
        result.counts = window;
        result.totalCounts = total;
        result.latencyMs = LatencySummary.of(merged);
        result.latencyHistogram = Histograms.encode(merged);
        result.sendDelayMs = delays.isEmpty() ? null : LatencySummary.of(Histograms.merge(delays));
        result.agentCpuUsPerMsg = cpuMessages > 0 ? cpuNanos / 1000.0 / cpuMessages : null;
    }

    static String describe(Counts c) {
        return "sent " + c.sent + ", acked " + c.acked + ", failed " + c.failed + ", unconfirmed " + c.unconfirmed + ", in flight " + c.inFlight;
    }

    static RunResult.WorkloadView view(Workload w) {
        RunResult.WorkloadView v = new RunResult.WorkloadView();
        v.name = w.name();
        v.topics = w.topics();
        v.partitionsPerTopic = w.partitionsPerTopic();
        v.messageSize = w.messageSize();
        v.producersPerTopic = w.producersPerTopic();
        v.producerRate = w.producerRate();
        v.warmupDurationSeconds = w.warmupDurationSeconds();
        v.testDurationSeconds = w.testDurationSeconds();
        v.threadsPerAgent = w.threadsPerAgent();
        v.sendMode = w.sendMode().label();
        v.client = w.client().label();
        v.messageTags = w.messageTags();
        v.messageKeys = w.messageKeys();
        return v;
    }

    private <T> List<T> forAll(AgentGroup.AgentCall<T> call) throws AgentFailure {
        return group.forAll(call);
    }

    private static void sleep(long ms) throws Abort {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Abort("interrupted");
        }
    }

    /** A reason to end the run that is not an agent's fault (dead broker, no broker, interruption). */
    static final class Abort extends Exception {
        Abort(String message) {
            super(message);
        }
    }
}
