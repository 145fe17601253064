package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.pinning.PinMode;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.pinning.SplitPlan;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statistics, table and chart of an efficiency run from synthetic windows (no processes, no timing). */
class EfficiencySummaryTest {
    @TempDir
    Path dir;

    private static Window window(int index, String phase, int pair, String variant, double cpu, double rate, double stored) {
        Window w = new Window();
        w.index = index;
        w.phase = phase;
        w.pair = pair;
        w.variant = variant;
        w.targetRateMsgPerS = rate;
        w.loadSeconds = 5;
        w.storedMsgPerS = stored;
        w.messagesStored = (long) (stored * 5);
        w.heldRate = rate > 0 ? stored >= WindowRunner.HELD_FRACTION * rate : null;
        w.brokerCpuUsPerMsg = cpu;
        w.storedBytesPerMsg = variant.endsWith("patched") ? 493.0 : 504.0;
        w.otherCpuCores = 0.01;
        Histogram h = Histograms.create();
        h.recordValue(900);
        h.recordValue(1500);
        w.latency = h;
        w.latencyMs = LatencySummary.of(h);
        w.acked = w.messagesStored;
        if (!w.usable()) {
            w.note = w.unusableBecause();
        }
        return w;
    }

    /** 30 measured pairs, patched 5% cheaper, 3% noise per window; window 13 (tuned) misses the rate. */
    private static EfficiencyResults run() {
        EfficiencyResults r = new EfficiencyResults();
        r.baseline = "4.9.0-tuned";
        r.rateMsgPerS = 5000.0;
        r.rateSource = "probe";
        r.windowSeconds = 5;
        r.pairsPlanned = 30;
        r.pinning.applied = false;
        r.pinning.description = "not pinned (--pin off)";
        r.pinning.notAppliedBecause = "--pin off";
        for (String name : List.of("4.9.0-tuned", "4.9.0-patched")) {
            EfficiencyResults.VariantResult v = new EfficiencyResults.VariantResult();
            v.name = name;
            r.variants.add(v);
        }
        List<String> names = List.of("4.9.0-tuned", "4.9.0-patched");
        Random random = new Random(11);
        int index = 0;
        r.windows.add(window(++index, Window.WARM_UP, 1, "4.9.0-tuned", 50, 0, 16000));
        r.windows.add(window(++index, Window.WARM_UP, 1, "4.9.0-patched", 48, 0, 17000));
        for (int p = 0; p < 30; p++) {
            for (int v : WindowOrder.of(p + 1, 2)) {
                double cpu = 80 * (v == 1 ? 0.95 : 1.0) * Math.exp(0.03 * random.nextGaussian());
                double stored = ++index == 13 ? 4400 : 5000;
                r.windows.add(window(index, Window.MEASURE, p + 2, names.get(v), cpu, 5000, stored));
            }
        }
        r.status = "ok";
        return r;
    }

