package dev.rmqpatch.bench.stats;

import org.HdrHistogram.Histogram;

/** Percentiles in milliseconds of a histogram recorded in microseconds; null fields when nothing was recorded. */
public final class LatencySummary {
    public final long count;
    public final Double mean;
    public final Double p50;
    public final Double p90;
    public final Double p99;
    public final Double p999;
    public final Double max;

    private LatencySummary(long count, Double mean, Double p50, Double p90, Double p99, Double p999, Double max) {
        this.count = count;
        this.mean = mean;
        this.p50 = p50;
        this.p90 = p90;
        this.p99 = p99;
        this.p999 = p999;
        this.max = max;
    }

    public static LatencySummary of(Histogram micros) {
        if (micros == null || micros.getTotalCount() == 0) {
            return new LatencySummary(0, null, null, null, null, null, null);
        }
        return new LatencySummary(micros.getTotalCount(),
            ms(micros.getMean()),
            ms(micros.getValueAtPercentile(50)),
            ms(micros.getValueAtPercentile(90)),
            ms(micros.getValueAtPercentile(99)),
            ms(micros.getValueAtPercentile(99.9)),
            ms(micros.getMaxValue()));
    }

    private static Double ms(double micros) {
        // Three decimals (1 µs) is the resolution that was recorded; more digits would be noise.
        return Math.round(micros) / 1000.0;
    }
}
