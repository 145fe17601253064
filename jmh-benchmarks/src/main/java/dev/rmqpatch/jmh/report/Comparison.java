package dev.rmqpatch.jmh.report;

import java.util.Map;

/**
 * A stock benchmark and its patched counterpart, run with the same parameters, and the figures derived from them.
 *
 * @param operation    the row label, e.g. {@code Properties.parse [typical]}
 * @param benchmark    class and operation without the stock/patched part, e.g.
 *                     {@code dev.rmqpatch.jmh.PropertiesBenchmark.parse}
 * @param params       the shared parameters
 * @param stock        the stock side
 * @param patched      the patched side
 */
public record Comparison(String operation, String benchmark, Map<String, String> params, JmhResult stock,
                         JmhResult patched) {

    /** Stock time over patched time: how many times faster the patched side is (scores in the same unit). */
    public double speedup() {
        return stock.primary().score() / patched.primary().score();
    }

    /** Lowest speedup the two confidence intervals allow (slowest patched against fastest stock). */
    public double speedupLow() {
        return stock.primary().low() / patched.primary().high();
    }

    /** Highest speedup the two confidence intervals allow. */
    public double speedupHigh() {
        return stock.primary().low() <= 0 || patched.primary().low() <= 0
            ? Double.NaN : stock.primary().high() / patched.primary().low();
    }

    /** Whether both sides have {@code gc.alloc.rate.norm}. */
    public boolean hasAllocation() {
        return stock.allocation() != null && patched.allocation() != null;
    }

    /** Share of the stock side's bytes per operation that the patched side does not allocate (0.6 = 60% fewer); NaN without -prof gc. */
    public double allocationSaved() {
        if (!hasAllocation() || stock.allocation().score() <= 0) {
            return Double.NaN;
        }
        return 1.0 - patched.allocation().score() / stock.allocation().score();
    }
}
