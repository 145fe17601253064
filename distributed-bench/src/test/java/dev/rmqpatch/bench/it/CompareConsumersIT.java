package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * scripts/compare.sh producing and consuming at once, tuned against patched in the article's topology (SYNC_MASTER
 * and SLAVE), one very short round each: consume msg/s, end-to-end latency and the count check per variant in
 * results.json and the table.
 */
@RunsAlone
@Timeout(300)
class CompareConsumersIT {
    @TempDir
    Path dir;

    @Test
    void mixedRunReportsConsumeRateEndToEndLatencyAndNothingMissing() throws Exception {
        Dists.patched();
        Dists.stock();
        Path out = dir.resolve("cmp");
        Path log = dir.resolve("compare.log");
        String printed = CompareScript.run(log, 270, "--topology", "ms-sync", "--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "1",
            "--warmup", "2", "--duration", "3", "--threads", "4", "--rate", "2000", "--consumers", "2", "--broker-heap", "512m",
            "--no-sink", "--out", out.toString());

        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", results.get("status").getAsString(), printed);
        JsonObject workload = results.getAsJsonObject("metadata").getAsJsonObject("workload");
        assertEquals(1, workload.get("subscriptionsPerTopic").getAsInt());
        assertEquals(2, workload.get("consumerPerSubscription").getAsInt());
        assertEquals(2, results.getAsJsonArray("variants").size());
        for (var element : results.getAsJsonArray("variants")) {
            JsonObject v = element.getAsJsonObject();
            String name = v.get("name").getAsString();
            JsonObject consume = v.getAsJsonObject("consumeTps");
            assertTrue(consume.get("median").getAsDouble() > 0, name + ": " + consume);
            assertEquals(1, consume.getAsJsonArray("rounds").size(), name);
            JsonObject e2e = v.getAsJsonObject("endToEndLatencyMs");
            for (String k : List.of("p50", "p99", "p999", "max", "mean", "count")) {
                assertTrue(e2e.has(k), name + " endToEndLatencyMs." + k + ": " + e2e);
            }
            assertTrue(e2e.get("p50").getAsDouble() > 0, name + ": " + e2e);
            assertEquals(0, v.get("missingMessages").getAsLong(), name + " lost messages: " + printed);
            assertTrue(v.get("duplicateMessages").getAsLong() >= 0);
            JsonObject round = v.getAsJsonArray("rounds").get(0).getAsJsonObject();
            JsonObject roundResult = JsonParser.parseString(Files.readString(out.resolve(round.get("resultFile").getAsString())))
                .getAsJsonObject();
            JsonObject delivery = roundResult.getAsJsonObject("delivery");
            assertEquals(roundResult.getAsJsonObject("totalCounts").get("acked").getAsLong(), delivery.get("acknowledged").getAsLong());
            assertEquals(1, delivery.getAsJsonArray("subscriptions").size());
            assertEquals(2, delivery.getAsJsonArray("subscriptions").get(0).getAsJsonObject().get("consumers").getAsInt());
            // ms-sync: the slave still ends where the master does with consumers pulling from the master.
            JsonObject replication = roundResult.getAsJsonObject("replication");
            assertEquals(replication.get("masterCommitLogMaxOffset").getAsLong(), replication.get("slaveCommitLogMaxOffset").getAsLong());
        }
        String table = Files.readString(out.resolve("table.txt"));
        assertTrue(table.contains("consume msg/s") && table.contains("e2e p50/p99/p99.9 ms") && table.contains("missing"), table);
        assertTrue(Files.size(out.resolve("chart.png")) > 0);
    }
}
