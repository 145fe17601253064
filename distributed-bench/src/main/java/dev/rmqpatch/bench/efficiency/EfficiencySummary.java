package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.ThreadCosts;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import dev.rmqpatch.bench.stats.PairedRatio;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;

/**
 * The statistics of an efficiency run. The interval's windows are the measured ones (calibration windows of the kept
 * pinning state, and measure windows; never warm-up, rate-check or profiled windows). A pair counts for variant X when
 * both X's and the baseline's window in it are usable (held the rate, lost no sends); the others stay in the window
 * list with the reason.
 */
public final class EfficiencySummary {
    public static final String ESTIMATOR = "ratio = geometric mean over pairs of (variant CPU/msg / baseline CPU/msg), each pair two adjacent "
        + "windows in counterbalanced order; 95% CI = Student-t interval of the mean log ratio over pairs, with the percentile bootstrap "
        + "over pairs (" + PairedRatio.RESAMPLES + " resamples, fixed seed) as a check; resolved = both intervals exclude 1.0, over at least "
        + EfficiencySummary.MIN_PAIRS_FOR_VERDICT + " pairs";
    /** Below this many pairs no verdict is "resolved": the scatter of so few pairs says too little about the next ones. */
    public static final int MIN_PAIRS_FOR_VERDICT = 6;
    public static final String RESOLVED = "resolved";
    public static final String UNRESOLVED = "unresolved";

    private EfficiencySummary() {
    }

    /** The measured windows (calibration and measure, not profiled) that {@code cell} accepts, by pair then variant. */
    static Map<Integer, Map<String, Window>> measuredPairs(List<Window> windows, Predicate<Window> cell) {
        Map<Integer, Map<String, Window>> pairs = new TreeMap<>();
        for (Window w : windows) {
            boolean measured = Window.MEASURE.equals(w.phase) || Window.CALIBRATION.equals(w.phase);
            if (measured && !w.profiled && cell.test(w)) {
                pairs.computeIfAbsent(w.pair, k -> new LinkedHashMap<>()).put(w.variant, w);
            }
        }
        return pairs;
    }

    /** The measured windows of one placement (every rate), by pair then variant. */
    static Map<Integer, Map<String, Window>> measuredPairs(List<Window> windows, Placement placement) {
        return measuredPairs(windows, w -> placement.label.equals(w.placement));
    }

    /**
     * The cells of the measured windows (of one placement when {@code only} is given), by rate then placement (pinned,
     * split, unpinned).
     */
    static List<Cell> cells(List<Window> windows, Placement only) {
        Set<Cell> cells = new LinkedHashSet<>();
        for (Window w : windows) {
            boolean measured = Window.MEASURE.equals(w.phase) || Window.CALIBRATION.equals(w.phase);
            Placement p = Placement.ofLabel(w.placement);
            if (measured && !w.profiled && p != null && (only == null || p == only)) {
                cells.add(new Cell(w.targetRateMsgPerS, p));
            }
        }
        List<Cell> sorted = new ArrayList<>(cells);
        sorted.sort(Comparator.comparingDouble((Cell c) -> c.rate).thenComparing(c -> c.placement));
        return sorted;
    }

    /** Per-pair ratios of one figure, over pairs where both windows are usable and have it, in pair order. */
    static List<Double> ratios(Map<Integer, Map<String, Window>> pairs, String variant, String baseline, CpuMeasure measure) {
        List<Double> ratios = new ArrayList<>();
        for (Map<String, Window> pair : pairs.values()) {
            Window x = pair.get(variant);
            Window b = pair.get(baseline);
            if (x != null && b != null && x.usable() && b.usable()) {
                Double a = measure.of(x);
                Double c = measure.of(b);
                if (a != null && c != null && a > 0 && c > 0) {
                    ratios.add(a / c);
                }
            }
        }
        return ratios;
    }

