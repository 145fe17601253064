package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.command.CompareCommand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.broker.Replication;
import dev.rmqpatch.cluster.Topology;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** --topology parsing, and how the ms-sync offsets and slave CPU reach the round results, warnings and table. */
class CompareTopologyTest {

    private static RunOptions parse(String... args) throws Exception {
        return CompareCommand.parse(args);
    }

    @Test
    void topologyDefaultsToSingleAndAcceptsMsSync() throws Exception {
        assertEquals(Topology.SINGLE, parse().topology);
        assertEquals(Topology.SINGLE, parse("--topology", "single").topology);
        assertEquals(Topology.MS_SYNC, parse("--topology", "ms-sync").topology);
        assertEquals(Topology.MS_SYNC, parse("--topology=ms-sync").topology);
    }

    @Test
    void badTopologyNamesTheAllowedValues() {
        UsageException e = assertThrows(UsageException.class, () -> parse("--topology", "dledger"));
        assertEquals("--topology must be one of single, ms-sync, not 'dledger'", e.getMessage());
        assertEquals("--topology must be one of single, ms-sync, not 'two-masters'",
            assertThrows(UsageException.class, () -> parse("--topology", "two-masters")).getMessage(), "failover.sh's topology only");
        assertTrue(assertThrows(UsageException.class, () -> parse("--topology")).getMessage().contains("needs a value"));
    }

    private static RunResult run(Long master, Long slave, Double slaveCpu) {
        RunResult r = new RunResult();
        r.status = "ok";
        r.tps = 1000.0;
        Histogram h = Histograms.create();
        h.recordValue(1500);
        r.latencyMs = LatencySummary.of(h);
        r.latencyHistogram = Histograms.encode(h);
        r.broker = new BrokerFigures();
        r.broker.gcPauseMillis = 10.0;
        r.broker.cpuUsPerMsg = 50.0;
        r.broker.storedBytesPerMsg = 493.0;
        if (master != null) {
            r.replication = new Replication();
            r.replication.masterCommitLogMaxOffset = master;
            r.replication.slaveCommitLogMaxOffset = slave;
            r.replication.slaveBehindBytes = master - slave;
            r.replication.slaveCpuUsPerMsg = slaveCpu;
        }
        return r;
    }

    @Test
    void msSyncOffsetsAndSlaveCpuReachRoundsWarningsAndTable() {
        CompareResults results = new CompareResults();
        results.baseline = "4.9.0-tuned";
        results.metadata.put("topology", Topology.MS_SYNC.label());
        results.metadata.put("topologyDescription", Topology.MS_SYNC.description());
        CompareResults.VariantResult v = new CompareResults.VariantResult();
        v.name = "4.9.0-tuned";
        List<RunResult> runs = List.of(run(4_930L, 4_930L, 12.0), run(9_860L, 4_930L, 14.0));
        for (int i = 0; i < runs.size(); i++) {
            v.rounds.add(Summarizer.round(i + 1, runs.get(i), "runs/x/result.json"));
        }
        Summarizer.summarize(v, runs);
        results.variants.add(v);
        Summarizer.relate(results.variants, results.baseline);

        assertEquals(4_930L, v.rounds.get(0).masterCommitLogMaxOffset);
        assertEquals(4_930L, v.rounds.get(0).slaveCommitLogMaxOffset);
        assertEquals(13.0, v.slaveCpuUsPerMsg.median);
        List<String> warnings = Summarizer.warnings(results);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("4.9.0-tuned round 2") && warnings.get(0).contains("4,930") && warnings.get(0).contains("9,860"),
            warnings.get(0));

        results.warnings = warnings;
        String table = CompareTable.render(results, 2);
        assertTrue(table.contains("topology ms-sync (one name server + a SYNC_MASTER and its SLAVE"), table);
        assertTrue(table.contains("broker us/msg is the master's; slave us/msg (median): 4.9.0-tuned 13.0"), table);
    }

    @Test
    void singleRoundsCarryNoReplicationFields() {
        CompareResults.RoundResult r = Summarizer.round(1, run(null, null, null), "f");
        assertNull(r.masterCommitLogMaxOffset);
        assertNull(r.slaveCommitLogMaxOffset);
        CompareResults.VariantResult v = new CompareResults.VariantResult();
        v.name = "4.9.0";
        v.rounds.add(r);
        Summarizer.summarize(v, List.of(run(null, null, null)));
        assertNull(v.slaveCpuUsPerMsg, "absent from results.json for a single broker");
    }
}
