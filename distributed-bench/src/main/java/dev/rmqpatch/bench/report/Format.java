package dev.rmqpatch.bench.report;

import java.util.Locale;

/** Number formatting shared by the tables: fixed locale, "-" for missing values. */
public final class Format {
    private Format() {
    }

    public static String num(Double v, int decimals) {
        return v == null || v.isNaN() ? "-" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
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
