package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.BrokerSample;
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.bench.delivery.DeliveryCheck;
import dev.rmqpatch.bench.omb.OmbIntervals;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.ConsumeResult;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.ManagedProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Runs one workload on a set of agents: probes them, creates the topics, prepares and starts all agents together,
 * prints progress every second, opens the measurement window on all agents and the broker at once, stops, and merges
 * the agents' histograms. Any agent or watched process that fails ends the run with an error naming it; what was
 * measured until then is returned in the exception. Nothing here blocks without a timeout. This class orders the
 * steps; each step's work is its own class (limits, clocks, topics, subscription plan, phases, backlog, drain, results).
 */
public final class Coordinator {
    /** Common start delay: long enough for every start request to arrive before anyone begins. */
    private static final long START_DELAY_MS = 300;

    private final List<AgentClient> agents;
    private final AgentGroup group;
    private final BrokerAdmin admin;
    private final BrokerProbe probe;
    private final JmxBrokerProbe jmx;
    private final RunWatch watch;
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
        this.watch = new RunWatch(watched, group);
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

    /**
     * Refuses more push consumers per agent than an agent holds (see {@link RunLimits#checkConsumersPerAgent}), before
     * any topic is created, naming the fields.
     */
    public static void checkConsumersPerAgent(Workload w, int agentCount) throws Abort {
        RunLimits.checkConsumersPerAgent(w, agentCount);
    }

    private RunResult runOnce(RunSpec spec) throws RunFailedException {
        RunResult result = ResultHeader.open(spec);
        boolean started = false;
        boolean consumers = spec.workload.hasConsumers();
        Workload sw = spec.workload;
        // The measured phase in OMB's 10-second intervals, for the OMB-format result file.
        OmbIntervals omb = new OmbIntervals(sw.name(), spec.ombDriver, sw.messageSize(), sw.topics(), sw.partitionsPerTopic(),
            sw.producersPerTopic(), sw.consumerPerSubscription(), consumers ? sw.subscriptionsPerTopic() : 0);
        try {
            RunLimits.checkWireSenders(spec);
            checkConsumersPerAgent(spec.workload, agents.size());
            String payloadBase64 = payloadBase64(spec);
            group.resetBusy();
            if (consumers) {
                RunLimits.checkStampFits(spec.workload);
                result.clock = AgentClocks.measure(agents, out);
            }
            if (spec.createTopics) {
                TopicSetup.create(admin, spec, out);
            }
            SubscriptionPlan plan = SubscriptionPlan.deal(spec, agents.size());
            forAll(a -> a.prepare(PrepareRequests.forAgent(spec, payloadBase64, agents.indexOf(a), agents.size(), plan,
                AgentClocks.offsetOf(result.clock, a.name()))));
            started = true;
            forAll(a -> a.start(START_DELAY_MS));
            Pacing.sleep(START_DELAY_MS);
            PhaseLoop phases = new PhaseLoop(spec, group, watch, result, omb, out);
            if (spec.workload.maxRateSearch()) {
                phases.searchRate();
            }
            phases.warmUp();

            if (windowListener != null) {
                windowListener.opening();
            }
            forAll(AgentClient::measure);
            BrokerSample before = sampleBroker(result);
            // OMB's backlog test: suspend the consumers for the backlog to build, resume them once it has (in the phase loop).
            ConsumerBacklog backlog = spec.workload.consumerBacklogSizeGB() > 0 ? ConsumerBacklog.suspend(spec, group, plan, result, out) : null;
            phases.measure(backlog);
            BrokerSample after = sampleBroker(result);
            if (windowListener != null) {
                windowListener.closed();
            }
            Duration stopTimeout = Duration.ofMillis(spec.sendTimeoutMs + 30_000L);
            List<AgentResult> results = forAll(a -> a.stop(stopTimeout));
            if (!consumers) {
                started = false;
            }
            watch.check();
            if (before != null) {
                result.broker = BrokerFigures.between(before, after);
            }
            ProducerResults.merge(result, results, agents);
            if (consumers) {
                if (backlog != null) {
                    backlog.resumeIfStillSuspended();
                }
                ConsumerDrain drain = new ConsumerDrain(spec, group, watch, out);
                boolean drained = drain.run(plan, result.totalCounts.acked, DeliveryCheck.ackedByTopic(results));
                List<ConsumeResult> consumed = forAll(AgentClient::stopConsumers);
                started = false;
                ConsumerResults.merge(result, consumed);
                result.delivery = DeliveryCheck.check(results, consumed);
                result.delivery.drainSeconds = drain.seconds();
                result.delivery.drained = drained;
                ConsumerResults.describeDelivery(spec, result, out);
            }
            result.status = "ok";
            result.finishedAt = Instant.now().toString();
            finishOmb(result, omb);
            return result;
        } catch (AgentFailure | Abort | BrokerAdmin.AdminException e) {
            result.status = "failed";
            result.error = e.getMessage() + (consumers && started
                ? " (the run had consumers: what they received was lost with the run, so there is no count check; per-second "
                    + "produce and consume rates until the failure are in progress[])" : "");
            result.finishedAt = Instant.now().toString();
            finishOmb(result, omb);
            if (started) {
                group.resetQuietly();
            }
            throw new RunFailedException(e.getMessage(), result, e);
        }
    }

    /** The workload's payload file, read once here and shipped to the agents (they may run on hosts without it); null = none. */
    private static String payloadBase64(RunSpec spec) throws Abort {
        try {
            return PrepareRequests.payloadBase64(spec.workload, spec.payloadDir);
        } catch (IllegalArgumentException | IOException e) {
            throw new Abort(e.getMessage());
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

    /** The OMB-format result of what was measured (also of a failed run, up to the failure); windows from results.json. */
    private void finishOmb(RunResult result, OmbIntervals omb) {
        try {
            result.omb = omb.finish(result.latencyHistogram == null ? null : Histograms.decode(result.latencyHistogram),
                result.endToEndHistogram == null ? null : Histograms.decode(result.endToEndHistogram));
        } catch (RuntimeException e) {
            out.println("WARNING: no OMB-format result: " + e.getMessage());
        }
    }

    private <T> List<T> forAll(AgentGroup.AgentCall<T> call) throws AgentFailure {
        return group.forAll(call);
    }

    /** A reason to end the run that is not an agent's fault (dead broker, no broker, interruption). */
    public static final class Abort extends Exception {
        Abort(String message) {
            super(message);
        }
    }
}
