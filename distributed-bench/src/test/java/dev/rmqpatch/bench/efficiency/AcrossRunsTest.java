package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class AcrossRunsTest {

    private static EfficiencyResults run(String status, double... patchedRatios) {
        EfficiencyResults r = new EfficiencyResults();
        r.status = status;
        r.baseline = "A";
        r.mainFigure = CpuMeasure.BROKER.name();
        r.rateMsgPerS = 1000.0;
        EfficiencyResults.VariantResult a = new EfficiencyResults.VariantResult();
        a.name = "A";
        a.brokerCpuUsPerMsg = new EfficiencyResults.CpuFigure();
        a.brokerCpuUsPerMsg.median = 100.0;
        r.variants.add(a);
        EfficiencyResults.VariantResult b = new EfficiencyResults.VariantResult();
        b.name = "B";
        b.brokerCpuUsPerMsg = new EfficiencyResults.CpuFigure();
        b.brokerCpuUsPerMsg.median = 100.0 * patchedRatios[0];
        b.brokerCpuUsPerMsg.ratio = patchedRatios[0];
        b.brokerCpuUsPerMsg.ratioCi95 = new double[] {patchedRatios[0] * 0.99, patchedRatios[0] * 1.01};
        r.variants.add(b);
        return r;
    }

    /** The across-run results of runs of A (the baseline) and B, each run entered in order. */
    private static AcrossRunsResults summarized(List<EfficiencyResults> runs) {
        AcrossRunsResults a = new AcrossRunsResults();
        a.baseline = "A";
        a.mainFigure = CpuMeasure.BROKER.name();
        for (int k = 0; k < runs.size(); k++) {
            a.runs.add(AcrossRuns.entry(k + 1, "run-" + (k + 1), List.of("A", "B"), runs.get(k)));
        }
        AcrossRuns.summarize(a, List.of("A", "B"), runs);
        return a;
    }

    /** Gives a variant of a run the latency of sends taking these many microseconds. */
    private static EfficiencyResults latency(EfficiencyResults r, int variant, long... micros) {
        Histogram h = Histograms.create();
        for (long m : micros) {
            h.recordValue(m);
        }
        r.variants.get(variant).latencyMs = LatencySummary.of(h);
        return r;
    }

    @Test
    void everyRunsLatencyAndEachPercentilesHighestRunStandBesideTheRatios() {
        // B's p99.9 is highest in run 1, its p50 in run 2: the bound takes each from its own run.
        long[] fast = new long[990];
        Arrays.fill(fast, 500);
        long[] slowTail = Arrays.copyOf(fast, 1000);
        Arrays.fill(slowTail, 990, 1000, 30_000);
        long[] slowMiddle = new long[1000];
        Arrays.fill(slowMiddle, 800);
        List<EfficiencyResults> runs = List.of(latency(latency(run("ok", 0.70), 0, fast), 1, slowTail),
            latency(latency(run("ok", 0.74), 0, fast), 1, slowMiddle), latency(run("ok", 0.72), 0, fast));
        AcrossRunsResults a = summarized(runs);
        assertEquals(0.8, a.runs.get(1).latencyMs.get("B").p50, 0.001, "each run's own, per variant");
        assertEquals(0.5, a.runs.get(0).latencyMs.get("A").p99, 0.001, "the baseline's too");
        AcrossRunsResults.HighestLatency b = a.variants.get(1).highestLatencyMs;
        assertEquals(2, b.runs, "run 3 recorded no latency for B");
        assertEquals(0.8, b.p50, 0.001);
        assertEquals(0.8, b.p99, 0.001);
        assertEquals(30.0, b.p999, 0.1);
        assertEquals(3, a.variants.get(0).highestLatencyMs.runs);
        String table = AcrossRunsTable.render(a);
        assertTrue(table.contains("p50/p99/p99.9 ms (highest run)"), table);
        String run1 = table.substring(table.indexOf("\n1 ") + 1);
        assertTrue(run1.lines().findFirst().orElseThrow().endsWith("0.500/0.500/0.500"), "run 1's baseline row: " + table);
        assertTrue(run1.lines().skip(1).findFirst().orElseThrow().endsWith("0.500/0.500/30.0"), "run 1's B row: " + table);
        assertTrue(table.lines().filter(l -> l.startsWith("B ")).findFirst().orElseThrow().endsWith("0.800/0.800/30.0"), table);
    }

    @Test
    void theRatioAcrossRunsIsTheGeometricMeanWithATIntervalOverRuns() {
        List<EfficiencyResults> runs = List.of(run("ok", 0.70), run("ok", 0.74), run("ok", 0.72));
        AcrossRunsResults a = summarized(runs);
        assertEquals(3, a.runsCompleted);
        AcrossRunsResults.AcrossFigure f = a.variants.get(1).figures.get("brokerCpuUsPerMsg");
        double[] logs = {Math.log(0.70), Math.log(0.74), Math.log(0.72)};
        double mean = (logs[0] + logs[1] + logs[2]) / 3;
        double sd = Math.sqrt(((logs[0] - mean) * (logs[0] - mean) + (logs[1] - mean) * (logs[1] - mean) + (logs[2] - mean) * (logs[2] - mean)) / 2);
        double half = 4.3027 * sd / Math.sqrt(3);
        assertEquals(Math.exp(mean), f.ratio, 1e-12);
        assertEquals(Math.exp(mean - half), f.ratioCi95[0], 1e-4);
        assertEquals(Math.exp(mean + half), f.ratioCi95[1], 1e-4);
        assertEquals(List.of(0.70, 0.74, 0.72), f.runRatios);
        assertEquals(3, f.runs);
        assertEquals(EfficiencySummary.RESOLVED, f.verdict, "three runs whose interval excludes 1.0");
        AcrossRunsResults.AcrossFigure base = a.variants.get(0).figures.get("brokerCpuUsPerMsg");
        assertNull(base.ratio);
        assertEquals(List.of(100.0, 100.0, 100.0), base.runMedians);
        assertEquals(0.74, a.runs.get(1).ratios.get("B").get("brokerCpuUsPerMsg").ratio);
        String table = AcrossRunsTable.render(a);
        assertTrue(table.contains(String.format(java.util.Locale.ROOT, "%.3f", f.ratio)), table);
    }

    /** Three runs of the curve with an A/A copy, the order rotated, the second run's rates 20% lower (its own probe). */
    private static List<EfficiencyResults> curveRuns() {
        List<String> order = List.of("4.9.0-tuned", "4.9.0-patched", "4.9.0-tuned#2");
        List<EfficiencyResults> runs = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            List<String> rotated = new ArrayList<>(order.subList(k, 3));
            rotated.addAll(order.subList(0, k));
            EfficiencyResults r = EfficiencySummaryTest.curveWithAnAaVariant(rotated, 20 + k);
            r.metadata.put("mode", "efficiency");
            if (k == 1) {
                r.rateMsgPerS = 4000.0;
                for (Window w : r.windows) {
                    w.targetRateMsgPerS *= 0.8;
                    w.storedMsgPerS *= 0.8;
                }
            }
            EfficiencySummary.summarize(r, null);
            runs.add(r);
        }
        return runs;
    }

    @Test
    void everyCellIsMatchedAcrossRunsByItsPlaceInTheCurveAndItsPlacement() {
        List<EfficiencyResults> runs = curveRuns();
        AcrossRunsResults a = new AcrossRunsResults();
        a.baseline = "4.9.0-tuned";
        a.mainFigure = CpuMeasure.BROKER.name();
        AcrossRuns.summarize(a, List.of("4.9.0-tuned", "4.9.0-patched", "4.9.0-tuned#2"), runs);
        assertEquals(6, a.cells.size());
        for (AcrossRunsResults.CellAcrossRuns c : a.cells) {
            assertEquals(3, c.runRatesMsgPerS.size(), "one rate per run");
            double first = (c.rateRank) * 2500.0;
            assertEquals(List.of(first, first * 0.8, first), c.runRatesMsgPerS, "matched by rank, not by msg/s");
            boolean pinned = "pinned".equals(c.placement);
            AcrossRunsResults.AcrossFigure patched = c.variants.get(1).figures.get("brokerCpuUsPerMsg");
            AcrossRunsResults.AcrossFigure aa = c.variants.get(2).figures.get("brokerCpuUsPerMsg");
            assertEquals(3, patched.runs);
            assertEquals(pinned ? 0.7 : 0.8, patched.ratio, 0.02, c.rateRank + " " + c.placement);
            assertEquals(pinned ? 1.02 : 0.99, aa.ratio, 0.02, c.rateRank + " " + c.placement);
            assertTrue(patched.ratioCi95[0] < patched.ratio && patched.ratio < patched.ratioCi95[1]);
        }
        assertEquals(List.of(true, true, true), a.cells.get(3).runHeadline, "rate 2 unpinned: the headline of every run");
        assertEquals(0.8, a.variants.get(1).figures.get("brokerCpuUsPerMsg").ratio, 0.02, "the headline across runs: unpinned");
        String table = AcrossRunsTable.render(a);
        assertTrue(table.contains("every cell across runs") && table.contains("5,000 / 4,000 / 5,000"), table);
        // Every cell's every variant, the baseline with it, has its latency (windows of 0.9 and 1.5 ms in every run).
        String cells = table.substring(table.indexOf("every cell across runs"));
        assertEquals(6 * 3, cells.split("0\\.900/1\\.50/1\\.50", -1).length - 1, cells);
        assertEquals(1.5, a.cells.get(0).variants.get(0).highestLatencyMs.p999, 0.01);
    }

    @Test
    void summarizeRebuildsAnAcrossRunsFolderWithItsCells(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        List<EfficiencyResults> runs = curveRuns();
        AcrossRunsResults a = new AcrossRunsResults();
        a.baseline = "4.9.0-tuned";
        a.mainFigure = CpuMeasure.BROKER.name();
        a.runsPlanned = 3;
        for (int k = 0; k < 3; k++) {
            dev.rmqpatch.bench.report.ResultsFile.write(dir.resolve("run-" + (k + 1)).resolve("results.json"), runs.get(k));
            a.runs.add(AcrossRuns.entry(k + 1, "run-" + (k + 1), List.of(), runs.get(k)));
        }
        AcrossRuns.summarize(a, List.of("4.9.0-tuned", "4.9.0-patched", "4.9.0-tuned#2"), runs);
        a.cells.clear(); // as an older build wrote it
        a.status = "ok";
        dev.rmqpatch.bench.report.ResultsFile.write(dir.resolve("results.json"), a);

        Resummary.rewrite(dir, new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true, java.nio.charset.StandardCharsets.UTF_8));

        AcrossRunsResults again = dev.rmqpatch.bench.protocol.Json.GSON.fromJson(java.nio.file.Files.readString(dir.resolve("results.json")),
            AcrossRunsResults.class);
        assertEquals(6, again.cells.size());
        assertEquals(3, again.runsCompleted);
        assertEquals(List.of("4.9.0-tuned", "4.9.0-patched", "4.9.0-tuned#2"), again.variants.stream().map(v -> v.name).toList());
        assertTrue(again.metadata.containsKey("resummarized"));
        assertTrue(java.nio.file.Files.readString(dir.resolve("table.txt")).contains("every cell across runs"));
        assertTrue(java.nio.file.Files.readString(dir.resolve("run-2").resolve("results.json")).contains("resummarized"));
        assertTrue(java.nio.file.Files.size(dir.resolve("chart.png")) > 1000);
    }

    @Test
    void aFailedRunIsListedButLeftOutAndTwoRunsNeverResolve() {
        List<EfficiencyResults> runs = List.of(run("ok", 0.70), run("failed", 0.10), run("ok", 0.72));
        AcrossRunsResults a = new AcrossRunsResults();
        a.baseline = "A";
        AcrossRuns.summarize(a, List.of("A", "B"), runs);
        assertEquals(2, a.runsCompleted);
        AcrossRunsResults.AcrossFigure f = a.variants.get(1).figures.get("brokerCpuUsPerMsg");
        assertEquals(List.of(0.70, 0.72), f.runRatios);
        assertEquals(EfficiencySummary.UNRESOLVED, f.verdict);
    }

    @Test
    void eachRunRotatesTheVariantsOrderByOne() {
        List<Variant> v = List.of(Variant.parse("4.9.0-tuned"), Variant.parse("4.9.0-patched"), Variant.parse("4.9.1"));
        List<String> second = new ArrayList<>();
        RepeatedRuns.order(v, 2).forEach(x -> second.add(x.name()));
        assertEquals(List.of("4.9.0-patched", "4.9.1", "4.9.0-tuned"), second);
        assertEquals(v, RepeatedRuns.order(v, 4));
    }

    @Test
    void optionsAreCopiedFieldByFieldWithTheirOwnLists() {
        RunOptions o = new RunOptions();
        o.variants = new ArrayList<>(List.of(Variant.parse("4.9.0-tuned")));
        o.baseline = "4.9.0-tuned";
        o.runs = 3;
        o.pairs = 12;
        o.brokerSettings.put("k", "v");
        RunOptions c = o.copy();
        assertEquals(3, c.runs);
        assertEquals(12, c.pairs);
        assertEquals("4.9.0-tuned", c.baseline);
        assertEquals(o.variants, c.variants);
        assertNotSame(o.variants, c.variants);
        assertNotSame(o.brokerSettings, c.brokerSettings);
        c.brokerSettings.put("x", "y");
        assertEquals(1, o.brokerSettings.size());
    }
}
