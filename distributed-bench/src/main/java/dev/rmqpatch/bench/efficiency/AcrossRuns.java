package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.stats.LatencySummary;
import dev.rmqpatch.bench.stats.PairedRatio;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/** Fills the across-run figures of {@link AcrossRunsResults} from each run's own results. */
final class AcrossRuns {

    private AcrossRuns() {
    }

    /** A run's entry: its order, rate, placement and every non-baseline variant's ratios. */
    static AcrossRunsResults.RunEntry entry(int run, String folder, List<String> order, EfficiencyResults r) {
        AcrossRunsResults.RunEntry e = new AcrossRunsResults.RunEntry();
        e.run = run;
        e.folder = folder;
        e.order = order;
        e.status = r.status;
        e.rateMsgPerS = r.rateMsgPerS;
        e.pinned = r.pinning.applied;
        e.placement = r.pinning.placement;
        e.pairsMeasured = r.pairsMeasured;
        for (EfficiencyResults.VariantResult v : r.variants) {
            e.latencyMs.put(v.name, v.latencyMs);
            if (v.name.equals(r.baseline)) {
                continue;
            }
            for (CpuMeasure m : CpuMeasure.main(r).reported()) {
                EfficiencyResults.CpuFigure f = m.of(v);
                if (f == null || f.ratio == null) {
                    continue;
                }
                AcrossRunsResults.RunRatio rr = new AcrossRunsResults.RunRatio();
                rr.ratio = f.ratio;
                rr.ratioCi95 = f.ratioCi95;
                rr.ratioCi95Bootstrap = f.ratioCi95Bootstrap;
                rr.pairs = f.pairs;
                e.ratios.computeIfAbsent(v.name, k -> new java.util.LinkedHashMap<>()).put(m.field, rr);
            }
        }
        return e;
    }

    /**
     * The across-run figures of every variant (baseline included, without ratios) from the runs' results: the headline
     * (each run's headline cell) and every cell, matched across runs by its place in the rate curve and its placement.
     */
    static void summarize(AcrossRunsResults a, List<String> variants, List<EfficiencyResults> runs) {
        a.variants.clear();
        a.cells.clear();
        List<EfficiencyResults> ok = new ArrayList<>();
        for (EfficiencyResults r : runs) {
            if ("ok".equals(r.status)) {
                ok.add(r);
            }
        }
        a.runsCompleted = ok.size();
        CpuMeasure main = a.mainFigure == null ? CpuMeasure.BROKER : CpuMeasure.valueOf(a.mainFigure);
        List<List<EfficiencyResults.VariantResult>> headlines = new ArrayList<>();
        ok.forEach(r -> headlines.add(r.variants));
        a.variants.addAll(across(a.baseline, variants, main, headlines));
        Map<String, AcrossRunsResults.CellAcrossRuns> cells = new TreeMap<>();
        Map<String, List<List<EfficiencyResults.VariantResult>>> cellRuns = new LinkedHashMap<>();
        for (EfficiencyResults r : ok) {
            List<Double> rates = new ArrayList<>(new TreeSet<>(r.cells.stream().map(c -> c.rateMsgPerS).toList()));
            for (EfficiencyResults.CellResult c : r.cells) {
                int rank = rates.indexOf(c.rateMsgPerS) + 1;
                String placement = placement(c);
                Placement where = Placement.ofLabel(placement);
                String key = rank + "/" + (where == null ? placement : where.ordinal());
                AcrossRunsResults.CellAcrossRuns x = cells.computeIfAbsent(key, k -> new AcrossRunsResults.CellAcrossRuns());
                x.rateRank = rank;
                x.placement = placement;
                x.runRatesMsgPerS.add(c.rateMsgPerS);
                x.runPercentsOfSaturation.add(c.percentOfSaturation);
                x.runHeadline.add(c.headline);
                cellRuns.computeIfAbsent(key, k -> new ArrayList<>()).add(c.variants);
            }
        }
        for (var e : cells.entrySet()) {
            e.getValue().variants.addAll(across(a.baseline, variants, main, cellRuns.get(e.getKey())));
            a.cells.add(e.getValue());
        }
    }

