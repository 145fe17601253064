package dev.rmqpatch.bench.efficiency;

import java.util.ArrayList;
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

    /** The rates of the curve: each percentage of the slowest saturation, scaled from the checked rate (which is FRACTION of it, stepped down). */
    static List<Double> curve(double checked, List<Double> percents) {
        List<Double> rates = new ArrayList<>();
        for (double p : percents) {
            double r = Math.abs(p - FRACTION * 100) < 1e-9 ? checked : roundDown(checked * p / (FRACTION * 100));
            if (!rates.contains(r)) {
                rates.add(r);
            }
        }
        return rates;
    }

    /** --rates: percentages of the slowest variant's saturated msg/s, comma-separated, each above 0 and at most 100. */
    static List<Double> parsePercents(String text) {
        List<Double> percents = new ArrayList<>();
        for (String part : text.split(",")) {
            double p;
            try {
                p = Double.parseDouble(part.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--rates takes percentages of the slowest saturation, e.g. 25,50,75; not '" + text + "'");
            }
            if (!(p > 0 && p <= 100)) {
                throw new IllegalArgumentException("--rates: each percentage must be above 0 and at most 100, not " + part.trim());
            }
            percents.add(p);
        }
        return percents;
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