    @Test
    void ratioIntervalAndVerdictFromTheUsablePairs() {
        EfficiencyResults r = run();
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        assertEquals(30, r.pairsMeasured);
        EfficiencyResults.CpuFigure base = r.variants.get(0).brokerCpuUsPerMsg;
        EfficiencyResults.CpuFigure patched = r.variants.get(1).brokerCpuUsPerMsg;
        assertNull(base.ratio, "the baseline has no ratio to itself");
        assertEquals(29, base.windows, "its missed window is out");
        assertEquals(29, patched.pairs, "the pair with the missed window is out");
        assertEquals(29, patched.windows, "and so is the partner window");
        assertEquals(0.95, patched.ratio, 0.02);
        assertTrue(patched.ratioCi95[0] < 0.95 && 0.95 < patched.ratioCi95[1]);
        assertTrue(patched.ratioCi95Bootstrap[0] < patched.ratioCi95Bootstrap[1]);
        assertEquals(EfficiencySummary.RESOLVED, patched.verdict);
        assertEquals(1, r.variants.get(0).windowsNotUsable);
        assertEquals(0, r.variants.get(1).windowsNotUsable);
        assertEquals(504.0, r.variants.get(0).storedBytesPerMsg.median);
        assertEquals(58, r.variants.get(0).latencyMs.count, "latency of the 29 windows in the interval, merged");
        Window missed = r.windows.get(12);
        assertFalse(missed.inInterval);
        assertTrue(missed.note.contains("missed the rate: 4,400 of 5,000 msg/s"), missed.note);
        Window partner = r.windows.stream().filter(w -> w.pair == missed.pair && w != missed).findFirst().orElseThrow();
        assertFalse(partner.inInterval);
        assertTrue(partner.note.contains("no usable baseline window"), partner.note);
        assertFalse(r.windows.get(0).inInterval, "warm-up windows never count");

        List<String> warnings = EfficiencyWarnings.of(r);
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("4.9.0-tuned: 1 measured window(s) missed the rate")), warnings.toString());
    }

    @Test
    void afewAgreeingPairsAreNotEnoughForAVerdict() {
        EfficiencyResults r = run();
        r.windows.clear();
        double[] patchedCpu = {72.0, 72.5, 71.8, 72.2};
        for (int p = 0; p < patchedCpu.length; p++) {
            r.windows.add(window(2 * p + 1, Window.MEASURE, p + 1, "4.9.0-tuned", 80.0, 5000, 5000));
            r.windows.add(window(2 * p + 2, Window.MEASURE, p + 1, "4.9.0-patched", patchedCpu[p], 5000, 5000));
        }
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        EfficiencyResults.CpuFigure patched = r.variants.get(1).brokerCpuUsPerMsg;
        assertEquals(4, patched.pairs);
        assertTrue(patched.ratioCi95[1] < 1.0 && patched.ratioCi95Bootstrap[1] < 1.0, "both intervals exclude 1.0");
        assertEquals(EfficiencySummary.UNRESOLVED, patched.verdict, "but four pairs are below the minimum");
    }

    @Test
    void onlyTheKeptPinningStateCounts() {
        EfficiencyResults r = run();
        for (Window w : r.windows) {
            w.placement = (w.pair % 2 == 0 ? Placement.PINNED : Placement.UNPINNED).label;
        }
        EfficiencySummary.summarize(r, Placement.PINNED);
        assertEquals(15, r.pairsMeasured);
        assertTrue(r.windows.stream().filter(w -> !w.placement.equals("pinned")).noneMatch(w -> w.inInterval));
    }

    /**
     * Three variants over 3 rates x 2 placements, 6 pairs per cell: patched saves 30% pinned and 20% unpinned; an A/A copy
     * of the baseline, listed first, is 2% dearer pinned and 1% cheaper unpinned. {@code seed} varies the noise.
     */
    static EfficiencyResults curveWithAnAaVariant(List<String> order, int seed) {
        EfficiencyResults r = run();
        r.windows.clear();
        r.variants.clear();
        for (String name : order) {
            EfficiencyResults.VariantResult v = new EfficiencyResults.VariantResult();
            v.name = name;
            r.variants.add(v);
        }
        r.probe.saturatedMsgPerS.put("4.9.0-tuned", 10000.0);
        Random random = new Random(seed);
        int index = 0;
        int pair = 0;
        for (double rate : new double[] {2500, 5000, 7500}) {
            for (boolean pinned : new boolean[] {true, false}) {
                for (int p = 0; p < 6; p++) {
                    pair++;
                    for (String v : order) {
                        double f = v.endsWith("patched") ? (pinned ? 0.7 : 0.8) : v.endsWith("#2") ? (pinned ? 1.02 : 0.99) : 1.0;
                        Window w = window(++index, Window.MEASURE, pair, v, 80 * f * Math.exp(0.01 * random.nextGaussian()), rate, rate);
                        w.pinned = pinned;
                        w.placement = (pinned ? Placement.PINNED : Placement.UNPINNED).label;
                        r.windows.add(w);
                    }
                }
            }
        }
        return r;
    }

    @Test
    void theHeadlinePlacementIsJudgedOnTheVariantThatSavesMostWhateverTheOrder() {
        for (List<String> order : List.of(List.of("4.9.0-tuned#2", "4.9.0-tuned", "4.9.0-patched"),
            List.of("4.9.0-patched", "4.9.0-tuned#2", "4.9.0-tuned"), List.of("4.9.0-tuned", "4.9.0-patched", "4.9.0-tuned#2"))) {
            EfficiencyResults r = curveWithAnAaVariant(order, 3);
            EfficiencySummary.summarize(r, null);
            EfficiencyResults.CellResult head = r.cells.stream().filter(c -> c.headline).findFirst().orElseThrow();
            assertEquals(5000.0, head.rateMsgPerS);
            assertFalse(head.pinned, order + ": patched saves less unpinned, whatever the A/A copy does there");
        }
    }

    @Test
    void aVariantWithoutAnyUsablePairIsNamedAsHavingNoFigure() {
        EfficiencyResults r = run();
        // A machine too busy for the rate: every measured window of the baseline misses it, so no pair is usable.
        for (Window w : r.windows) {
            if (Window.MEASURE.equals(w.phase) && w.variant.equals("4.9.0-tuned")) {
                w.storedMsgPerS = 1200.0;
                w.heldRate = false;
                w.otherCpuCores = 1.4;
            }
        }
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        assertEquals(0, r.variants.get(1).brokerCpuUsPerMsg.windows);
        List<String> warnings = EfficiencyWarnings.of(r);
        for (String name : List.of("4.9.0-tuned", "4.9.0-patched")) {
            assertTrue(warnings.stream().anyMatch(w -> w.startsWith(name + ": " + EfficiencyWarnings.TOO_BUSY + " at 5,000 msg/s")
                && w.contains("so it has no figure")), warnings.toString());
        }
        assertTrue(warnings.stream().anyMatch(w -> w.contains("used up to 1.40 cores")), warnings.toString());
    }

    @Test
    void outsideLoadInAnyCellIsWarnedOfNotOnlyInTheHeadlineCell() {
        EfficiencyResults r = curveWithAnAaVariant(List.of("4.9.0-tuned", "4.9.0-tuned#2", "4.9.0-patched"), 6);
        r.windows.stream().filter(w -> w.pinned && w.targetRateMsgPerS == 7500).findFirst().orElseThrow().otherCpuCores = 0.5;
        EfficiencySummary.summarize(r, null);
        List<String> warnings = EfficiencyWarnings.of(r);
        assertTrue(warnings.contains("1 of 108 measured windows (all cells) had processes outside the run using more than 0.2 cores, at "
            + "most 0.50: the machine was not quiet throughout"), warnings.toString());
    }

    @Test
    void summarizeRebuildsAFolderFromItsWindowsAndKeepsTheCellsLatency() throws Exception {
        EfficiencyResults r = curveWithAnAaVariant(List.of("4.9.0-tuned", "4.9.0-tuned#2", "4.9.0-patched"), 4);
        r.metadata.put("mode", "efficiency");
        EfficiencySummary.summarize(r, null);
        // What an older build wrote: the pinned cell as the headline, a stale warning of its summary.
        EfficiencyResults.CellResult pinned = r.cells.stream().filter(c -> c.rateMsgPerS == 5000.0 && c.pinned).findFirst().orElseThrow();
        r.cells.forEach(c -> c.headline = c == pinned);
        for (int i = 0; i < r.variants.size(); i++) {
            r.variants.set(i, pinned.variants.get(i));
        }
        r.variants.get(0).windowsNotUsable = 7;
        r.warnings.addAll(EfficiencyWarnings.of(r));
        long latencyCount = pinned.variants.get(2).latencyMs.count;
        dev.rmqpatch.bench.report.ResultsFile.write(dir.resolve("results.json"), r);
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();

        Resummary.rewrite(dir, new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));

        EfficiencyResults again = dev.rmqpatch.bench.protocol.Json.GSON.fromJson(Files.readString(dir.resolve("results.json")),
            EfficiencyResults.class);
        EfficiencyResults.CellResult head = again.cells.stream().filter(c -> c.headline).findFirst().orElseThrow();
        assertFalse(head.pinned, "the headline chosen anew");
        assertEquals(0.8, again.variants.get(2).brokerCpuUsPerMsg.ratio, 0.02, "top-level figures from the new headline");
        assertEquals(latencyCount, again.cells.stream().filter(c -> c.pinned && c.rateMsgPerS == 5000.0).findFirst().orElseThrow()
            .variants.get(2).latencyMs.count, "each cell's merged latency carried over");
        assertTrue(again.variants.get(2).latencyMs.count > 0);
        assertEquals(r.windows.size(), again.windows.size());
        assertTrue(again.warnings.stream().noneMatch(w -> w.contains("7 measured window(s)")), "the stale warning went: " + again.warnings);
        assertTrue(again.metadata.containsKey("resummarized"));
        assertTrue(Files.readString(dir.resolve("table.txt")).contains("headline: 5,000 msg/s unpinned"));
        assertTrue(Files.size(dir.resolve("chart.png")) > 1000, printed.toString());
    }

    @Test
    void everyRateAndPlacementIsACellOfItsOwnAndTheHeadlineIsTheLessFavourablePlacementAtTheCheckedRate() throws Exception {
        EfficiencyResults r = run();
        r.windows.clear();
        r.probe.saturatedMsgPerS.put("4.9.0-tuned", 10000.0);
        r.probe.saturatedMsgPerS.put("4.9.0-patched", 14000.0);
        Random random = new Random(5);
        int index = 0;
        int pair = 0;
        // Patched saves 30% pinned, 15% split and 20% unpinned, at every rate; 8 pairs per cell.
        Map<Placement, Double> saving = Map.of(Placement.PINNED, 0.7, Placement.SPLIT, 0.85, Placement.UNPINNED, 0.8);
        for (double rate : new double[] {2500, 5000, 7500}) {
            for (Placement placement : List.of(Placement.UNPINNED, Placement.SPLIT, Placement.PINNED)) {
                for (int p = 0; p < 8; p++) {
                    pair++;
                    for (String v : List.of("4.9.0-tuned", "4.9.0-patched")) {
                        double cpu = 80 * (v.endsWith("patched") ? saving.get(placement) : 1.0) * Math.exp(0.02 * random.nextGaussian());
                        Window w = window(++index, Window.MEASURE, pair, v, cpu, rate, rate);
                        w.placement = placement.label;
                        w.pinned = placement == Placement.PINNED;
                        r.windows.add(w);
                    }
                }
            }
        }
        EfficiencySummary.summarize(r, null);
        assertEquals(9, r.cells.size());
        assertEquals(List.of(2500.0, 2500.0, 2500.0, 5000.0, 5000.0, 5000.0, 7500.0, 7500.0, 7500.0),
            r.cells.stream().map(c -> c.rateMsgPerS).toList());
        assertEquals(List.of("pinned", "split", "unpinned", "pinned", "split", "unpinned", "pinned", "split", "unpinned"),
            r.cells.stream().map(c -> c.placement).toList());
        assertEquals(List.of(true, false, false, true, false, false, true, false, false), r.cells.stream().map(c -> c.pinned).toList());
        assertEquals(25.0, r.cells.get(0).percentOfSaturation);
        EfficiencyResults.CellResult head = r.cells.stream().filter(c -> c.headline).findFirst().orElseThrow();
        assertEquals(5000.0, head.rateMsgPerS, "the checked rate");
        assertEquals("split", head.placement, "split saves least here: the less favourable placement is the headline");
        assertEquals(1, r.cells.stream().filter(c -> c.headline).count());
        for (EfficiencyResults.CellResult c : r.cells) {
            assertEquals(8, c.pairsMeasured);
            assertEquals(saving.get(Placement.ofLabel(c.placement)), c.variants.get(1).brokerCpuUsPerMsg.ratio, 0.02,
                c.rateMsgPerS + " " + c.placement);
        }
        assertEquals(0.85, r.variants.get(1).brokerCpuUsPerMsg.ratio, 0.02, "the top-level figures are the headline cell's");
        assertEquals(8, r.pairsMeasured);
        assertFalse(r.pinning.applied);
        assertEquals("split", r.pinning.placement);
        String table = EfficiencyTable.render(r);
        assertTrue(table.contains("every cell") && table.contains("5,000 *") && table.contains("headline: 5,000 msg/s split"), table);
        // Every cell's every variant carries its merged p50/p99/p99.9 (windows of 0.9 and 1.5 ms) beside its CPU figure, in
        // results.json and in both tables: 2 rows of the headline table and 9 cells x 2 variants.
        for (EfficiencyResults.CellResult c : r.cells) {
            for (EfficiencyResults.VariantResult v : c.variants) {
                assertEquals(1.5, v.latencyMs.p999, 0.01, c.rateMsgPerS + " " + c.placement + " " + v.name);
            }
        }
        String cells = table.substring(table.indexOf("\nevery cell (*") + 1);
        assertTrue(cells.lines().skip(1).findFirst().orElseThrow().contains("p50/p99/p99.9 ms"), cells);
        assertEquals(18, cells.split("0\\.900/1\\.50/1\\.50", -1).length - 1, cells);
        assertEquals(20, table.split("0\\.900/1\\.50/1\\.50", -1).length - 1, table);
        EfficiencyChart.write(r, dir.resolve("curve.png"));
        assertTrue(Files.size(dir.resolve("curve.png")) > 1000);
    }

    @Test
    void theSplitLineNamesEachBrokersPlacedThreadsAndABrokerWithoutNamedThreadsIsWarnedAbout() {
        EfficiencyResults.Split split = PlacementRecord.planned(PinMode.ALL,
            SplitPlan.forCpus(List.of(0, 1)));
        assertEquals(List.of(0), split.ioCpus);
        assertEquals(List.of(1), split.sendCpus);
        for (String v : List.of("4.9.0-tuned", "4.9.0-patched@8")) {
            EfficiencyResults.SplitBroker b = new EfficiencyResults.SplitBroker();
            b.variant = v;
            boolean named = v.equals("4.9.0-tuned");
            b.groups.put("netty-io", named ? 3 : 0);
            b.groups.put("netty-codec", named ? 8 : 0);
            b.groups.put("send", named ? 2 : 0);
            b.groups.put("rest", named ? 90 : 120);
            split.brokers.add(b);
        }
        String line = EfficiencyTable.split(split);
        assertTrue(line.startsWith("split: per broker: netty IO and codec threads on CPU 0, send threads on CPU 1")
            && line.contains("read back from /proc): 4.9.0-tuned netty-io 3, netty-codec 8, send 2, rest 90; 4.9.0-patched@8"), line);
        List<String> warnings = PlacementRecord.warnings(split);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("4.9.0-patched@8: the split placement found 0 netty IO and 0 send thread(s)"), warnings.get(0));
        assertNull(PlacementRecord.planned(PinMode.BOTH, SplitPlan.forCpus(List.of(0, 1))),
            "no split object without a split placement");
        assertTrue(EfficiencyTable.split(PlacementRecord.planned(PinMode.SPLIT,
            SplitPlan.forCpus(List.of(0)))).contains("only CPU 0"));
    }

    @Test
    void cellsTakeTurnsWithRatesRotatingAndPlacementsAlternating() {
        List<Cell> cells = List.of(new Cell(1, Placement.PINNED), new Cell(1, Placement.UNPINNED), new Cell(2, Placement.PINNED),
            new Cell(2, Placement.UNPINNED));
        List<String> r0 = new ArrayList<>();
        CellSchedule.round(cells, 0).forEach(c -> r0.add(c.label()));
        assertEquals(List.of("1 msg/s pinned", "2 msg/s pinned", "1 msg/s unpinned", "2 msg/s unpinned"), r0);
        List<String> r1 = new ArrayList<>();
        CellSchedule.round(cells, 1).forEach(c -> r1.add(c.label()));
        assertEquals(List.of("2 msg/s unpinned", "1 msg/s unpinned", "2 msg/s pinned", "1 msg/s pinned"), r1);
        // Three placements rotate as the rates do: each leads one round in three.
        List<Cell> three = List.of(new Cell(1, Placement.UNPINNED), new Cell(1, Placement.SPLIT), new Cell(1, Placement.PINNED));
        List<String> leads = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            List<String> order = new ArrayList<>();
            CellSchedule.round(three, round).forEach(c -> order.add(c.placement.label));
            leads.add(String.join(" ", order));
        }
        assertEquals(List.of("pinned split unpinned", "split unpinned pinned", "unpinned pinned split"), leads);
        assertEquals(List.of(1200.0, 2400.0, 3600.0), RateProbe.curve(2400, List.of(25.0, 50.0, 75.0)));
        assertEquals(List.of(2400.0), RateProbe.curve(2400, List.of(50.0)));
    }

    @Test
    void tableAndChartShowTheRatioTheIntervalAndTheLeftOutWindows() throws Exception {
        EfficiencyResults r = run();
        r.probe.saturatedMsgPerS.put("4.9.0-tuned", 16000.0);
        r.probe.saturatedMsgPerS.put("4.9.0-patched", 17000.0);
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        r.warnings.addAll(EfficiencyWarnings.of(r));
        String table = EfficiencyTable.render(r);
        assertTrue(table.contains("at a fixed 5,000 msg/s (probe), 30 measured pair(s) of 5 s windows"), table);
        for (EfficiencyResults.VariantResult v : r.variants) {
            String row = table.lines().filter(l -> l.startsWith(v.name + " ")).findFirst().orElseThrow();
            assertTrue(row.contains("0.900/1.50/1.50"), "p50/p99/p99.9 in the row of the CPU figure: " + row);
        }
        assertTrue(table.contains("p50/p99/p99.9 ms: send latency of the agents' acknowledged sends"), table);
        assertTrue(table.contains("x 4.9.0-tuned") && table.contains("95% CI") && table.contains("resolved"), table);
        assertTrue(table.contains("#13 (pair 7, 4.9.0-tuned): missed the rate"), table);
        assertTrue(table.contains("bootstrap check 4.9.0-patched"), table);
        assertTrue(table.contains("WARNING: 4.9.0-tuned: 1 measured window(s)"), table);
        Path png = dir.resolve("chart.png");
        EfficiencyChart.write(r, png);
        assertTrue(Files.size(png) > 1000);
    }

    @Test
    void theWholeMachinesCpuPerMessageIsReportedLastWithItsOwnRatioAndNoneForRemoteBrokers() {
        // The pair 30% cheaper patched; the machine adds 60 us/msg of agents and kernel to both: its ratio is nearer 1.
        EfficiencyResults r = pairRun(7, 0.70, 0.70);
        Random random = new Random(8);
        for (Window w : r.windows) {
            w.machineCpuUsPerMsg = w.pairCpuUsPerMsg + 60 * Math.exp(0.02 * random.nextGaussian());
        }
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        EfficiencyResults.VariantResult patched = r.variants.get(1);
        assertEquals(0.70, patched.pairCpuUsPerMsg.ratio, 0.02);
        assertEquals((120 * 0.70 + 60) / 180, patched.machineCpuUsPerMsg.ratio, 0.02);
        assertEquals(EfficiencySummary.RESOLVED, patched.machineCpuUsPerMsg.verdict);
        assertEquals(180, r.variants.get(0).machineCpuUsPerMsg.median, 9);
        String table = EfficiencyTable.render(r);
        String header = table.lines().filter(l -> l.startsWith("variant")).findFirst().orElseThrow();
        assertTrue(header.indexOf("slave us/msg") < header.indexOf("machine us/msg"), header);
        assertTrue(table.contains("machine us/msg: this machine's CPUs, time not idle"), table);
        String patchedRow = table.lines().filter(l -> l.startsWith("4.9.0-patched")).findFirst().orElseThrow();
        assertTrue(patchedRow.contains(String.format(java.util.Locale.ROOT, "%.3f", patched.machineCpuUsPerMsg.ratio)), patchedRow);

        for (Window w : r.windows) {
            w.machineCpuUsPerMsg = null;  // remote brokers: this machine says nothing about their hosts
        }
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        assertNull(r.variants.get(1).machineCpuUsPerMsg);
        assertEquals(0.70, r.variants.get(1).pairCpuUsPerMsg.ratio, 0.02, "the main figure does not need the machine's");
        assertTrue(EfficiencyTable.render(r).contains("machine us/msg"), "the column stays, with - in the rows");
    }

    /** An ms-sync run: master 80 and slave 40 us/msg on the baseline, times the factors on the patched variant, 2% noise. */
    private static EfficiencyResults pairRun(long seed, double master, double slave) {
        EfficiencyResults r = run();
        r.mainFigure = CpuMeasure.PAIR.name();
        Random random = new Random(seed);
        for (Window w : r.windows) {
            boolean patched = w.variant.endsWith("patched");
            w.brokerCpuUsPerMsg = 80 * (patched ? master : 1.0) * Math.exp(0.02 * random.nextGaussian());
            w.slaveCpuUsPerMsg = 40 * (patched ? slave : 1.0) * Math.exp(0.02 * random.nextGaussian());
            w.pairCpuUsPerMsg = w.brokerCpuUsPerMsg + w.slaveCpuUsPerMsg;
        }
        return r;
    }

    @Test
    void msSyncsMainFigureIsThePairMasterPlusSlaveWithTheMastersAndTheSlavesBesideIt() throws Exception {
        // The patched master 20% cheaper, its slave 5% dearer: the pair's ratio lies between, weighted by their costs.
        EfficiencyResults r = pairRun(5, 0.80, 1.05);
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        EfficiencyResults.VariantResult patched = r.variants.get(1);
        assertEquals(0.80, patched.brokerCpuUsPerMsg.ratio, 0.02);
        assertEquals(1.05, patched.slaveCpuUsPerMsg.ratio, 0.02);
        assertEquals((80 * 0.80 + 40 * 1.05) / 120, patched.pairCpuUsPerMsg.ratio, 0.02);
        assertEquals(29, patched.pairCpuUsPerMsg.pairs);
        assertTrue(patched.pairCpuUsPerMsg.ratioCi95[1] < 0.92, "the pair's interval excludes the master-only figure's neighbourhood of 1.0");
        assertEquals(EfficiencySummary.RESOLVED, patched.slaveCpuUsPerMsg.verdict);
        assertNull(r.variants.get(0).pairCpuUsPerMsg.ratio);
        assertEquals(120, r.variants.get(0).pairCpuUsPerMsg.median, 6);

        String table = EfficiencyTable.render(r);
        String header = table.lines().filter(l -> l.startsWith("variant")).findFirst().orElseThrow();
        assertTrue(header.indexOf("pair us/msg") < header.indexOf("broker us/msg") && header.indexOf("broker us/msg") < header.indexOf("slave us/msg"),
            header);
        assertTrue(table.contains("pair us/msg: SYNC_MASTER + SLAVE JVMs together"), table);
        assertTrue(table.startsWith("efficiency: SYNC_MASTER + SLAVE CPU per message"), table);
        String patchedRow = table.lines().filter(l -> l.startsWith("4.9.0-patched")).findFirst().orElseThrow();
        assertTrue(patchedRow.contains(String.format(java.util.Locale.ROOT, "%.3f", patched.pairCpuUsPerMsg.ratio)), patchedRow);
        assertTrue(patchedRow.contains(String.format(java.util.Locale.ROOT, "%.3f", patched.slaveCpuUsPerMsg.ratio)), patchedRow);
        EfficiencyChart.write(r, dir.resolve("ms.png"));
        assertTrue(Files.size(dir.resolve("ms.png")) > 1000);

        r.mainFigure = null;
        EfficiencySummary.summarize(r, Placement.UNPINNED);
        assertEquals(0.80, r.variants.get(1).brokerCpuUsPerMsg.ratio, 0.02, "single topology: the broker's figure");
        assertNull(r.variants.get(1).pairCpuUsPerMsg);
    }

    @Test
    void theOrderAlternatesForwardsAndBackwards() {
        assertEquals(List.of(0, 1), WindowOrder.of(0, 2));
        assertEquals(List.of(1, 0), WindowOrder.of(1, 2));
        assertEquals(List.of(0, 1, 2), WindowOrder.of(2, 3));
        assertEquals(List.of(2, 1, 0), WindowOrder.of(3, 3));
    }

    @Test
    void rateProbeTakesHalfTheSlowestAndStepsDownByAQuarter() {
        assertEquals(8200, RateProbe.initialRate(List.of(16_430.0, 17_100.0)));
        assertEquals(6000, RateProbe.stepDown(8000));
        assertEquals(RateProbe.MIN_RATE, RateProbe.stepDown(120));
        Window ok = window(1, Window.RATE_CHECK, 1, "a", 60, 8000, 8000);
        Window missed = window(2, Window.RATE_CHECK, 1, "b", 60, 8000, 7000);
        assertTrue(RateProbe.ok(List.of(ok)));
        assertFalse(RateProbe.ok(List.of(ok, missed)));
        Histogram slow = Histograms.create();
        slow.recordValue(9_000);
        ok.latencyMs = LatencySummary.of(slow);
        assertFalse(RateProbe.ok(List.of(ok)), "p99 above the limit");
    }
}