    /** A cell's placement as the tables name it (from the pinned flag in results written before placements had names). */
    static String placement(EfficiencyResults.CellResult c) {
        return c.placement != null ? c.placement : (c.pinned ? Placement.PINNED : Placement.UNPINNED).label;
    }

    /** Each variant's figures across runs, from one list of variant results per run (a run's headline, or one cell of it). */
    private static List<AcrossRunsResults.VariantAcrossRuns> across(String baseline, List<String> variants, CpuMeasure main,
                                                                    List<List<EfficiencyResults.VariantResult>> perRun) {
        List<AcrossRunsResults.VariantAcrossRuns> out = new ArrayList<>();
        for (String name : variants) {
            AcrossRunsResults.VariantAcrossRuns v = new AcrossRunsResults.VariantAcrossRuns();
            v.name = name;
            List<LatencySummary> latencies = new ArrayList<>();
            for (List<EfficiencyResults.VariantResult> run : perRun) {
                for (EfficiencyResults.VariantResult x : run) {
                    if (x.name.equals(name) && x.latencyMs != null && x.latencyMs.count > 0) {
                        latencies.add(x.latencyMs);
                    }
                }
            }
            v.highestLatencyMs = highest(latencies);
            for (CpuMeasure m : main.reported()) {
                AcrossRunsResults.AcrossFigure f = new AcrossRunsResults.AcrossFigure();
                for (List<EfficiencyResults.VariantResult> run : perRun) {
                    for (EfficiencyResults.VariantResult x : run) {
                        EfficiencyResults.CpuFigure c = x.name.equals(name) ? m.of(x) : null;
                        if (c == null) {
                            continue;
                        }
                        if (c.median != null) {
                            f.runMedians.add(c.median);
                        }
                        if (c.ratio != null) {
                            f.runRatios.add(c.ratio);
                        }
                    }
                }
                relate(f, name.equals(baseline));
                v.figures.put(m.field, f);
            }
            out.add(v);
        }
        return out;
    }

    /** Each percentile's highest over the runs' latencies; null when no run has one. */
    static AcrossRunsResults.HighestLatency highest(List<LatencySummary> runs) {
        if (runs.isEmpty()) {
            return null;
        }
        AcrossRunsResults.HighestLatency h = new AcrossRunsResults.HighestLatency();
        h.runs = runs.size();
        h.p50 = highest(runs, l -> l.p50);
        h.p99 = highest(runs, l -> l.p99);
        h.p999 = highest(runs, l -> l.p999);
        h.max = highest(runs, l -> l.max);
        return h;
    }

    private static Double highest(List<LatencySummary> runs, Function<LatencySummary, Double> percentile) {
        return runs.stream().map(percentile).filter(Objects::nonNull).max(Double::compare).orElse(null);
    }

    private static void relate(AcrossRunsResults.AcrossFigure f, boolean baseline) {
        f.runs = f.runRatios.size();
        if (baseline || f.runRatios.isEmpty()) {
            f.runs = baseline ? f.runMedians.size() : 0;
            return;
        }
        PairedRatio r = PairedRatio.of(new ArrayList<>(f.runRatios));
        f.ratio = r.estimate();
        f.verdict = EfficiencySummary.UNRESOLVED;
        if (f.runs >= 2) {
            f.ratioCi95 = r.t95();
            f.halfWidth = r.tHalfWidth();
            f.sdLogRatio = r.sdLog();
            boolean excludesOne = f.ratioCi95[0] > 1.0 || f.ratioCi95[1] < 1.0;
            if (excludesOne && f.runs >= AcrossRunsResults.MIN_RUNS_FOR_VERDICT) {
                f.verdict = EfficiencySummary.RESOLVED;
            }
        }
    }
}