    /**
     * Fills every cell's figures (each rate x placement measured; of one placement only when {@code only} is given),
     * marks the windows that went into an interval, and gives the headline cell's figures to the top-level
     * variants: the cell at {@code results.rateMsgPerS} (the checked rate) in the less favourable placement.
     */
    public static void summarize(EfficiencyResults results, Placement only) {
        results.cells.clear();
        List<Cell> cells = cells(results.windows, only);
        EfficiencyResults.CellResult headline = null;
        Cell headlineCell = null;
        double saturated = slowestSaturation(results);
        for (Cell c : cells) {
            EfficiencyResults.CellResult cr = new EfficiencyResults.CellResult();
            cr.rateMsgPerS = c.rate;
            cr.placement = c.placement.label;
            cr.pinned = c.placement == Placement.PINNED;
            cr.percentOfSaturation = "--rate".equals(results.rateSource) || saturated <= 0 ? null
                : Math.round(1000 * c.rate / saturated) / 10.0;
            for (EfficiencyResults.VariantResult v : results.variants) {
                EfficiencyResults.VariantResult x = new EfficiencyResults.VariantResult();
                x.name = v.name;
                cr.variants.add(x);
            }
            cr.pairsMeasured = summarizeCell(results, c, cr.variants);
            results.cells.add(cr);
            if (results.rateMsgPerS != null && Math.abs(c.rate - results.rateMsgPerS) < 0.5
                && (headline == null || lessFavourable(results, cr, headline))) {
                headline = cr;
                headlineCell = c;
            }
        }
        if (headline == null && !results.cells.isEmpty()) {
            headline = results.cells.get(0);
            headlineCell = cells.get(0);
        }
        if (headline != null) {
            headline.headline = true;
            results.pairsMeasured = summarizeCell(results, headlineCell, results.variants);
            results.pinning.applied = headline.pinned;
            results.pinning.placement = headline.placement;
        }
    }

    /** The headline cell's windows (all measured windows when no cell is summarised yet). */
    static Predicate<Window> headline(EfficiencyResults results) {
        for (EfficiencyResults.CellResult c : results.cells) {
            if (c.headline) {
                return new Cell(c.rateMsgPerS, Placement.ofLabel(c.placement))::contains;
            }
        }
        return w -> true;
    }

    /** The slowest variant's saturated msg/s in the warm-up, or 0. */
    private static double slowestSaturation(EfficiencyResults results) {
        double slowest = 0;
        for (Double s : results.probe.saturatedMsgPerS.values()) {
            if (s != null && s > 0 && (slowest == 0 || s < slowest)) {
                slowest = s;
            }
        }
        return slowest;
    }

    /**
     * {@code a} is less favourable than {@code b}: its largest saving (the lowest main ratio of any variant but the
     * baseline) is smaller. Judged on the variant that saves most, not on a position in the variants' order, so that runs
     * with the order rotated (--runs) and A/A variants beside the real one pick the same placement.
     */
    static boolean lessFavourable(EfficiencyResults results, EfficiencyResults.CellResult a, EfficiencyResults.CellResult b) {
        Double ra = lowestRatio(results, a);
        Double rb = lowestRatio(results, b);
        if (ra == null || rb == null) {
            // No ratio to compare: the placement that shares the CPUs more (unpinned, then split) leads.
            return ra != null || (rb == null && Placement.ofLabel(a.placement).compareTo(Placement.ofLabel(b.placement)) > 0);
        }
        return ra > rb;
    }

    /** The lowest main ratio of a cell's variants (the baseline has none), or null when none has one. */
    private static Double lowestRatio(EfficiencyResults results, EfficiencyResults.CellResult cell) {
        CpuMeasure main = CpuMeasure.main(results);
        Double lowest = null;
        for (EfficiencyResults.VariantResult v : cell.variants) {
            EfficiencyResults.CpuFigure f = v.name.equals(results.baseline) ? null : main.of(v);
            if (f != null && f.ratio != null && (lowest == null || f.ratio < lowest)) {
                lowest = f.ratio;
            }
        }
        return lowest;
    }

