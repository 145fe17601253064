package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.omb.OmbIntervals;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.io.PrintStream;
import java.util.List;

/**
 * The run's seconds: for each second of a phase (warm-up, then the measured phase) it checks the watched processes,
 * polls every agent's progress, records and prints the progress line; in the measured phase it also feeds OMB's
 * 10-second intervals and the backlog test, and in both phases the max-rate search when one runs.
 */
final class PhaseLoop {
    static final String WARM_UP = "warm-up";
    static final String MEASURE = "measure";

    private final RunSpec spec;
    private final AgentGroup group;
    private final RunWatch watch;
    private final RunResult result;
    private final OmbIntervals omb;
    private final PrintStream out;
    private RateControl rateControl;

    /** @param omb the measured phase in OMB's intervals, or null for none */
    PhaseLoop(RunSpec spec, AgentGroup group, RunWatch watch, RunResult result, OmbIntervals omb, PrintStream out) {
        this.spec = spec;
        this.group = group;
        this.watch = watch;
        this.result = result;
        this.omb = omb;
        this.out = out;
    }

    /** Runs OMB's max-rate search from now on (from the warm-up's first second). */
    void searchRate() {
        rateControl = RateControl.start(group, spec, result, out);
    }

    void warmUp() throws AgentFailure, Coordinator.Abort {
        run(WARM_UP, spec.workload.warmupDurationSeconds(), null);
    }

    /** @param backlog OMB's backlog test, which makes the phase open-ended until the backlog drained; or null */
    void measure(ConsumerBacklog backlog) throws AgentFailure, Coordinator.Abort {
        run(MEASURE, spec.workload.testDurationSeconds(), backlog);
    }

    private void run(String phase, int seconds, ConsumerBacklog backlog) throws AgentFailure, Coordinator.Abort {
        long begin = System.nanoTime();
        boolean measure = MEASURE.equals(phase);
        long errorsSoFar = 0;
        for (int s = 1; s <= (backlog != null ? backlog.lastSecond() : seconds); s++) {
            Pacing.awaitSecond(begin, s);
            watch.check();
            List<ProgressReport> reports = group.forAll(AgentClient::progress);
            if (rateControl != null) {
                reports = rateControl.withCarried(reports);
            }
            ProgressSecond second = ProgressSecond.of(reports, group.agents());
            errorsSoFar += second.errors;
            ProgressPoint p = new ProgressPoint();
            p.phase = phase;
            p.second = s;
            p.tps = second.tps;
            p.p99Ms = LatencySummary.of(second.latency).p99;
            p.errors = second.errors;
            p.errorsSoFar = errorsSoFar;
            p.errorsByKind = second.errorsByKind.isEmpty() ? null : second.errorsByKind;
            String consume = "";
            if (spec.workload.hasConsumers()) {
                p.consumeTps = second.consumeTps;
                p.endToEndP99Ms = LatencySummary.of(second.endToEnd).p99;
                long ombBacklog = second.backlogMessages(spec.workload);
                p.backlogBytes = ombBacklog * spec.workload.messageSize();
                consume = String.format("  consume %,10.0f  e2e p99 %8s ms  lag %,d msgs", second.consumeTps,
                    p.endToEndP99Ms == null ? "-" : String.format("%.2f", p.endToEndP99Ms), ombBacklog);
                if (measure && backlog != null) {
                    backlog.step(s, ombBacklog);
                }
            }
            result.progress.add(p);
            if (measure && omb != null) {
                omb.second(second.intervalNanos, second.acked, second.errors, second.consumed, second.latency, second.sendDelay,
                    second.endToEnd, second.ackedSinceStart, second.receivedAll);
            }
            if (rateControl != null) {
                rateControl.afterSecond(phase, s, second);
            }
            int shown = backlog != null ? backlog.lastSecond() : seconds;
            out.printf("[%s] %-7s %3d/%s s  tps %,10.0f  p99 %8s ms%s  errors %,d (%,d in %s)%s%n", spec.label, phase, s,
                shown == Integer.MAX_VALUE ? "?" : Integer.toString(shown), second.tps, p.p99Ms == null ? "-" : String.format("%.2f", p.p99Ms),
                consume, second.errors, errorsSoFar, phase, second.errorsByKind.isEmpty() ? "" : "  " + second.errorsByKind);
            out.flush();
        }
    }
}
