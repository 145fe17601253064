package dev.rmqpatch.jmh.report;

/**
 * One JMH score: the mean over the measurement iterations, JMH's error (half-width of the 99.9% confidence
 * interval; NaN when JMH had too few iterations to give one) and the unit, e.g. {@code ns/op} or {@code B/op}.
 */
public record Metric(double score, double error, String unit) {

    /** Lower end of the confidence interval; the score itself when there is no error estimate. */
    public double low() {
        return Double.isNaN(error) ? score : score - error;
    }

    /** Upper end of the confidence interval; the score itself when there is no error estimate. */
    public double high() {
        return Double.isNaN(error) ? score : score + error;
    }
}
