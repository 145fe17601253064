package dev.rmqpatch.bench.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Median, min and max of one figure over a variant's rounds, plus the per-round values in run order. */
public final class Spread {
    public Double median;
    public Double min;
    public Double max;
    /** Per round, in round order; null where a round had no value. */
    public List<Double> rounds = new ArrayList<>();

    public static Spread of(List<Double> values) {
        Spread s = new Spread();
        s.rounds = new ArrayList<>(values);
        List<Double> present = new ArrayList<>();
        for (Double v : values) {
            if (v != null && !v.isNaN()) {
                present.add(v);
            }
        }
        if (present.isEmpty()) {
            return s;
        }
        Collections.sort(present);
        int n = present.size();
        s.min = present.get(0);
        s.max = present.get(n - 1);
        s.median = n % 2 == 1 ? present.get(n / 2) : (present.get(n / 2 - 1) + present.get(n / 2)) / 2;
        return s;
    }

    /** Whether the min-max ranges of two spreads overlap; null when either has fewer than two values (no spread). */
    public Boolean overlaps(Spread other) {
        if (other == null || present() < 2 || other.present() < 2) {
            return null;
        }
        return min <= other.max && other.min <= max;
    }

    private int present() {
        int n = 0;
        for (Double v : rounds) {
            if (v != null && !v.isNaN()) {
                n++;
            }
        }
        return n;
    }

    public static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }
}
