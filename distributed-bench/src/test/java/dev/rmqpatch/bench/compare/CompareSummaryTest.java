package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.engine.Variant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareSummaryTest {

    @Test
    void variantsMapToDistributionsConfsAndOverrides() {
        Variant stock = Variant.parse("4.9.0");
        assertEquals("rocketmq-4.9.0-stock", stock.distName());
        assertEquals("broker.conf", stock.confName());
        assertTrue(stock.overrides(2).isEmpty());
        Variant tuned = Variant.parse("4.9.0-tuned");
        assertEquals("rocketmq-4.9.0-stock", tuned.distName());
        assertEquals("broker-tuned.conf", tuned.confName());
        assertEquals("2", tuned.overrides(2).get("sendMessageThreadPoolNums"));
        assertEquals("4", tuned.overrides(32).get("sendMessageThreadPoolNums"));
        Variant patched = Variant.parse("4.9.0-patched");
        assertEquals("rocketmq-4.9.0-patched", patched.distName());
        assertEquals("broker-tuned.conf", patched.confName());
        assertEquals("2", patched.overrides(2).get("sendMessageThreadPoolNums"));
        Variant next = Variant.parse("4.9.1");
        assertEquals("rocketmq-4.9.1-stock", next.distName());
        assertEquals("broker.conf", next.confName());
        assertTrue(next.buildHint().contains("--stock-only"));
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9"));
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-fast"));
    }

    @Test
    void spreadIsMedianMinMaxAndKnowsWhenItIsUnknown() {
        Spread s = Spread.of(Arrays.asList(3.0, 1.0, null, 2.0));
        assertEquals(2.0, s.median);
        assertEquals(1.0, s.min);
        assertEquals(3.0, s.max);
        assertEquals(4, s.rounds.size(), "rounds keep their order and gaps");
        assertEquals(2.5, Spread.of(List.of(1.0, 2.0, 3.0, 4.0)).median);
        assertNull(Spread.of(List.of()).median);
        Spread a = Spread.of(List.of(10.0, 12.0));
        assertTrue(a.overlaps(Spread.of(List.of(11.0, 15.0))));
        assertFalse(a.overlaps(Spread.of(List.of(13.0, 15.0))));
        assertNull(a.overlaps(Spread.of(List.of(20.0))), "one round has no spread");
    }

    private static RunResult run(double tps, double cpu, double bytes, long... latencyMicros) {
        RunResult r = new RunResult();
        r.status = "ok";
        r.tps = tps;
        Histogram h = Histograms.create();
        for (long v : latencyMicros) {
            h.recordValue(v);
        }
        r.latencyMs = LatencySummary.of(h);
        r.latencyHistogram = Histograms.encode(h);
        r.broker = new BrokerFigures();
        r.broker.cpuUsPerMsg = cpu;
        r.broker.storedBytesPerMsg = bytes;
        r.broker.gcPauseMillis = 10.0;
        r.broker.otherCores = 0.0;
        r.counts = new Counts();
        return r;
    }

    private static CompareResults.VariantResult variant(String name, List<RunResult> runs) {
        CompareResults.VariantResult v = new CompareResults.VariantResult();
        v.name = name;
        for (int i = 0; i < runs.size(); i++) {
            v.rounds.add(Summarizer.round(i + 1, runs.get(i), "runs/" + (i + 1) + "-" + name + "/result.json"));
        }
        Summarizer.summarize(v, runs);
        return v;
    }

    @Test
    void summaryMergesLatencyHistogramsAndRelatesToTheBaseline() {
        // Baseline: one fast round with many sends, one slow round with few. Merged p50 is the fast one's.
        long[] fast = new long[900];
        Arrays.fill(fast, 1_000);
        long[] slow = new long[100];
        Arrays.fill(slow, 50_000);
        CompareResults.VariantResult base = variant("4.9.0-tuned", List.of(run(10_000, 50, 504, fast), run(9_000, 55, 504, slow),
            run(11_000, 52, 504, fast)));
        CompareResults.VariantResult patched = variant("4.9.0-patched", List.of(run(12_000, 40, 493, fast), run(12_500, 42, 493, fast),
            run(11_500, 41, 493, fast)));
        assertEquals(10_000.0, base.tps.median);
        assertEquals(9_000.0, base.tps.min);
        assertEquals(1.0, base.latencyMs.p50, 0.01, "merged histogram, not an average of round p50s");
        assertEquals(52.0, base.brokerCpuUsPerMsg.median);

        CompareResults results = new CompareResults();
        results.baseline = "4.9.0-tuned";
        results.variants.add(base);
        results.variants.add(patched);
        Summarizer.relate(results.variants, results.baseline);
        assertEquals(1.2, patched.ratioToBaseline.get("tps"), 1e-9);
        assertEquals(41.0 / 52.0, patched.ratioToBaseline.get("brokerCpuUsPerMsg"), 1e-9);
        assertEquals(493.0 / 504.0, patched.ratioToBaseline.get("storedBytesPerMsg"), 1e-9);
        assertEquals(1.0, base.ratioToBaseline.get("tps"));
        assertFalse(patched.rangeOverlapsBaseline.get("tps"), "baseline 9,000-11,000 vs patched 11,500-12,500");
        assertFalse(patched.rangeOverlapsBaseline.get("brokerCpuUsPerMsg"), "50-55 vs 40-42");
    }

    @Test
    void warningsForCeilingOtherLoadAndFailures() {
        CompareResults results = new CompareResults();
        results.baseline = "a";
        CompareResults.VariantResult v = variant("a", List.of(run(6_000, 50, 500, 1000), run(6_100, 50, 500, 1000)));
        v.otherCpuCores = Spread.of(List.of(0.1, 0.5));
        v.failedSends = 3;
        results.variants.add(v);
        results.harnessCeiling = new CompareResults.Ceiling();
        results.harnessCeiling.tps = 10_000.0;
        List<String> w = Summarizer.warnings(results);
        assertEquals(3, w.size(), w.toString());
        assertTrue(w.get(0).contains("61%") && w.get(0).contains("harness ceiling"), w.get(0));
        assertTrue(w.get(1).contains("0.50 cores"), w.get(1));
        assertTrue(w.get(2).contains("3 sends failed"), w.get(2));
        results.harnessCeiling.tps = 20_000.0;
        v.otherCpuCores = Spread.of(List.of(0.0));
        v.failedSends = 0;
        assertTrue(Summarizer.warnings(results).isEmpty());
    }

    @Test
    void tableAndChartAreWritten(@TempDir Path dir) throws Exception {
        CompareResults results = new CompareResults();
        results.baseline = "4.9.0-tuned";
        results.variants.add(variant("4.9.0", List.of(run(5_000, 80, 504, 3000), run(5_500, 78, 504, 3100))));
        results.variants.add(variant("4.9.0-tuned", List.of(run(10_000, 50, 504, 2000), run(10_500, 52, 504, 2100))));
        Summarizer.relate(results.variants, results.baseline);
        String table = CompareTable.render(results, 2);
        assertTrue(table.contains("4.9.0-tuned") && table.contains("10,250") && table.contains("(10,000-10,500)"), table);
        // Both rounds' histograms merged: p50 the first round's 2 ms, p99 and p99.9 the second's 2.1 ms, beside the CPU figure.
        String row = table.lines().filter(l -> l.startsWith("4.9.0-tuned ")).findFirst().orElseThrow();
        assertTrue(table.lines().findFirst().orElseThrow().contains("p50/p99/p99.9 ms"), table);
        assertTrue(row.contains("2.00/2.10/2.10") && row.contains("51.0"), row);
        assertTrue(table.contains("4.9.0 vs 4.9.0-tuned: msg/s 0.51x (outside the spread)"), table);
        Path png = dir.resolve("chart.png");
        ChartWriter.write(results, png);
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 1000);
        assertEquals((byte) 0x89, bytes[0]);
        assertEquals('P', bytes[1]);
        assertEquals('N', bytes[2]);
        assertEquals('G', bytes[3]);
    }

    @Test
    void theLatencyTripleHasThreeSignificantDigitsAndADashForWhatWasNotRecorded() {
        assertEquals("0.068/2.84/19.1", Format.latency(0.068, 2.844, 19.12));
        assertEquals("1.00/250/1235", Format.latency(1.0, 250.4, 1234.6));
        assertEquals("0.500/-/-", Format.latency(0.5, null, null));
        assertEquals("-", Format.latency(null, null, null));
        assertEquals("-", Format.latency((LatencySummary) null));
        assertEquals("-", Format.latency(LatencySummary.of(Histograms.create())), "no sends recorded");
    }

    @Test
    void chartSurvivesNoData(@TempDir Path dir) throws Exception {
        CompareResults empty = new CompareResults();
        empty.variants = new ArrayList<>();
        ChartWriter.write(empty, dir.resolve("chart.png"));
        assertTrue(Files.size(dir.resolve("chart.png")) > 0);
    }
}
