package dev.rmqpatch.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.report.ResultsFile;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rounds run-distributed.sh --variants runs on other hosts: their order, and their merge with compare's statistics. */
class SaturationRoundsTest {
    private static final List<String> AB = List.of("4.9.0-tuned", "4.9.0-patched");

    @TempDir
    Path dir;

    @Test
    void everyRoundRunsEachVariantOnceInTheGivenOrder() {
        assertEquals("[1 4.9.0-tuned, 1 4.9.0-patched, 2 4.9.0-tuned, 2 4.9.0-patched, 3 4.9.0-tuned, 3 4.9.0-patched]",
            SaturationRounds.schedule(AB, 3).toString());
        assertEquals("runs/2-4.9.0-tuned#2", new SaturationRounds.Run(2, "4.9.0-tuned#2").folder());
        assertEquals(List.of(new SaturationRounds.Run(1, "a"), new SaturationRounds.Run(2, "a")), SaturationRounds.schedule(List.of("a"), 2),
            "one variant (compare --variants A) runs its rounds");
        assertThrows(IllegalArgumentException.class, () -> SaturationRounds.schedule(AB, 0));
        assertThrows(IllegalArgumentException.class, () -> SaturationRounds.schedule(List.of(), 1));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
            () -> SaturationRounds.schedule(List.of("4.9.0-tuned", "4.9.0-tuned"), 2));
        assertTrue(twice.getMessage().contains("NAME#2"), twice.getMessage());
    }

    @Test
    void roundsOnHostsMergeIntoOneComparisonWithRatiosAndTheSpreadVerdict() throws Exception {
        // Interleaved: tuned 10,000 and 11,000 msg/s, patched 12,000 and 13,200: ratio of medians 12,600 / 10,500 = 1.2.
        round(1, "4.9.0-tuned", run(10_000, 50, 1_000));
        round(1, "4.9.0-patched", run(12_000, 40, 800));
        round(2, "4.9.0-tuned", run(11_000, 52, 1_000));
        round(2, "4.9.0-patched", run(13_200, 41, 800));
        Files.writeString(dir.resolve("runs/2-4.9.0-patched/replication.txt"), "broker-m-0@4.9.0-patched 1 5000 4000 1000\n");
        Files.writeString(dir.resolve("runs/1-4.9.0-tuned/replication.txt"), "broker-m-0@4.9.0-tuned 1 5000 5000 0\n");

        CompareResults r = SaturationRounds.merge(dir, AB, "4.9.0-tuned", 2, "scripts/run-distributed.sh -c c.conf --variants A,B", false);
        assertEquals("ok", r.status);
        assertNull(r.error);
        assertEquals("saturation", r.mode);
        assertEquals(2, r.variants.size());
        CompareResults.VariantResult tuned = r.variants.get(0);
        CompareResults.VariantResult patched = r.variants.get(1);
        assertEquals("4.9.0-patched", patched.name);
        assertEquals("rocketmq-4.9.0-patched", patched.distribution);
        assertEquals(2, tuned.rounds.size());
        assertEquals(2, patched.rounds.size());
        assertEquals(List.of(1, 2), patched.rounds.stream().map(x -> x.round).toList());
        assertEquals("runs/2-4.9.0-patched/results.json", patched.rounds.get(1).resultFile);
        assertEquals(10_500.0, tuned.tps.median);
        assertEquals(1.2, patched.ratioToBaseline.get("tps"), 1e-9);
        assertEquals(40.5 / 51.0, patched.ratioToBaseline.get("brokerCpuUsPerMsg"), 1e-9);
        assertEquals(0.8, patched.ratioToBaseline.get("p99"), 0.01, "merged histograms: 0.8 ms against 1.0 ms");
        assertFalse(patched.rangeOverlapsBaseline.get("tps"), "10,000-11,000 against 12,000-13,200");
        assertEquals(2, r.metadata.get("rounds"));
        assertEquals(4, r.metadata.get("roundsDone"));
        assertEquals(SaturationRounds.ORDER, r.metadata.get("order"));
        assertEquals("ms-sync", r.metadata.get("topology"));
        assertEquals(2, r.metadata.get("agents"));
        assertEquals("10.0.0.1:9876", ((Map<?, ?>) ((Map<?, ?>) r.metadata.get("variants")).get("4.9.0-tuned")).get("namesrv"));
        assertEquals(1, r.warnings.size(), "no 'machine not quiet' warning from the coordinator's host: " + r.warnings);
        assertNull(tuned.otherCpuCores.max);
        assertTrue(r.warnings.get(0).startsWith("4.9.0-patched round 2: slave broker-m-0@4.9.0-patched/1 was 1000 bytes behind"),
            r.warnings.get(0));

        String table = SaturationRounds.table(r);
        assertTrue(table.contains("medians over 2 interleaved round(s)"), table);
        assertTrue(table.contains("4.9.0-patched vs 4.9.0-tuned: msg/s 1.20x (outside the spread)"), table);
        assertTrue(table.contains("topology ms-sync"), table);
        ChartWriter.write(r, dir.resolve("chart.png"));
        assertTrue(Files.size(dir.resolve("chart.png")) > 1000);
    }

    @Test
    void aMissingOrFailedRoundEndsTheMergeThere() throws Exception {
        round(1, "4.9.0-tuned", run(10_000, 50, 1_000));
        round(1, "4.9.0-patched", run(12_000, 40, 800));
        round(2, "4.9.0-patched", run(12_000, 40, 800));
        CompareResults running = SaturationRounds.merge(dir, AB, "4.9.0-tuned", 2, null, true);
        assertEquals("running", running.status);
        assertNull(running.error);
        assertEquals(1, running.variants.get(1).rounds.size(), "round 2 of patched comes after the gap: left out");
        assertEquals(1.2, running.variants.get(1).ratioToBaseline.get("tps"), 1e-9);

        CompareResults ended = SaturationRounds.merge(dir, AB, "4.9.0-tuned", 2, null, false);
        assertEquals("failed", ended.status);
        assertTrue(ended.error.startsWith("round 2 of 4.9.0-tuned has no results (runs/2-4.9.0-tuned/results.json): 2 of 4 runs done"),
            ended.error);

        RunResult failed = run(9_000, 50, 1_000);
        failed.status = "failed";
        failed.error = "agent-1 stopped answering";
        round(2, "4.9.0-tuned", failed);
        CompareResults withFailure = SaturationRounds.merge(dir, AB, "4.9.0-tuned", 2, null, false);
        assertEquals("failed", withFailure.status);
        assertEquals("round 2 of 4.9.0-tuned failed: agent-1 stopped answering", withFailure.error);
        assertEquals(2, withFailure.variants.get(0).rounds.size(), "the failed round is kept, with its status");
        assertEquals("failed", withFailure.variants.get(0).rounds.get(1).status);
    }

    @Test
    void aFileThatIsNotBenchRunsOutputOrABaselineOutsideTheVariantsIsRefused() throws Exception {
        Files.createDirectories(dir.resolve("runs/1-4.9.0-tuned"));
        Files.writeString(dir.resolve("runs/1-4.9.0-tuned/results.json"), "{\"mode\": \"saturation\"}");
        assertThrows(IllegalArgumentException.class, () -> SaturationRounds.merge(dir, AB, "4.9.0-tuned", 1, null, false));
        assertThrows(IllegalArgumentException.class, () -> SaturationRounds.merge(dir, AB, "4.9.1", 1, null, false));
    }

    /** bench run's results.json in the round's folder. */
    private void round(int round, String variant, RunResult r) throws Exception {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("command", "bench run --namesrv 10.0.0.1:9876 (round " + round + ")");
        file.put("machine", Map.of("cores", 2));
        file.put("result", r);
        ResultsFile.write(dir.resolve(new SaturationRounds.Run(round, variant).folder()).resolve("results.json"), file);
    }

    private static RunResult run(double tps, double cpu, long latencyMicros) {
        RunResult r = new RunResult();
        r.status = "ok";
        r.tps = tps;
        r.namesrv = "10.0.0.1:9876";
        r.startedAt = "2026-11-26T05:00:00Z";
        r.clientMode = "rocketmq";
        r.workload = new RunResult.WorkloadView();
        r.workload.messageSize = 300;
        Histogram h = Histograms.create();
        for (int i = 0; i < 100; i++) {
            h.recordValue(latencyMicros);
        }
        r.latencyMs = LatencySummary.of(h);
        r.latencyHistogram = Histograms.encode(h);
        r.broker = new BrokerFigures();
        r.broker.cpuUsPerMsg = cpu;
        r.broker.storedBytesPerMsg = 350.0;
        r.broker.gcPauseMillis = 5.0;
        r.broker.otherCores = 1.5;
        r.counts = new Counts();
        r.agents.add(new RunResult.AgentView());
        r.agents.add(new RunResult.AgentView());
        return r;
    }
}
