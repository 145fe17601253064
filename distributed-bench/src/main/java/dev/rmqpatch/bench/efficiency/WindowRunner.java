package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.broker.BrokerSample;
import dev.rmqpatch.bench.broker.ThreadCosts;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.AgentFailure;
import dev.rmqpatch.bench.coordinator.AgentGroup;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.profile.AsyncProfiler;
import dev.rmqpatch.bench.profile.ProfiledJvm;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Runs windows back to back on warm brokers with the same warm agents: at each boundary it samples the next broker
 * (idle), switches every agent to it, then, after a short settle for the answers still in flight, samples the broker
 * it left. A window's figures are therefore that broker's own CPU and stored-message counter over exactly its window
 * (plus the settle), whatever the other brokers did meanwhile. Where the same broker has two windows in a row (the
 * middle of A B B A), one sample after the switch ends the first and starts the second, so nothing is counted twice.
 * A sequence ends with the agents paused.
 */
final class WindowRunner {
    /** A window holds its rate when its broker stored at least this share of the target (rate x load seconds). */
    static final double HELD_FRACTION = 0.95;
    /** Sync sends answer within milliseconds at a rate below saturation; this covers the last ones and the reput. */
    static final Duration SETTLE = Duration.ofMillis(100);
    static final int PAUSE = -1;
    /** --clients: the role of the window's client's agent JVMs in a BrokerProbe's sample (their CPU and threads). */
    static final String CLIENT_ROLE = "client";

    /**
     * Which agent loads what in a window of variant {@code v}: by default (variants are clusters) every agent sends to
     * target v, sharing the rate; a client comparison ({@link ClientRouting}) has its own.
     */
    interface Routing {
        /** Agent {@code agent}'s target in a window of variant {@code variant} (0-based), {@link #PAUSE} for none. */
        int target(int agent, int variant);

        /** How many agents share the window's rate. */
        int senders(int variant);

        /** --clients: the messages the window's client handled, from the agents' reports at its end; null when not comparing clients. */
        Long clientMessages(List<ProgressReport> reports, int variant);
    }

    /** Every agent loads the window's variant (cluster), sharing the rate. */
    static Routing everyAgent(int agents) {
        return new Routing() {
            @Override
            public int target(int agent, int variant) {
                return variant;
            }

            @Override
            public int senders(int variant) {
                return agents;
            }

            @Override
            public Long clientMessages(List<ProgressReport> reports, int variant) {
                return null;
            }
        };
    }

    private final AgentGroup agents;
    private final List<BrokerUnderTest> brokers;
    private final List<ManagedProcess> watched;
    private final PrintStream out;
    private final Duration length;
    private final List<String> warnings;
    private int count;
    /** At each window's start: puts its broker where its slot's placement wants it and returns the placement in force. */
    private Function<Slot, Placement> placer = Slot::placement;
    private Routing routing;
    /** --freeze-idle: stops every variant outside its own windows; null = every variant's brokers run throughout. */
    private IdleFreeze freeze;

    /**
     * @param watched processes beyond the brokers' own (e.g. name servers) whose death ends the run
     * @param warnings where profiler trouble is reported (it never ends a run)
     */
    WindowRunner(AgentGroup agents, List<BrokerUnderTest> brokers, List<ManagedProcess> watched, Duration length, PrintStream out,
                 List<String> warnings) {
        this.agents = agents;
        this.brokers = brokers;
        this.watched = new ArrayList<>(watched);
        for (BrokerUnderTest b : brokers) {
            this.watched.addAll(b.watched);
        }
        this.length = length;
        this.out = out;
        this.warnings = warnings;
        this.routing = everyAgent(agents.size());
    }

    /** Which agent loads what in each window (--clients); by default every agent loads the window's cluster. */
    void routeWith(Routing routing) {
        this.routing = routing;
    }

    /**
     * What runs at every window's start, before its first sample: for the split placement, the per-thread affinity of
     * the threads its broker started since the last window (they inherit their starter's CPUs). It returns the placement
     * actually in force, which the window records.
     */
    void placeWith(Function<Slot, Placement> placer) {
        this.placer = placer;
    }

    /**
     * --freeze-idle: every variant's brokers stopped outside its own windows (each sequence starts and ends with all of
     * them stopped); null to stop freezing (the caller continues them).
     */
    void freezeWith(IdleFreeze freeze) {
        this.freeze = freeze;
    }

