package dev.rmqpatch.bench.report;

import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.Locale;

/** Number formatting shared by the tables: fixed locale, "-" for missing values. */
public final class Format {
    private Format() {
    }

    public static String num(Double v, int decimals) {
        return v == null || v.isNaN() ? "-" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** The header of the latency column that every efficiency and saturation table shows beside its CPU figures. */
    public static final String LATENCY_HEADER = "p50/p99/p99.9 ms";

    /** p50/p99/p99.9 of a merged histogram as one cell, e.g. 0.612/2.84/19.1; "-" when nothing was recorded. */
    public static String latency(LatencySummary l) {
        return l == null ? "-" : latency(l.p50, l.p99, l.p999);
    }

    /** Three percentiles in ms as one cell; each with three significant digits (ms), "-" for a missing one. */
    public static String latency(Double p50, Double p99, Double p999) {
        if (p50 == null && p99 == null && p999 == null) {
            return "-";
        }
        return ms(p50) + "/" + ms(p99) + "/" + ms(p999);
    }

    /**
     * Three significant digits, never more than three decimals: latencies span 0.05 ms (a client's p50) to seconds (a
     * stalled p99.9), and the histograms record whole microseconds; a fixed two decimals would print a p50 of 0.068 as 0.07.
     */
    private static String ms(Double v) {
        if (v == null || v.isNaN()) {
            return "-";
        }
        int decimals = v < 1 ? 3 : v < 10 ? 2 : v < 100 ? 1 : 0;
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    public static String count(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    public static String ratio(Double v) {
        return v == null || v.isNaN() ? "-" : String.format(Locale.ROOT, "%.2fx", v);
    }

    public static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f%%", v * 100);
    }
}
