package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.engine.ComparisonMetadata;
import dev.rmqpatch.bench.engine.PlanFailedException;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code compare --efficiency --runs N}: N whole efficiency runs one after another, each a plain efficiency run with its
 * own context (fresh name servers, brokers, stores, agents, warm-up, rate probe and pinning choice) into
 * {@code run-<k>/}, the variants' order rotated by one each run; then the ratio across runs ({@link AcrossRuns}).
 * The interval of one run sees one set of JVMs, JIT outcomes and store files; this one sees them change.
 */
final class RepeatedRuns {
    private final RunOptions o;
    private final PrintStream out;
    private final AcrossRunsResults results = new AcrossRunsResults();
    private final List<EfficiencyResults> runs = new ArrayList<>();

    RepeatedRuns(RunOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
        results.runsPlanned = o.runs;
        results.baseline = o.baseline;
        results.mainFigure = CpuMeasure.mainFor(o).name();
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("mode", "efficiency");
        mode.put("runs", o.runs);
        mode.put("design", "--runs " + o.runs + ": whole efficiency runs one after another, each with fresh brokers and agents, the "
            + "variants' order rotated by one per run; each run's results in run-<k>/");
        ComparisonMetadata.describe(o, results.metadata, mode, List.of());
    }

    /** The variants (or clients) in run {@code k}'s order (1-based): rotated left by k - 1. */
    static <T> List<T> order(List<T> variants, int k) {
        List<T> rotated = new ArrayList<>();
        int n = variants.size();
        for (int i = 0; i < n; i++) {
            rotated.add(variants.get((i + k - 1) % n));
        }
        return rotated;
    }

    void run(RunContext outer) throws PlanFailedException {
        for (int k = 1; k <= o.runs; k++) {
            RunOptions one = o.copy();
            one.runs = 1;
            if (o.clients != null) {
                one.clients = order(o.clients, k);
            } else {
                one.variants = order(o.variants, k);
            }
            String folder = "run-" + k;
            one.outDir = o.outDir.resolve(folder);
            List<String> names = one.compared();
            out.printf("%n[%s elapsed] run %d of %d: fresh brokers and agents, variants in the order %s; output %s%n", outer.elapsed(), k,
                o.runs, names, one.outDir);
            EfficiencyPlan plan = new EfficiencyPlan();
            try {
                new RunContext(one, out).run(plan);
            } finally {
                runs.add(plan.results());
                results.runs.add(AcrossRuns.entry(k, folder, names, plan.results()));
                AcrossRuns.summarize(results, variantNames(), runs);
                printSoFar();
            }
        }
    }

    private List<String> variantNames() {
        return o.compared();
    }

    private void printSoFar() {
        CpuMeasure main = CpuMeasure.valueOf(results.mainFigure);
        for (AcrossRunsResults.VariantAcrossRuns v : results.variants) {
            AcrossRunsResults.AcrossFigure f = v.figures.get(main.field);
            if (f != null && f.ratio != null) {
                out.printf("  %s / %s after %d run(s): %.3f%s%n", v.name, results.baseline, f.runs, f.ratio, f.ratioCi95 == null ? ""
                    : String.format(java.util.Locale.ROOT, " [%.3f, %.3f] (t over runs)", f.ratioCi95[0], f.ratioCi95[1]));
            }
        }
    }

    void ended(String error) {
        results.status = error == null ? "ok" : "failed";
        results.error = error;
    }

    void finish(RunContext outer) {
        try {
            AcrossRuns.summarize(results, variantNames(), runs);
            if (results.runsCompleted < AcrossRunsResults.MIN_RUNS_FOR_VERDICT) {
                results.warnings.add(results.runsCompleted + " run(s) completed: below " + AcrossRunsResults.MIN_RUNS_FOR_VERDICT
                    + " no verdict across runs is resolved");
            }
            outer.writeOutput(results.metadata, results, AcrossRunsTable.render(results), png -> AcrossRunsChart.write(results, png),
                results.error, false);
        } catch (RuntimeException e) {
            out.println("could not write the results to " + o.outDir + ": " + e);
        }
    }
}