    /** Open window: what is known at its start. */
    private static final class Open {
        final Slot slot;
        final BrokerUnderTest broker;
        final BrokerSample start;
        final long in;
        final Placement placement;

        Open(Slot slot, BrokerUnderTest broker, BrokerSample start, long in, Placement placement) {
            this.slot = slot;
            this.broker = broker;
            this.start = start;
            this.in = in;
            this.placement = placement;
        }
    }

    /**
     * Runs the slots in order, one window each, then pauses the agents; returns the windows in run order and hands each
     * to {@code each} as soon as it is closed (for progress output and results written as the run goes).
     */
    List<Window> run(List<Slot> slots, Consumer<Window> each) throws WindowFailure {
        List<Window> done = new ArrayList<>();
        Open open = null;
        try {
            freezing(IdleFreeze::freezeAll);
            for (Slot slot : slots) {
                BrokerUnderTest next = brokers.get(slot.variant());
                boolean same = open != null && open.broker == next;
                if (freeze != null && open != null && !same) {
                    // The load pauses between two variants' windows: the one that ran is sampled and stopped before the
                    // next is continued, so neither's figures hold the other's catch-up after its continue.
                    closePaused(open, done, each);
                    open = null;
                }
                if (!same) {
                    // Continued (and settled) before its first sample.
                    freezing(f -> f.thaw(slot.variant()));
                }
                Placement placement = placer.apply(slot);
                BrokerSample start = same ? null : next.probe.sample();
                if (slot.profiled() && !same) {
                    resumeProfiler(next);
                }
                List<ProgressReport> reports = switchTo(slot.variant(), slot.rate());
                long in = System.nanoTime();
                if (open != null) {
                    BrokerSample end = null;
                    if (same) {
                        end = next.probe.sample();
                        start = end;
                    }
                    Window w = close(open, reports, in, end, !same || !slot.profiled());
                    done.add(w);
                    each.accept(w);
                    if (same && slot.profiled()) {
                        resumeProfiler(next);
                    }
                }
                open = new Open(slot, next, start, in, placement);
                waitUntil(in + length.toNanos());
            }
            if (open != null) {
                closePaused(open, done, each);
            }
            return done;
        } catch (AgentFailure | BrokerAdmin.AdminException e) {
            pauseQuietly();
            throw new WindowFailure(e.getMessage(), e);
        } catch (WindowFailure e) {
            pauseQuietly();
            throw e;
        }
    }

    /** Pauses the agents, closes {@code open} with its own sample, hands it over, and (--freeze-idle) stops its broker. */
    private void closePaused(Open open, List<Window> done, Consumer<Window> each)
        throws AgentFailure, BrokerAdmin.AdminException, WindowFailure {
        Window w = close(open, switchTo(PAUSE, 0), System.nanoTime(), null, true);
        done.add(w);
        each.accept(w);
        freezing(f -> f.freeze(open.slot.variant()));
    }

    /** One --freeze-idle step: stop or continue brokers. */
    private interface FreezeStep {
        void run(IdleFreeze f) throws java.io.IOException, InterruptedException;
    }