    /** Fills {@code variants} (name given) from the cell's pairs and marks its windows; returns the cell's pair count. */
    private static int summarizeCell(EfficiencyResults results, Cell cell, List<EfficiencyResults.VariantResult> variants) {
        Map<Integer, Map<String, Window>> pairs = measuredPairs(results.windows, cell::contains);
        CpuMeasure main = CpuMeasure.main(results);
        for (Map<String, Window> pair : pairs.values()) {
            Window b = pair.get(results.baseline);
            for (Window w : pair.values()) {
                boolean partner = false;
                for (Window other : pair.values()) {
                    partner |= other != w && other.usable() && (w.variant.equals(results.baseline) || other == b);
                }
                w.inInterval = w.usable() && partner;
                if (w.usable() && !partner) {
                    w.note = "its pair has no usable " + (w.variant.equals(results.baseline) ? "variant" : "baseline") + " window";
                }
            }
        }
        for (EfficiencyResults.VariantResult v : variants) {
            List<Window> used = new ArrayList<>();
            int unusable = 0;
            for (Map<String, Window> pair : pairs.values()) {
                Window w = pair.get(v.name);
                if (w == null) {
                    continue;
                }
                if (w.inInterval) {
                    used.add(w);
                } else if (!w.usable()) {
                    unusable++;
                }
            }
            v.windowsNotUsable = unusable;
            v.failedSends = 0;
            for (Window w : results.windows) {
                if (w.variant.equals(v.name)) {
                    v.failedSends += w.failed;
                }
            }
            v.storedBytesPerMsg = stats(used, w -> w.storedBytesPerMsg);
            v.storedMsgPerS = stats(used, w -> w.storedMsgPerS);
            v.gcPauseMs = stats(used, w -> w.gcPauseMs);
            v.otherCpuCores = stats(used, w -> w.otherCpuCores);
            v.threads = threadFigures(used, w -> w.brokerThreads);
            v.slaveThreads = threadFigures(used, w -> w.slaveThreads);
            v.clientThreads = threadFigures(used, w -> w.clientThreads);
            for (CpuMeasure m : CpuMeasure.values()) {
                m.set(v, null);
            }
            for (CpuMeasure m : main.reported()) {
                EfficiencyResults.CpuFigure f = cpuFigure(used, m);
                m.set(v, f.windows > 0 || m == CpuMeasure.BROKER ? f : null);
                if (f.windows > 0 && !v.name.equals(results.baseline)) {
                    relate(f, ratios(pairs, v.name, results.baseline, m));
                }
            }
            List<Histogram> latencies = new ArrayList<>();
            for (Window w : used) {
                if (w.latency != null) {
                    latencies.add(w.latency);
                }
            }
            v.latencyMs = LatencySummary.of(Histograms.merge(latencies));
        }
        return pairs.size();
    }

