package dev.rmqpatch.bench.stats;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How much one variant costs relative to another, from paired measurements (each pair measured close together in
 * time, so slow drift of the machine affects both sides alike).
 *
 * <p>Estimator: the geometric mean of the per-pair ratios, {@code exp(mean(log(x_i / b_i)))}. Logs make a ratio and
 * its inverse symmetric and a multiplicative disturbance additive.
 *
 * <p>Interval: 95% percentile bootstrap of that geometric mean, resampling whole pairs with replacement
 * ({@value #RESAMPLES} resamples, fixed seed, so the same data always gives the same interval). As a check that stays
 * honest with few pairs, where a percentile bootstrap is too narrow, the Student-t interval of the mean log ratio is
 * computed too (as in bioequivalence studies); a difference counts as {@linkplain #resolved() resolved} only when both
 * intervals exclude 1.0.
 */
public final class PairedRatio {
    public static final int RESAMPLES = 10_000;
    static final long SEED = 0x5eed_12L;
    /** t(0.975, df) for df = 1..30; beyond that a Cornish-Fisher expansion is exact to four decimals. */
    private static final double[] T975 = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555,
        2.0518, 2.0484, 2.0452, 2.0423};

    private final int pairs;
    private final double estimate;
    private final double sdLog;
    private final double[] bootstrap95;
    private final double[] t95;

    private PairedRatio(int pairs, double estimate, double sdLog, double[] bootstrap95, double[] t95) {
        this.pairs = pairs;
        this.estimate = estimate;
        this.sdLog = sdLog;
        this.bootstrap95 = bootstrap95;
        this.t95 = t95;
    }

    /** From per-pair ratios (each positive and finite). */
    public static PairedRatio of(List<Double> ratios) {
        double[] logs = new double[ratios.size()];
        for (int i = 0; i < logs.length; i++) {
            double r = ratios.get(i);
            if (!(r > 0) || Double.isInfinite(r)) {
                throw new IllegalArgumentException("pair " + (i + 1) + " has ratio " + r + "; ratios must be positive and finite");
            }
            logs[i] = Math.log(r);
        }
        int n = logs.length;
        if (n == 0) {
            throw new IllegalArgumentException("no pairs");
        }
        double mean = mean(logs);
        if (n < 2) {
            return new PairedRatio(n, Math.exp(mean), Double.NaN, null, null);
        }
        double sd = sd(logs, mean);
        double half = tQuantile975(n - 1) * sd / Math.sqrt(n);
        double[] t = {Math.exp(mean - half), Math.exp(mean + half)};
        return new PairedRatio(n, Math.exp(mean), sd, bootstrap(logs), t);
    }

    private static double[] bootstrap(double[] logs) {
        int n = logs.length;
        SplittableRandom random = new SplittableRandom(SEED);
        double[] means = new double[RESAMPLES];
        for (int b = 0; b < RESAMPLES; b++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += logs[random.nextInt(n)];
            }
            means[b] = sum / n;
        }
        Arrays.sort(means);
        return new double[] {Math.exp(quantile(means, 0.025)), Math.exp(quantile(means, 0.975))};
    }

    /** Linear interpolation between order statistics (type 7, as R's default). */
    static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    static double tQuantile975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("df " + df);
        }
        if (df <= T975.length) {
            return T975[df - 1];
        }
        double z = 1.959963984540054;
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384.0 * df * df * df);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double sd(double[] v, double mean) {
        double s = 0;
        for (double x : v) {
            s += (x - mean) * (x - mean);
        }
        return Math.sqrt(s / (v.length - 1));
    }

    public int pairs() {
        return pairs;
    }

    /** Geometric mean of the per-pair ratios. */
    public double estimate() {
        return estimate;
    }

    /** Standard deviation of the per-pair log ratios: how much one pair scatters (NaN with one pair). */
    public double sdLog() {
        return sdLog;
    }

    /** [low, high] of the 95% percentile bootstrap; null with fewer than two pairs. */
    public double[] bootstrap95() {
        return bootstrap95 == null ? null : bootstrap95.clone();
    }

    /** [low, high] of the 95% Student-t interval on the log ratios; null with fewer than two pairs. */
    public double[] t95() {
        return t95 == null ? null : t95.clone();
    }

    /** Half the bootstrap interval's width relative to the estimate, e.g. 0.03 for about ±3%; NaN without an interval. */
    public double halfWidth() {
        return bootstrap95 == null ? Double.NaN : (bootstrap95[1] - bootstrap95[0]) / 2 / estimate;
    }

    /** Half the Student-t interval's width relative to the estimate; NaN without an interval (fewer than two ratios). */
    public double tHalfWidth() {
        return t95 == null ? Double.NaN : (t95[1] - t95[0]) / 2 / estimate;
    }

    /** Both intervals exclude 1.0. */
    public boolean resolved() {
        return bootstrap95 != null && excludesOne(bootstrap95) && excludesOne(t95);
    }

    private static boolean excludesOne(double[] interval) {
        return interval[0] > 1.0 || interval[1] < 1.0;
    }
}
