package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.stats.PairedRatio;
import java.util.ArrayList;
import java.util.List;

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

    /** The across-run figure of every variant (baseline included, without ratios) from the runs' results. */
    static void summarize(AcrossRunsResults a, List<String> variants, List<EfficiencyResults> runs) {
        a.variants.clear();
        a.runsCompleted = 0;
        for (EfficiencyResults r : runs) {
            if ("ok".equals(r.status)) {
                a.runsCompleted++;
            }
        }
        CpuMeasure main = a.mainFigure == null ? CpuMeasure.BROKER : CpuMeasure.valueOf(a.mainFigure);
        for (String name : variants) {
            AcrossRunsResults.VariantAcrossRuns v = new AcrossRunsResults.VariantAcrossRuns();
            v.name = name;
            for (CpuMeasure m : main.reported()) {
                AcrossRunsResults.AcrossFigure f = new AcrossRunsResults.AcrossFigure();
                for (EfficiencyResults r : runs) {
                    if (!"ok".equals(r.status)) {
                        continue;
                    }
                    for (EfficiencyResults.VariantResult x : r.variants) {
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
                relate(f, name.equals(a.baseline));
                v.figures.put(m.field, f);
            }
            a.variants.add(v);
        }
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
