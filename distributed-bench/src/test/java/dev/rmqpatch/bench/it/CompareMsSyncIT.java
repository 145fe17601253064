package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.RunsAlone;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/compare.sh --topology ms-sync with real brokers: a SYNC_MASTER and its SLAVE, one short round. What must hold
 * is replication, not speed: after the round the slave's CommitLog ends where the master's does.
 */
@RunsAlone
@Timeout(180)
class CompareMsSyncIT {
    @TempDir
    Path dir;

    @Test
    void slaveEndsTheRoundAtTheMastersOffset() throws Exception {
        Dists.patched();
        Path out = dir.resolve("cmp");
        Path log = dir.resolve("compare.log");
        String printed = CompareScript.run(log, 150, "--topology", "ms-sync", "--variants", "4.9.0-patched", "--rounds", "1", "--warmup",
            "1", "--duration", "2", "--threads", "4", "--broker-heap", "512m", "--no-sink", "--out", out.toString());

        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", results.get("status").getAsString(), printed);
        assertEquals("ms-sync", results.getAsJsonObject("metadata").get("topology").getAsString());
        // Other load on a shared CI machine is reported as a warning too; it says nothing about replication.
        for (var w : results.getAsJsonArray("warnings")) {
            assertTrue(w.getAsString().contains("the machine was not quiet"), results.getAsJsonArray("warnings").toString());
        }
        JsonObject round = results.getAsJsonArray("variants").get(0).getAsJsonObject().getAsJsonArray("rounds").get(0).getAsJsonObject();
        Path roundDir = out.resolve(round.get("resultFile").getAsString()).getParent();

        JsonObject replication = JsonParser.parseString(Files.readString(roundDir.resolve("result.json"))).getAsJsonObject()
            .getAsJsonObject("replication");
        long master = replication.get("masterCommitLogMaxOffset").getAsLong();
        long slave = replication.get("slaveCommitLogMaxOffset").getAsLong();
        assertTrue(master > 0, "the master stored the round's messages: " + replication);
        assertEquals(master, slave, "SYNC_MASTER acknowledged only replicated messages: " + replication);
        assertEquals(master, round.get("masterCommitLogMaxOffset").getAsLong());
        assertEquals(slave, round.get("slaveCommitLogMaxOffset").getAsLong());
        assertTrue(round.get("failedSends").getAsLong() == 0, round.toString());

        // The pair really was a SYNC_MASTER and its SLAVE, and both were stopped with their stores removed.
        assertTrue(Files.readString(roundDir.resolve("broker.conf")).contains("brokerRole=SYNC_MASTER"));
        assertTrue(Files.readString(roundDir.resolve("broker-slave.conf")).contains("brokerRole=SLAVE"));
        assertFalse(Files.exists(roundDir.resolve("store")), "master store deleted");
        assertFalse(Files.exists(roundDir.resolve("store-slave")), "slave store deleted");
        String runDir = out.toString();
        List<ProcessHandle> left = ProcessHandle.allProcesses()
            .filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains(runDir)).orElse(false)).toList();
        assertTrue(left.isEmpty(), "processes of the run still alive: " + left);
        assertTrue(Files.readString(out.resolve("table.txt")).contains("topology ms-sync"));
    }
}