    /** Runs {@code step} when freezing; a failed signal or an interrupt ends the sequence as a WindowFailure. */
    private void freezing(FreezeStep step) throws WindowFailure {
        if (freeze == null) {
            return;
        }
        try {
            step.run(freeze);
        } catch (java.io.IOException e) {
            throw new WindowFailure("--freeze-idle: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WindowFailure("interrupted", e);
        }
    }

    private List<ProgressReport> switchTo(int variant, double totalRate) throws AgentFailure, WindowFailure {
        List<AgentClient> all = agents.agents();
        List<ProgressReport> reports = agents.forAll(a -> {
            int target = variant == PAUSE ? PAUSE : routing.target(all.indexOf(a), variant);
            return a.target(target, target == PAUSE ? 0 : totalRate / routing.senders(variant));
        });
        for (int i = 0; i < reports.size(); i++) {
            if ("FAILED".equals(reports.get(i).state)) {
                throw new WindowFailure(agents.agents().get(i).name() + " failed: " + reports.get(i).error, null);
            }
        }
        return reports;
    }

    private void pauseQuietly() {
        try {
            agents.forAll(a -> a.target(PAUSE, 0));
        } catch (AgentFailure ignored) {
            // The first failure is the one reported.
        }
    }

    /**
     * Ends a window whose load moved away at {@code out}: with {@code end} null, after the settle, with its own sample;
     * else with the given sample (the same broker goes on). The profiler pauses only when {@code pauseProfiler}.
     */
    private Window close(Open open, List<ProgressReport> reports, long out, BrokerSample given, boolean pauseProfiler)
        throws BrokerAdmin.AdminException, WindowFailure {
        BrokerSample end = given;
        if (end == null) {
            sleepNanos(out + SETTLE.toNanos() - System.nanoTime());
            end = open.broker.probe.sample();
        }
        if (open.slot.profiled()) {
            if (open.broker.profiler != null) {
                open.broker.profiledWindows++;
            }
            if (pauseProfiler) {
                pauseProfiler(open.broker);
            }
        }
        BrokerFigures f = BrokerFigures.between(open.start, end);
        Window w = new Window();
        w.index = ++count;
        w.phase = open.slot.phase();
        w.pair = open.slot.pair();
        w.variant = open.broker.variant;
        w.placement = open.placement.label;
        w.pinned = open.placement == Placement.PINNED;
        w.profiled = open.slot.profiled();
        w.targetRateMsgPerS = open.slot.rate();
        w.loadSeconds = (out - open.in) / 1e9;
        w.messagesStored = f.messagesStored;
        if (f.messagesStored != null && w.loadSeconds > 0) {
            w.storedMsgPerS = f.messagesStored / w.loadSeconds;
        }
        if (open.slot.rate() > 0 && w.storedMsgPerS != null) {
            w.heldRate = w.storedMsgPerS >= HELD_FRACTION * open.slot.rate();
        }
        w.brokerCpuUsPerMsg = f.cpuUsPerMsg;
        w.brokerCores = f.brokerCores;
        w.storedBytesPerMsg = f.storedBytesPerMsg;
        w.brokerThreads = f.brokerThreads;
        w.slaveThreads = f.roleThreads == null ? null : f.roleThreads.get(EfficiencyPlan.SLAVE_ROLE);
        w.gcPauseMs = f.gcPauseMillis;
        w.otherCpuCores = f.otherCores;
        w.machineCpuUsPerMsg = f.usPerMessage(f.machineBusyCores);
        w.slaveCpuUsPerMsg = f.usPerMessage(f.roleCores == null ? null : f.roleCores.get(EfficiencyPlan.SLAVE_ROLE));
        if (w.slaveCpuUsPerMsg != null && w.brokerCpuUsPerMsg != null) {
            w.pairCpuUsPerMsg = w.brokerCpuUsPerMsg + w.slaveCpuUsPerMsg;
        }
        clientFigures(w, open, end, reports);
        List<Histogram> latencies = new ArrayList<>();
        for (ProgressReport r : reports) {
            w.acked += r.acked;
            w.failed += r.failed;
            if (r.errorsByKind != null && !r.errorsByKind.isEmpty()) {
                w.errorsByKind = w.errorsByKind == null ? new java.util.TreeMap<>() : w.errorsByKind;
                r.errorsByKind.forEach((k, n) -> w.errorsByKind.merge(k, n, Long::sum));
            }
            w.consumed += r.consumed;
            if (r.latencyHistogram != null) {
                latencies.add(Histograms.decode(r.latencyHistogram));
            }
        }
        w.latency = Histograms.merge(latencies);
        w.latencyMs = LatencySummary.of(w.latency);
        if (!w.usable()) {
            w.note = w.unusableBecause();
        }
        print(w);
        return w;
    }

    /**
     * --clients: the window's client's agent JVMs' CPU over the window (the same two samples as the broker's) per message
     * that client handled; whether it handled the window's rate; its threads.
     */
    private void clientFigures(Window w, Open open, BrokerSample end, List<ProgressReport> reports) {
        Long messages = routing.clientMessages(reports, open.slot.variant());
        if (messages == null) {
            return;
        }
        w.clientMessages = messages;
        Long before = open.start.roleCpuNanos == null ? null : open.start.roleCpuNanos.get(CLIENT_ROLE);
        Long after = end.roleCpuNanos == null ? null : end.roleCpuNanos.get(CLIENT_ROLE);
        long wall = end.wallNanos - open.start.wallNanos;
        if (before != null && after != null && wall > 0) {
            w.clientCores = (double) (after - before) / wall;
            w.clientCpuUsPerMsg = messages > 0 ? (after - before) / 1000.0 / messages : null;
        }
        // Against the rate, not the broker's count: the one broker's count of a window also holds the next client's first
        // messages (the settle after the switch), alike for every client.
        if (open.slot.rate() > 0) {
            w.clientKeptUp = messages >= HELD_FRACTION * open.slot.rate() * w.loadSeconds;
        }
        if (open.start.roleThreads != null && end.roleThreads != null) {
            w.clientThreads = ThreadCosts.between(open.start.roleThreads.get(CLIENT_ROLE), end.roleThreads.get(CLIENT_ROLE), messages);
        }
    }

    private void print(Window w) {
        String rate = w.targetRateMsgPerS > 0 ? String.format(Locale.ROOT, "%,.0f of %,.0f msg/s", nz(w.storedMsgPerS), w.targetRateMsgPerS)
            : String.format(Locale.ROOT, "%,.0f msg/s (unlimited)", nz(w.storedMsgPerS));
        out.printf(Locale.ROOT, "[%-11s pair %3d] %-16s %s  p99 %s ms  %sbroker %s us/msg (%s cores)%s  other %s cores%s%s%s%n",
            w.phase, w.pair, w.variant, rate, Format.num(w.latencyMs.p99, 2), w.clientMessages == null ? ""
                : "client " + Format.num(w.clientCpuUsPerMsg, 1) + " us/msg (" + Format.num(w.clientCores, 2) + " cores), ",
            Format.num(w.brokerCpuUsPerMsg, 1), Format.num(w.brokerCores, 2),
            w.slaveCpuUsPerMsg == null ? "" : ", slave " + Format.num(w.slaveCpuUsPerMsg, 1) + " us/msg, pair " + Format.num(w.pairCpuUsPerMsg, 1) + " us/msg",
            Format.num(w.otherCpuCores, 2), Placement.UNPINNED.label.equals(w.placement) ? "" : "  " + w.placement, w.profiled ? "  profiled" : "",
            w.note == null ? "" : "  <- " + w.note);
        out.flush();
    }

    private static double nz(Double v) {
        return v == null ? 0 : v;
    }

    private void resumeProfiler(BrokerUnderTest b) {
        b.profiler = apply(b, b.profiler, "", ProfiledJvm::resume);
        b.slaveProfiler = apply(b, b.slaveProfiler, " (slave)", ProfiledJvm::resume);
    }

    private void pauseProfiler(BrokerUnderTest b) {
        b.profiler = apply(b, b.profiler, "", ProfiledJvm::pause);
        b.slaveProfiler = apply(b, b.slaveProfiler, " (slave)", ProfiledJvm::pause);
    }

    /** One profiler command ({@link ProfiledJvm#resume} or {@link ProfiledJvm#pause}) on a session, or none. */
    private interface SessionCommand {
        void run(ProfiledJvm session) throws AsyncProfiler.ProfilerException;
    }

    /** Runs {@code command} on a session; on failure says so and returns null (that JVM is profiled no more). */
    private ProfiledJvm apply(BrokerUnderTest b, ProfiledJvm session, String role, SessionCommand command) {
        if (session == null) {
            return null;
        }
        try {
            command.run(session);
            return session;
        } catch (AsyncProfiler.ProfilerException e) {
            warnings.add("profiling of " + b.variant + role + " stopped: " + e.getMessage());
            return null;
        }
    }

    /** Sleeps until {@code deadline}, checking every quarter second that brokers, name servers and agents are alive. */
    private void waitUntil(long deadline) throws WindowFailure {
        while (true) {
            checkAlive();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            sleepNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(250)));
        }
    }

    private void checkAlive() throws WindowFailure {
        for (ManagedProcess p : watched) {
            if (!p.isAlive()) {
                throw new WindowFailure(p.describeState(), null);
            }
        }
        String death = agents.deathNotice();
        if (death != null) {
            throw new WindowFailure(death, null);
        }
    }

    private static void sleepNanos(long nanos) throws WindowFailure {
        if (nanos <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WindowFailure("interrupted", e);
        }
    }

    /** A window could not be run: an agent, broker or name server failed, or the run was interrupted. */
    static final class WindowFailure extends Exception {
        WindowFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
