package dev.rmqpatch.bench.coordinator;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * OMB's backlog test (consumerBacklogSizeGB > 0): the consumers are suspended when the measured phase opens, resumed
 * once the backlog (in OMB's terms: subscriptions x published - received, in messages) reaches the requested size, and
 * the backlog counts as drained at max(1,000 messages, (1 - backlogDrainRatio) x the requested backlog) left, as OMB
 * decides; the measured phase then runs testDuration more. A backlog that neither grows (building) nor shrinks
 * (draining) for {@link #STALL_SECONDS} ends the run. Records itself in the result's {@link RunResult.BacklogView}.
 */
final class ConsumerBacklog {
    /** Seconds without progress after which a backlog that neither grows (building) nor shrinks (draining) ends the run. */
    static final int STALL_SECONDS = 60;

    private final RunSpec spec;
    private final AgentGroup group;
    /** The agents the subscription plan gave consumers to: with fewer consumers than agents, the others have none to pause. */
    private final Set<AgentClient> consuming = new HashSet<>();
    private final RunResult.BacklogView b;
    private final PrintStream out;
    /** The last second the backlog grew (building) or reached a new low (draining). */
    private int progressSecond;
    private long drainLow = Long.MAX_VALUE;

    private ConsumerBacklog(RunSpec spec, AgentGroup group, SubscriptionPlan plan, RunResult.BacklogView b, PrintStream out) {
        this.spec = spec;
        this.group = group;
        List<AgentClient> agents = group.agents();
        for (int i = 0; i < agents.size(); i++) {
            if (plan.consumes(i)) {
                consuming.add(agents.get(i));
            }
        }
        this.b = b;
        this.out = out;
    }

    /** Suspends the consumers for the backlog to build; the view goes into {@code result.backlog}. */
    static ConsumerBacklog suspend(RunSpec spec, AgentGroup group, SubscriptionPlan plan, RunResult result, PrintStream out)
        throws AgentFailure {
        RunResult.BacklogView b = new RunResult.BacklogView();
        ConsumerBacklog backlog = new ConsumerBacklog(spec, group, plan, b, out);
        backlog.pauseConsumers(true);
        result.backlog = b;
        b.requestedBytes = Math.round(spec.workload.consumerBacklogSizeGB() * (1L << 30));
        b.pausedAtSecond = 0;
        out.printf("[%s] consumers suspended until the backlog reaches %,d bytes%n", spec.label, b.requestedBytes);
        return backlog;
    }

    /** The last second of the measured phase: open-ended ({@link Integer#MAX_VALUE}) until drained, then testDuration more. */
    int lastSecond() {
        return b.drainedAtSecond == null ? Integer.MAX_VALUE : b.drainedAtSecond + spec.workload.testDurationSeconds();
    }

    /** One second of the measured phase with the backlog at {@code backlogMessages}: resumes, notes the drain, or gives up. */
    void step(int second, long backlogMessages) throws AgentFailure, Coordinator.Abort {
        int size = spec.workload.messageSize();
        long backlogBytes = backlogMessages * size;
        if (backlogBytes > b.peakBytes) {
            b.peakBytes = backlogBytes;
            if (b.resumedAtSecond == null) {
                progressSecond = second;
            }
        }
        if (b.resumedAtSecond == null && backlogBytes >= b.requestedBytes) {
            pauseConsumers(false);
            b.resumedAtSecond = second;
            progressSecond = second;
            drainLow = backlogMessages;
            out.printf("[%s] backlog of %,d bytes built after %d s: consumers resumed%n", spec.label, backlogBytes, second);
            return;
        }
        if (b.resumedAtSecond != null && b.drainedAtSecond == null) {
            long emptyLevel = Math.max(1000L, (long) ((1.0 - spec.workload.backlogDrainRatio()) * (b.requestedBytes / size)));
            if (backlogMessages < drainLow) {
                drainLow = backlogMessages;
                progressSecond = second;
            }
            if (backlogMessages <= emptyLevel) {
                b.drainedAtSecond = second;
                out.printf("[%s] backlog drained %d s after the consumers resumed (%,d messages left, limit %,d); measuring %d s more%n",
                    spec.label, second - b.resumedAtSecond, backlogMessages, emptyLevel, spec.workload.testDurationSeconds());
                return;
            }
        }
        if (b.drainedAtSecond == null && second - progressSecond >= STALL_SECONDS) {
            throw new Coordinator.Abort("the backlog " + (b.resumedAtSecond == null ? "stopped growing at " + b.peakBytes + " of "
                + b.requestedBytes + " bytes" : "stopped shrinking at " + drainLow + " messages") + " for " + STALL_SECONDS + " s");
        }
    }

    /** After the measured phase: the backlog never reached its size in the window, so let the consumers drain what there is. */
    void resumeIfStillSuspended() throws AgentFailure {
        if (b.resumedAtSecond == null) {
            pauseConsumers(false);
        }
    }

    /** Suspends or resumes the consumers on the agents that have some (the others would refuse). */
    private void pauseConsumers(boolean paused) throws AgentFailure {
        group.forAll(a -> consuming.contains(a) ? a.pauseConsumers(paused) : null);
    }
}
