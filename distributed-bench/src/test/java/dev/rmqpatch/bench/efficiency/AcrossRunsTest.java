package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import java.util.ArrayList;
import java.util.List;
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

    @Test
    void theRatioAcrossRunsIsTheGeometricMeanWithATIntervalOverRuns() {
        List<EfficiencyResults> runs = List.of(run("ok", 0.70), run("ok", 0.74), run("ok", 0.72));
        AcrossRunsResults a = new AcrossRunsResults();
        a.baseline = "A";
        a.mainFigure = CpuMeasure.BROKER.name();
        for (int k = 0; k < runs.size(); k++) {
            a.runs.add(AcrossRuns.entry(k + 1, "run-" + (k + 1), List.of("A", "B"), runs.get(k)));
        }
        AcrossRuns.summarize(a, List.of("A", "B"), runs);
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
