package dev.rmqpatch.bench.efficiency;

import java.util.Collection;
import java.util.List;

/**
 * How the fixed rate is found when --rate is not given: half of what the slowest variant stored per second in its last
 * unlimited warm-up window, then checked with one window per variant at that rate; while any variant misses the rate,
 * loses sends or shows a p99 above {@link #P99_LIMIT_MS}, the rate steps down by a quarter (at most
 * {@link #MAX_STEPS} times). Below saturation no queue builds up, so CPU per message is not distorted by queueing,
 * and every variant is measured at the same rate.
 */
final class RateProbe {
    static final double FRACTION = 0.5;
    static final double STEP_DOWN = 0.75;
    static final int MAX_STEPS = 3;
    static final double P99_LIMIT_MS = 5.0;
    static final double MIN_RATE = 100;

    private RateProbe() {
    }

    /** The first rate to check: {@link #FRACTION} of the slowest saturated rate, rounded down to 100 msg/s. */
    static double initialRate(Collection<Double> saturated) {
        double slowest = Double.MAX_VALUE;
        for (Double s : saturated) {
            if (s != null && s > 0) {
                slowest = Math.min(slowest, s);
            }
        }
        if (slowest == Double.MAX_VALUE) {
            throw new IllegalStateException("no variant stored any message in its warm-up windows");
        }
        return roundDown(slowest * FRACTION);
    }

    static double stepDown(double rate) {
        return roundDown(rate * STEP_DOWN);
    }

    private static double roundDown(double rate) {
        return Math.max(MIN_RATE, Math.floor(rate / 100) * 100);
    }

    /** Every window held the rate, lost nothing and kept p99 under the limit. */
    static boolean ok(List<Window> check) {
        for (Window w : check) {
            if (!w.usable() || w.latencyMs == null || w.latencyMs.p99 == null || w.latencyMs.p99 > P99_LIMIT_MS) {
                return false;
            }
        }
        return !check.isEmpty();
    }
}
