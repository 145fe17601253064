package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.ProgressReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs OMB's max-rate search ({@code producerRate: 0}, see {@link RateSearch}) on the agents: every control period it
 * asks the search for the next rate and gives each agent its share on a fresh schedule. The agents answer a rate change
 * with the progress interval that ends there; it is kept and added to that agent's next progress report, so no second
 * is short of sends. Not thread-safe; the progress loop owns it.
 */
final class RateControl {
    private final RateSearch search = new RateSearch();
    private final AgentGroup group;
    private final RunSpec spec;
    private final RunResult result;
    private final PrintStream out;
    /** The end of the last control period (System.nanoTime). */
    private long lastControlNanos;
    /** Seconds of the run so far (warm-up and measured phase), for the control period. */
    private int seconds;
    /** Per agent index: progress cut off by a rate change, added to that agent's next progress report. */
    private final Map<Integer, ProgressReport> carried = new HashMap<>();

    private RateControl(AgentGroup group, RunSpec spec, RunResult result, PrintStream out) {
        this.group = group;
        this.spec = spec;
        this.result = result;
        this.out = out;
    }

    /** Starts the search now, at {@link RateSearch#START_RATE} (the rate the agents were prepared with); records its steps in the result. */
    static RateControl start(AgentGroup group, RunSpec spec, RunResult result, PrintStream out) {
        RateControl c = new RateControl(group, spec, result, out);
        result.rateSearch = new ArrayList<>();
        c.lastControlNanos = System.nanoTime();
        out.printf("[%s] producerRate 0: searching for the maximum sustainable rate from %,.0f msg/s%n", spec.label, RateSearch.START_RATE);
        return c;
    }

    /** The agents' reports of this second, each with what a rate change cut off before it added. */
    List<ProgressReport> withCarried(List<ProgressReport> reports) {
        if (carried.isEmpty()) {
            return reports;
        }
        List<ProgressReport> merged = new ArrayList<>(reports);
        carried.forEach((i, earlier) -> merged.set(i, ProgressReports.add(earlier, merged.get(i))));
        carried.clear();
        return merged;
    }

    /** Called once per second of the run; at the end of each control period sets the next rate on every agent. */
    void afterSecond(String phase, int second, ProgressSecond p) throws AgentFailure {
        if (++seconds % RateSearch.CONTROL_PERIOD_SECONDS != 0) {
            return;
        }
        long now = System.nanoTime();
        double rate = search.next(now - lastControlNanos, p.ackedSinceStart, p.receivedPerSubscription(spec.workload));
        lastControlNanos = now;
        setRate(rate);
        result.rateSearch.add(new RunResult.RateStep(phase, second, rate));
        out.printf("[%s] rate search: next %,.0f msg/s%n", spec.label, rate);
    }

    /** Every agent gets its share of the new rate on a fresh schedule; the intervals they cut off are carried. */
    private void setRate(double total) throws AgentFailure {
        List<ProgressReport> cut = group.forAll(a -> a.target(0, total / group.size()));
        for (int i = 0; i < cut.size(); i++) {
            carried.merge(i, cut.get(i), ProgressReports::add);
        }
    }
}
