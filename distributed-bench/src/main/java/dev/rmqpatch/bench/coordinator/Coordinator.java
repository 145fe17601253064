package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.BrokerSample;
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.delivery.DeliveryCheck;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.ConsumeResult;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import dev.rmqpatch.bench.omb.OmbIntervals;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.SendMode;
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
        boolean consumers = spec.workload.hasConsumers();
        Workload sw = spec.workload;
        omb = new OmbIntervals(sw.name(), spec.ombDriver, sw.messageSize(), sw.topics(), sw.partitionsPerTopic(), sw.producersPerTopic(),
            sw.consumerPerSubscription(), sw.subscriptionsPerTopic());
        try {
            checkWireSenders(spec);
            checkConsumersPerAgent(spec.workload, agents.size());
            if (spec.workload.payload().isFile()) {
                try {
                    payloadBase64 = java.util.Base64.getEncoder().encodeToString(
                        spec.workload.payload().readFile(spec.workload.messageSize(), spec.payloadDir));
                } catch (IllegalArgumentException | java.io.IOException e) {
                    throw new Abort(e.getMessage());
                }
            }
            probeAgents();
            if (consumers) {
                if (spec.workload.messageSize() < BodyStamp.LENGTH) {
                    throw new Abort("messageSize " + spec.workload.messageSize() + " B is too small for a run with consumers: every body "
                        + "starts with a " + BodyStamp.LENGTH + "-byte stamp (sender, sequence, send time)");
                }
                result.clock = measureClocks();
            }
            if (spec.createTopics) {
                createTopics(spec);
            }
            List<List<PrepareRequest.Subscription>> plan = subscriptionPlan(spec);
            consuming.clear();
            for (int i = 0; i < agents.size(); i++) {
                if (!plan.get(i).isEmpty()) {
                    consuming.add(agents.get(i));
                }
            }
            forAll(a -> a.prepare(prepareRequest(spec, a, plan)));
            started = true;
            forAll(a -> a.start(START_DELAY_MS));
            sleep(START_DELAY_MS);
            if (spec.workload.maxRateSearch()) {
                rateSearch = new RateSearch();
                result.rateSearch = new ArrayList<>();
                lastControlNanos = System.nanoTime();
                out.printf("[%s] producerRate 0: searching for the maximum sustainable rate from %,.0f msg/s%n", spec.label,
                    RateSearch.START_RATE);
            }
            long[] errorsSoFar = {0};
            tick(spec, "warm-up", spec.workload.warmupDurationSeconds(), result, errorsSoFar);

            if (windowListener != null) {
                windowListener.opening();
            }
            forAll(AgentClient::measure);
            BrokerSample before = sampleBroker(result);
            errorsSoFar[0] = 0;
            if (spec.workload.consumerBacklogSizeGB() > 0) {
                // OMB's backlog test: suspend the consumers for the backlog to build, resume them once it has (in tick).
                pauseConsumers(true);
                result.backlog = new RunResult.BacklogView();
                result.backlog.requestedBytes = Math.round(spec.workload.consumerBacklogSizeGB() * (1L << 30));
                result.backlog.pausedAtSecond = 0;
                out.printf("[%s] consumers suspended until the backlog reaches %,d bytes%n", spec.label, result.backlog.requestedBytes);
            }
            tick(spec, "measure", spec.workload.testDurationSeconds(), result, errorsSoFar);
            BrokerSample after = sampleBroker(result);
            if (windowListener != null) {
                windowListener.closed();
            }
            Duration stopTimeout = Duration.ofMillis(spec.sendTimeoutMs + 30_000L);
            List<AgentResult> results = forAll(a -> a.stop(stopTimeout));
            if (!consumers) {
                started = false;
            }
            checkWatched();
            if (before != null) {
                result.broker = BrokerFigures.between(before, after);
            }
            aggregate(result, results);
            if (consumers) {
                if (result.backlog != null && result.backlog.resumedAtSecond == null) {
                    // The backlog never reached its size in the window: let the consumers drain what there is.
                    pauseConsumers(false);
                }
                long acked = result.totalCounts.acked;
                Map<String, Long> ackedByTopic = DeliveryCheck.ackedByTopic(results);
                double[] drainSeconds = {0};
                boolean drained = drain(spec, plan, acked, ackedByTopic, drainSeconds);
                List<ConsumeResult> consumed = forAll(AgentClient::stopConsumers);
                started = false;
                aggregateConsumers(result, consumed);
                result.delivery = DeliveryCheck.check(results, consumed);
                result.delivery.drainSeconds = drainSeconds[0];
                result.delivery.drained = drained;
                describeDelivery(spec, result);
            }
            result.status = "ok";
            result.finishedAt = Instant.now().toString();
            finishOmb(result);
            return result;
        } catch (AgentFailure | Abort | BrokerAdmin.AdminException e) {
            result.status = "failed";
            result.error = e.getMessage() + (consumers && started
                ? " (the run had consumers: what they received was lost with the run, so there is no count check; per-second "
                    + "produce and consume rates until the failure are in progress[])" : "");
            result.finishedAt = Instant.now().toString();
            finishOmb(result);
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
        List<String> topics = spec.topics();
        long began = System.nanoTime();
        long lastReport = began;
        for (int i = 0; i < topics.size(); i++) {
            for (String broker : masters.values()) {
                admin.createTopic(broker, topics.get(i), spec.workload.partitionsPerTopic());
            }
            // RocketMQ 4.9 creates topics one request at a time and rewrites its topics.json on each: many topics take
            // a while, so say how far it got every 10 s instead of looking hung.
            long now = System.nanoTime();
            if (now - lastReport >= TimeUnit.SECONDS.toNanos(10) && i + 1 < topics.size()) {
                out.printf("[%s] created %,d of %,d topics on %d master(s) (%d s)%n", spec.label, i + 1, topics.size(), masters.size(),
                    TimeUnit.NANOSECONDS.toSeconds(now - began));
                lastReport = now;
            }
        }
        if (topics.size() >= 100) {
            out.printf("[%s] created %,d topics x %,d queues on %d master(s) in %.1f s%n", spec.label, topics.size(),
                spec.workload.partitionsPerTopic(), masters.size(), (System.nanoTime() - began) / 1e9);
        }
    }

    /**
     * Which consumers run where: each topic gets subscriptionsPerTopic consumer groups of consumerPerSubscription push
     * consumers each; all consumers of the run are dealt round robin over the agents, so N consumers on M agents are as
     * even as N allows and one group's consumers sit on different agents where there are several.
     */
    List<List<PrepareRequest.Subscription>> subscriptionPlan(RunSpec spec) {
        List<List<PrepareRequest.Subscription>> plan = new ArrayList<>();
        for (int i = 0; i < agents.size(); i++) {
            plan.add(new ArrayList<>());
        }
        Workload w = spec.workload;
        int next = 0;
        List<String> topics = spec.topics();
        for (int t = 0; t < topics.size(); t++) {
            for (int s = 0; s < w.subscriptionsPerTopic(); s++) {
                String group = groupName(spec, t, s);
                for (int c = 0; c < w.consumerPerSubscription(); c++) {
                    List<PrepareRequest.Subscription> mine = plan.get(next++ % agents.size());
                    PrepareRequest.Subscription existing = null;
                    for (PrepareRequest.Subscription x : mine) {
                        if (x.group.equals(group)) {
                            existing = x;
                        }
                    }
                    if (existing == null) {
                        mine.add(new PrepareRequest.Subscription(topics.get(t), group, 1));
                    } else {
                        existing.consumers++;
                    }
                }
            }
        }
        return plan;
    }

    static String groupName(RunSpec spec, int topic, int subscription) {
        return "bench-" + spec.runId + "-" + topic + "-sub-" + subscription;
    }

    /**
     * Each agent's wall clock against this one's. An agent on this host reads the same clock: offset 0. For another
     * host, five {@code GET /status} calls; the one with the shortest round trip gives offset = agent time minus the
     * midpoint of the call, within half that round trip (the NTP idea, without its filtering). Stamps and consume times
     * are then written on the coordinator's clock; what the estimate cannot see (asymmetric paths, drift during the run)
     * stays in the end-to-end figures, which is why the offsets and their uncertainty go into the results.
     */
    private RunResult.ClockView measureClocks() throws AgentFailure {
        RunResult.ClockView v = new RunResult.ClockView();
        v.method = "send and consume times on the coordinator's wall clock: agents on its host read the same clock (offset 0); "
            + "for others, offset = agent clock minus the midpoint of the fastest of 5 status calls (+/- half its round trip)";
        for (AgentClient a : agents) {
            long best = Long.MAX_VALUE;
            long offset = 0;
            if (!a.isLocal()) {
                for (int i = 0; i < 5; i++) {
                    long t0 = BodyStamp.wallMicros();
                    long agentNow = a.status().wallClockMicros;
                    long t1 = BodyStamp.wallMicros();
                    if (t1 - t0 < best) {
                        best = t1 - t0;
                        offset = agentNow - (t0 + t1) / 2;
                    }
                }
            } else {
                best = 0;
            }
            v.offsetMicros.put(a.name(), offset);
            v.uncertaintyMicros.put(a.name(), best / 2);
            clockOffsets.put(a.name(), offset);
            if (best / 2 > 1000) {
                out.printf("WARNING: %s's clock offset is known to +/- %.1f ms only: end-to-end latencies carry that error%n", a.name(),
                    best / 2000.0);
            }
        }
        return v;
    }

    private final Map<String, Long> clockOffsets = new java.util.HashMap<>();
    /** The measured phase in OMB's 10-second intervals, for the OMB-format result file. */
    private OmbIntervals omb;

    /** The OMB-format result of what was measured (also of a failed run, up to the failure); windows from results.json. */
    private void finishOmb(RunResult result) {
        if (omb == null) {
            return;
        }
        try {
            result.omb = omb.finish(result.latencyHistogram == null ? null : Histograms.decode(result.latencyHistogram),
                result.endToEndHistogram == null ? null : Histograms.decode(result.endToEndHistogram));
        } catch (RuntimeException e) {
            out.println("WARNING: no OMB-format result: " + e.getMessage());
        }
    }
    /** OMB's producerRate 0: the search, when the coordinator has started one, and the end of its last control period. */
    private RateSearch rateSearch;
    private long lastControlNanos;
    /** Seconds of the run so far (warm-up and measured phase), for the search's control period. */
    private int searchSeconds;
    /** Per agent index: progress cut off by a rate change, added to that agent's next progress report. */
    private final Map<Integer, ProgressReport> carried = new java.util.HashMap<>();

    private List<ProgressReport> withCarried(List<ProgressReport> reports) {
        if (carried.isEmpty()) {
            return reports;
        }
        List<ProgressReport> merged = new ArrayList<>(reports);
        carried.forEach((i, earlier) -> merged.set(i, ProgressReports.add(earlier, merged.get(i))));
        carried.clear();
        return merged;
    }
    /** The workload's payload file, read once here and shipped to the agents (they may run on hosts without it). */
    private String payloadBase64;
    /** The agents the subscription plan gave consumers to. */
    private final java.util.Set<AgentClient> consuming = new java.util.HashSet<>();

    /** Most push consumers one agent starts (see {@link #checkConsumersPerAgent}). */
    static final int MAX_CONSUMERS_PER_AGENT = 2_000;

    /**
     * The consumers are dealt round robin over the agents; one agent takes at most {@link #MAX_CONSUMERS_PER_AGENT}. Each
     * is a stock DefaultMQPushConsumer with its own consume thread pool (up to consumeThreadMin, 20, threads) and its
     * own rebalance of its topic's queues; OMB's files with 5,000 topics and more (4 consumers each) would put 10,000
     * and more into each of two agents, which no agent JVM holds. Refused before any topic is created, naming the fields.
     */
    public static void checkConsumersPerAgent(Workload w, int agentCount) throws Abort {
        long total = (long) w.topics() * w.subscriptionsPerTopic() * w.consumerPerSubscription();
        long perAgent = (total + agentCount - 1) / Math.max(1, agentCount);
        if (perAgent > MAX_CONSUMERS_PER_AGENT) {
            throw new Abort(String.format("topics x subscriptionsPerTopic x consumerPerSubscription = %,d x %d x %d = %,d push consumers, "
                + "%,d on each of %d agent(s); an agent starts at most %,d (each stock DefaultMQPushConsumer has its own consume thread "
                + "pool of up to 20 threads and rebalances its topic's queues itself): give %,d agents or more (--agents N, or agent "
                + "hosts), or fewer topics", w.topics(), w.subscriptionsPerTopic(), w.consumerPerSubscription(), total, perAgent, agentCount,
                MAX_CONSUMERS_PER_AGENT, (total + MAX_CONSUMERS_PER_AGENT - 1) / MAX_CONSUMERS_PER_AGENT));
        }
    }

    /**
     * --client wire: each sender slot (a sync or oneway thread, or one of async's maxOutstanding) sends to one topic and
     * producer pair, so more pairs than slots would leave topics without messages: said before anything starts.
     */
    static void checkWireSenders(RunSpec spec) throws Abort {
        Workload w = spec.workload;
        if (w.client() != ClientMode.WIRE) {
            return;
        }
        int senders = w.sendMode() == SendMode.ASYNC ? spec.maxOutstanding : w.threadsPerAgent();
        long pairs = (long) w.topics() * w.producersPerTopic();
        if (pairs > senders) {
            throw new Abort("--client wire: each of its " + senders + " sender slots per agent sends to one topic and producer, so topics x "
                + "producersPerTopic = " + w.topics() + " x " + w.producersPerTopic() + " = " + pairs + " would leave " + (pairs - senders)
                + " of them without messages; give " + (w.sendMode() == SendMode.ASYNC ? "--max-outstanding " : "--threads ") + pairs
                + " or more, or --client rocketmq (whose threads take turns over the topics)");
        }
    }

    private PrepareRequest prepareRequest(RunSpec spec, AgentClient agent, List<List<PrepareRequest.Subscription>> plan) {
        Workload w = spec.workload;
        PrepareRequest r = new PrepareRequest();
        int index = agents.indexOf(agent);
        r.agentIndex = index;
        r.stampBodies = w.hasConsumers();
        r.clockOffsetMicros = clockOffsets.getOrDefault(agent.name(), 0L);
        r.subscriptions = plan.get(index).isEmpty() ? null : plan.get(index);
        r.runId = spec.runId;
        r.namesrv = spec.namesrv;
        r.topics = spec.topics();
        r.partitionsPerTopic = w.partitionsPerTopic();
        r.messageSize = w.messageSize();
        r.producersPerTopic = w.producersPerTopic();
        r.threads = w.threadsPerAgent();
        r.mode = w.sendMode().label();
        r.ratePerSecond = (w.maxRateSearch() ? RateSearch.START_RATE : w.producerRate()) / agents.size();
        r.sendTimeoutMs = spec.sendTimeoutMs;
        r.maxOutstanding = spec.maxOutstanding;
        r.routeWaitMs = spec.routeWaitMs;
        r.client = w.client().label();
        r.tags = w.messageTags();
        r.keys = w.messageKeys();
        r.keyDistributor = w.keyDistributor() == KeyDistributor.NO_KEY ? null : w.keyDistributor().name();
        r.payloadBase64 = payloadBase64;
        if (w.payload().isRandomized()) {
            r.randomizedPayloadPoolSize = w.payload().poolSize();
            r.randomBytesRatio = w.payload().randomBytesRatio();
        }
        r.ioThreads = spec.ioThreads;
        return r;
    }

    /**
     * OMB's max-rate search: every agent gets its share of the new rate on a fresh schedule. The agents answer with the
     * progress interval that ends there; it is kept and added to the next progress poll, so no second is short of sends.
     */
    private void setRate(double total) throws AgentFailure {
        List<ProgressReport> cut = forAll(a -> a.target(0, total / agents.size()));
        for (int i = 0; i < cut.size(); i++) {
            carried.merge(i, cut.get(i), ProgressReports::add);
        }
    }

    private void tick(RunSpec spec, String phase, int seconds, RunResult result, long[] errorsSoFar) throws AgentFailure, Abort {
        long begin = System.nanoTime();
        boolean backlogRun = "measure".equals(phase) && result.backlog != null;
        for (int s = 1; s <= (backlogRun ? backlogEnd(spec, result.backlog, s) : seconds); s++) {
            long wait = begin + TimeUnit.SECONDS.toNanos(s) - System.nanoTime();
            if (wait > 0) {
                sleep(TimeUnit.NANOSECONDS.toMillis(wait));
            }
            checkWatched();
            List<ProgressReport> reports = withCarried(forAll(AgentClient::progress));
            double tps = 0;
            long errors = 0;
            Map<String, Long> kinds = new java.util.TreeMap<>();
            List<Histogram> latencies = new ArrayList<>();
            double consumeTps = 0;
            List<Histogram> endToEnd = new ArrayList<>();
            List<Histogram> delays = new ArrayList<>();
            long intervalNanos = 0;
            long acked = 0;
            long consumed = 0;
            long ackedSinceStart = 0;
            Map<String, Long> received = new java.util.HashMap<>();
            for (int i = 0; i < reports.size(); i++) {
                ProgressReport r = reports.get(i);
                if ("FAILED".equals(r.state)) {
                    throw new AgentFailure(agents.get(i).name(), agents.get(i).name() + " failed: " + r.error, null);
                }
                if (r.intervalNanos > 0) {
                    tps += r.acked * 1e9 / r.intervalNanos;
                    consumeTps += r.consumed * 1e9 / r.intervalNanos;
                }
                errors += r.failed;
                if (r.errorsByKind != null) {
                    r.errorsByKind.forEach((k, n) -> kinds.merge(k, n, Long::sum));
                }
                if (r.latencyHistogram != null) {
                    latencies.add(Histograms.decode(r.latencyHistogram));
                }
                if (r.sendDelayHistogram != null) {
                    delays.add(Histograms.decode(r.sendDelayHistogram));
                }
                intervalNanos = Math.max(intervalNanos, r.intervalNanos);
                acked += r.acked;
                consumed += r.consumed;
                if (r.endToEndHistogram != null) {
                    endToEnd.add(Histograms.decode(r.endToEndHistogram));
                }
                ackedSinceStart += r.ackedSinceStart;
                if (r.receivedByGroup != null) {
                    r.receivedByGroup.forEach((g, n) -> received.merge(g, n, Long::sum));
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
            String consume = "";
            if (spec.workload.hasConsumers()) {
                p.consumeTps = consumeTps;
                p.endToEndP99Ms = LatencySummary.of(Histograms.merge(endToEnd)).p99;
                long receivedAll = 0;
                for (long n : received.values()) {
                    receivedAll += n;
                }
                // OMB's backlog: subscriptions per topic x messages published, minus messages received by all of them
                // (right for several topics too, where each subscription receives its own topic's share).
                long ombBacklog = Math.max(0, spec.workload.subscriptionsPerTopic() * ackedSinceStart - receivedAll);
                p.backlogBytes = ombBacklog * spec.workload.messageSize();
                consume = String.format("  consume %,10.0f  e2e p99 %8s ms  lag %,d msgs", consumeTps,
                    p.endToEndP99Ms == null ? "-" : String.format("%.2f", p.endToEndP99Ms), ombBacklog);
                if ("measure".equals(phase)) {
                    backlogStep(spec, result, s, ombBacklog);
                }
            }
            result.progress.add(p);
            if ("measure".equals(phase) && omb != null) {
                long receivedAll = 0;
                for (long n : received.values()) {
                    receivedAll += n;
                }
                omb.second(intervalNanos, acked, errors, consumed, Histograms.merge(latencies), delays.isEmpty() ? null : Histograms.merge(delays),
                    endToEnd.isEmpty() ? null : Histograms.merge(endToEnd), ackedSinceStart, receivedAll);
            }
            if (rateSearch != null && ++searchSeconds % RateSearch.CONTROL_PERIOD_SECONDS == 0) {
                long now = System.nanoTime();
                long receivedAll = 0;
                for (long n : received.values()) {
                    receivedAll += n;
                }
                // Received, in published messages: all subscriptions' receipts over subscriptions per topic.
                long receivedPerSubscription = spec.workload.hasConsumers() ? receivedAll / spec.workload.subscriptionsPerTopic() : ackedSinceStart;
                double rate = rateSearch.next(now - lastControlNanos, ackedSinceStart, receivedPerSubscription);
                lastControlNanos = now;
                setRate(rate);
                result.rateSearch.add(new RunResult.RateStep(phase, s, rate));
                out.printf("[%s] rate search: next %,.0f msg/s%n", spec.label, rate);
            }
            int shown = backlogRun ? backlogEnd(spec, result.backlog, s) : seconds;
            out.printf("[%s] %-7s %3d/%s s  tps %,10.0f  p99 %8s ms%s  errors %,d (%,d in %s)%s%n", spec.label, phase, s, shown == Integer.MAX_VALUE ? "?" : Integer.toString(shown), tps,
                p.p99Ms == null ? "-" : String.format("%.2f", p.p99Ms), consume, errors, errorsSoFar[0], phase, kinds.isEmpty() ? "" : "  " + kinds);
            out.flush();
        }
    }

    /** Seconds without progress after which a backlog that neither grows (building) nor shrinks (draining) ends the run. */
    static final int BACKLOG_STALL_SECONDS = 60;

    /**
     * The last second of a backlog run's measured phase, as OMB runs it: open-ended until the backlog is built and
     * drained, then testDuration more.
     */
    private static int backlogEnd(RunSpec spec, RunResult.BacklogView b, int second) {
        return b.drainedAtSecond == null ? Integer.MAX_VALUE : b.drainedAtSecond + spec.workload.testDurationSeconds();
    }

    /**
     * Backlog runs (OMB's consumerBacklogSizeGB): resume the consumers once the backlog (in OMB's terms: subscriptions x
     * published - received, in messages) reaches the requested size, note when it is drained: at most
     * max(1,000 messages, (1 - backlogDrainRatio) x the requested backlog) left, as OMB decides.
     */
    private void backlogStep(RunSpec spec, RunResult result, int second, long backlogMessages) throws AgentFailure, Abort {
        RunResult.BacklogView b = result.backlog;
        if (b == null) {
            return;
        }
        int size = spec.workload.messageSize();
        long backlogBytes = backlogMessages * size;
        if (backlogBytes > b.peakBytes) {
            b.peakBytes = backlogBytes;
            if (b.resumedAtSecond == null) {
                backlogProgressSecond = second;
            }
        }
        if (b.resumedAtSecond == null && backlogBytes >= b.requestedBytes) {
            pauseConsumers(false);
            b.resumedAtSecond = second;
            backlogProgressSecond = second;
            drainLow = backlogMessages;
            out.printf("[%s] backlog of %,d bytes built after %d s: consumers resumed%n", spec.label, backlogBytes, second);
            return;
        }
        if (b.resumedAtSecond != null && b.drainedAtSecond == null) {
            long emptyLevel = Math.max(1000L, (long) ((1.0 - spec.workload.backlogDrainRatio()) * (b.requestedBytes / size)));
            if (backlogMessages < drainLow) {
                drainLow = backlogMessages;
                backlogProgressSecond = second;
            }
            if (backlogMessages <= emptyLevel) {
                b.drainedAtSecond = second;
                out.printf("[%s] backlog drained %d s after the consumers resumed (%,d messages left, limit %,d); measuring %d s more%n",
                    spec.label, second - b.resumedAtSecond, backlogMessages, emptyLevel, spec.workload.testDurationSeconds());
                return;
            }
        }
        if (b.drainedAtSecond == null && second - backlogProgressSecond >= BACKLOG_STALL_SECONDS) {
            throw new Abort("the backlog " + (b.resumedAtSecond == null ? "stopped growing at " + b.peakBytes + " of " + b.requestedBytes
                + " bytes" : "stopped shrinking at " + drainLow + " messages") + " for " + BACKLOG_STALL_SECONDS + " s");
        }
    }

    private int backlogProgressSecond;
    private long drainLow = Long.MAX_VALUE;

    /**
     * After the producers stopped: polls the consumers every second until every subscription has received as many
     * distinct messages as were acknowledged and the counts held still for a second, or nothing moved for 15 s, or
     * the drain timeout passed. Returns whether they caught up.
     */
    private boolean drain(RunSpec spec, List<List<PrepareRequest.Subscription>> plan, long acked, Map<String, Long> ackedByTopic,
                          double[] seconds) throws AgentFailure, Abort {
        java.util.Set<String> groups = new java.util.TreeSet<>();
        // What each subscription must receive: the acknowledged sends to its topic (all of them when the agents did not say).
        Map<String, Long> expected = new java.util.TreeMap<>();
        for (List<PrepareRequest.Subscription> mine : plan) {
            for (PrepareRequest.Subscription x : mine) {
                groups.add(x.group);
                expected.put(x.group, ackedByTopic == null ? acked : ackedByTopic.getOrDefault(x.topic, 0L));
            }
        }
        long begin = System.nanoTime();
        long lastChange = begin;
        Map<String, Long> last = null;
        for (int s = 1; ; s++) {
            long wait = begin + TimeUnit.SECONDS.toNanos(s) - System.nanoTime();
            if (wait > 0) {
                sleep(TimeUnit.NANOSECONDS.toMillis(wait));
            }
            checkWatched();
            List<ProgressReport> reports = forAll(AgentClient::progress);
            Map<String, Long> received = new java.util.TreeMap<>();
            groups.forEach(g -> received.put(g, 0L));
            for (int i = 0; i < reports.size(); i++) {
                ProgressReport r = reports.get(i);
                if ("FAILED".equals(r.state)) {
                    throw new AgentFailure(agents.get(i).name(), agents.get(i).name() + " failed while its consumers drained: " + r.error, null);
                }
                if (r.receivedByGroup != null) {
                    r.receivedByGroup.forEach((g, n) -> received.merge(g, n, Long::sum));
                }
            }
            long now = System.nanoTime();
            seconds[0] = (now - begin) / 1e9;
            boolean all = received.entrySet().stream().allMatch(e -> e.getValue() >= expected.getOrDefault(e.getKey(), acked));
            if (all && received.equals(last)) {
                out.printf("[%s] drain   every subscription received all %,d acknowledged messages (%.0f s)%n", spec.label, acked, seconds[0]);
                return true;
            }
            if (!received.equals(last)) {
                lastChange = now;
            }
            String slowestGroup = null;
            for (Map.Entry<String, Long> e : received.entrySet()) {
                long behind = expected.getOrDefault(e.getKey(), acked) - e.getValue();
                if (slowestGroup == null || behind > expected.getOrDefault(slowestGroup, acked) - received.get(slowestGroup)) {
                    slowestGroup = e.getKey();
                }
            }
            out.printf("[%s] drain   %3d s  slowest subscription %,d of %,d acknowledged%n", spec.label, s,
                slowestGroup == null ? acked : received.get(slowestGroup), slowestGroup == null ? acked : expected.getOrDefault(slowestGroup, acked));
            if (s >= spec.drainTimeoutSeconds() || now - lastChange > TimeUnit.SECONDS.toNanos(15)) {
                out.printf("[%s] drain   gave up after %d s (%s)%n", spec.label, s,
                    s >= spec.drainTimeoutSeconds() ? "drain timeout" : "nothing received for 15 s");
                return false;
            }
            last = received;
        }
    }

    private void aggregateConsumers(RunResult result, List<ConsumeResult> consumed) {
        double tps = 0;
        long window = 0;
        long total = 0;
        long negative = 0;
        List<Histogram> endToEnd = new ArrayList<>();
        result.consumeErrors = new java.util.TreeMap<>();
        result.consumeErrorSamples = new java.util.TreeMap<>();
        for (int i = 0; i < consumed.size(); i++) {
            ConsumeResult c = consumed.get(i);
            Double agentTps = c.windowNanos > 0 ? c.windowConsumed * 1e9 / c.windowNanos : null;
            if (agentTps != null) {
                tps += agentTps;
            }
            if (i < result.agents.size()) {
                result.agents.get(i).consumeTps = agentTps;
            }
            window += c.windowConsumed;
            total += c.totalConsumed;
            negative += c.negativeEndToEnd;
            endToEnd.add(Histograms.decode(c.endToEndHistogram));
            if (c.errorsByKind != null) {
                c.errorsByKind.forEach((k, n) -> result.consumeErrors.merge(k, n, Long::sum));
            }
            if (c.errorSamples != null) {
                c.errorSamples.forEach(result.consumeErrorSamples::putIfAbsent);
            }
        }
        Histogram merged = Histograms.merge(endToEnd);
        result.consumeTps = tps;
        result.consumedInWindow = window;
        result.consumedTotal = total;
        result.endToEndLatencyMs = LatencySummary.of(merged);
        result.endToEndHistogram = Histograms.encode(merged);
        if (negative > 0) {
            result.warnings.add(String.format("%,d deliveries were consumed before they were sent by the clocks' reading (recorded as 0): "
                + "the agents' clocks are further apart than the measured offsets (see clock)", negative));
        }
        long errors = result.consumeErrors.values().stream().mapToLong(Long::longValue).sum();
        if (errors > 0) {
            result.warnings.add(String.format("%,d deliveries could not be used: %s", errors, result.consumeErrors));
        }
    }

    private void describeDelivery(RunSpec spec, RunResult result) {
        DeliveryCheck.Report d = result.delivery;
        if (!"sync".equals(spec.workload.sendMode().label()) && !"async".equals(spec.workload.sendMode().label())) {
            d.note = "oneway sends are never acknowledged: the count check has nothing to check";
        }
        for (DeliveryCheck.Subscription sub : d.subscriptions) {
            out.printf("[%s] count check %s: %,d acknowledged, %,d received, %,d missing, %,d duplicate deliveries%s%n", spec.label, sub.group,
                sub.acknowledged, sub.received, sub.missing, sub.duplicates, sub.missing > 0 ? " (first missing stream/sequence: "
                    + String.join(", ", sub.firstMissing) + ")" : "");
        }
        if (d.missingMessages > 0) {
            result.warnings.add(String.format("count check: %,d acknowledged messages were never consumed (summed over subscriptions; "
                + "consumers %s)", d.missingMessages, d.drained ? "had caught up by the counts" : "had not caught up when the drain ended"));
        }
        out.printf("[%s] consume %,.0f msg/s, end-to-end p50 %s p99 %s p99.9 %s ms%n", spec.label, result.consumeTps,
            fmt(result.endToEndLatencyMs.p50), fmt(result.endToEndLatencyMs.p99), fmt(result.endToEndLatencyMs.p999));
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.format("%.2f", v);
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
        v.subscriptionsPerTopic = w.subscriptionsPerTopic();
        v.consumerPerSubscription = w.consumerPerSubscription();
        v.consumerBacklogSizeGB = w.consumerBacklogSizeGB();
        v.client = w.client().label();
        v.messageTags = w.messageTags();
        v.messageKeys = w.messageKeys();
        v.keyDistributor = w.keyDistributor().name();
        v.payload = w.payload().toString();
        v.backlogDrainRatio = w.backlogDrainRatio();
        v.maxRateSearch = w.maxRateSearch();
        return v;
    }

    /**
     * Suspends or resumes the consumers (backlog runs) on the agents that have some: with fewer consumers than agents
     * (OMB's backlog files have one) the others have none to pause and would refuse.
     */
    private void pauseConsumers(boolean paused) throws AgentFailure {
        forAll(a -> consuming.contains(a) ? a.pauseConsumers(paused) : null);
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
    public static final class Abort extends Exception {
        Abort(String message) {
            super(message);
        }
    }
}