    /** Null when no window has thread figures (remote brokers, not Linux). */
    static EfficiencyResults.ThreadFigures threadFigures(List<Window> used, Function<Window, ThreadCosts> of) {
        List<ThreadCosts> costs = new ArrayList<>();
        List<Window> with = new ArrayList<>();
        for (Window w : used) {
            if (of.apply(w) != null) {
                with.add(w);
                costs.add(of.apply(w));
            }
        }
        if (costs.isEmpty()) {
            return null;
        }
        EfficiencyResults.ThreadFigures t = new EfficiencyResults.ThreadFigures();
        t.contextSwitchesPerMsg = stats(with, w -> of.apply(w).contextSwitchesPerMsg);
        t.voluntarySwitchesPerMsg = stats(with, w -> of.apply(w).voluntarySwitchesPerMsg);
        t.involuntarySwitchesPerMsg = stats(with, w -> of.apply(w).involuntarySwitchesPerMsg);
        t.readCallsPerMsg = stats(with, w -> of.apply(w).readCallsPerMsg);
        t.writeCallsPerMsg = stats(with, w -> of.apply(w).writeCallsPerMsg);
        for (String g : ThreadCosts.GROUPS) {
            EfficiencyResults.WindowStats cpu = groupStats(with, of, g, x -> x.cpuUsPerMsg);
            if (cpu.windows > 0) {
                t.groupCpuUsPerMsg.put(g, cpu);
                t.groupSwitchesPerMsg.put(g, groupStats(with, of, g, x -> x.voluntarySwitchesPerMsg + x.involuntarySwitchesPerMsg));
                EfficiencyResults.WindowStats reads = groupStats(with, of, g, x -> x.readCallsPerMsg);
                if (reads.windows > 0) {
                    t.groupReadCallsPerMsg.put(g, reads);
                    t.groupWriteCallsPerMsg.put(g, groupStats(with, of, g, x -> x.writeCallsPerMsg));
                }
            }
        }
        return t;
    }

    /** One figure of thread group {@code g} over the windows (a window without the group has none). */
    private static EfficiencyResults.WindowStats groupStats(List<Window> with, Function<Window, ThreadCosts> of, String g,
                                                            Function<ThreadCosts.Group, Double> figure) {
        return stats(with, w -> {
            ThreadCosts.Group x = of.apply(w).groups.get(g);
            return x == null ? null : figure.apply(x);
        });
    }

    private static void relate(EfficiencyResults.CpuFigure f, List<Double> ratios) {
        f.pairs = ratios.size();
        f.verdict = UNRESOLVED;
        if (ratios.isEmpty()) {
            return;
        }
        PairedRatio r = PairedRatio.of(ratios);
        f.ratio = r.estimate();
        f.ratioCi95 = r.t95();
        f.ratioCi95Bootstrap = r.bootstrap95();
        f.halfWidth = Double.isNaN(r.tHalfWidth()) ? null : r.tHalfWidth();
        f.sdLogRatio = Double.isNaN(r.sdLog()) ? null : r.sdLog();
        f.verdict = r.resolved() && r.pairs() >= MIN_PAIRS_FOR_VERDICT ? RESOLVED : UNRESOLVED;
    }

    private static EfficiencyResults.CpuFigure cpuFigure(List<Window> used, CpuMeasure measure) {
        EfficiencyResults.WindowStats s = stats(used, measure::of);
        EfficiencyResults.CpuFigure f = new EfficiencyResults.CpuFigure();
        f.median = s.median;
        f.min = s.min;
        f.max = s.max;
        f.windows = s.windows;
        return f;
    }

    static EfficiencyResults.WindowStats stats(List<Window> windows, Function<Window, Double> figure) {
        List<Double> values = new ArrayList<>();
        for (Window w : windows) {
            Double v = figure.apply(w);
            if (v != null && !v.isNaN()) {
                values.add(v);
            }
        }
        EfficiencyResults.WindowStats s = new EfficiencyResults.WindowStats();
        s.windows = values.size();
        if (values.isEmpty()) {
            return s;
        }
        Collections.sort(values);
        int n = values.size();
        s.min = values.get(0);
        s.max = values.get(n - 1);
        s.median = n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
        return s;
    }

    /** Scatter of the per-pair log ratio over the given pairs, averaged over the non-baseline variants; null below two pairs. */
    static Double sdLogRatio(Map<Integer, Map<String, Window>> pairs, List<String> variants, String baseline, CpuMeasure measure) {
        double sum = 0;
        int n = 0;
        for (String v : variants) {
            if (v.equals(baseline)) {
                continue;
            }
            List<Double> ratios = ratios(pairs, v, baseline, measure);
            if (ratios.size() >= 2) {
                sum += PairedRatio.of(ratios).sdLog();
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }
}
