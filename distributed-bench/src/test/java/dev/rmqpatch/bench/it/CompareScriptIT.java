package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.RunsAlone;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CI smoke of the main job: scripts/compare.sh with a tiny duration, checking the documented results.json. */
@RunsAlone
@Timeout(400)
class CompareScriptIT {
    @TempDir
    Path dir;

    @Test
    void compareScriptWritesTheDocumentedResults() throws Exception {
        Dists.stock();
        Dists.patched();
        Path out = dir.resolve("cmp");
        Path log = dir.resolve("compare.log");
        String printed = CompareScript.run(log, 360, "--variants", "4.9.0,4.9.0-patched", "--rounds", "1", "--duration", "2", "--warmup",
            "1", "--threads", "4", "--broker-heap", "512m", "--out", out.toString());
        assertTrue(printed.contains("harness ceiling"), printed);
        assertTrue(Files.size(out.resolve("chart.png")) > 1000, "chart.png written");
        assertTrue(Files.readString(out.resolve("table.txt")).contains("4.9.0-patched"));

        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", results.get("status").getAsString());
        ResultKeys.assertSameAsSample("compare-results.keys", results, java.util.Set.of("4.9.0", "4.9.0-patched"));
        assertEquals("4.9.0", results.get("baseline").getAsString(), "first variant when 4.9.0-tuned is not compared");
        JsonArray variants = results.getAsJsonArray("variants");
        assertEquals(2, variants.size());
        double[] storedBytes = new double[2];
        for (int i = 0; i < 2; i++) {
            JsonObject v = variants.get(i).getAsJsonObject();
            assertEquals(i == 0 ? "4.9.0" : "4.9.0-patched", v.get("name").getAsString());
            JsonObject tps = v.getAsJsonObject("tps");
            for (String field : List.of("median", "min", "max")) {
                assertTrue(tps.get(field).getAsDouble() > 0, "tps." + field);
            }
            assertEquals(1, tps.getAsJsonArray("rounds").size());
            JsonObject latency = v.getAsJsonObject("latencyMs");
            for (String field : List.of("p50", "p99", "p999")) {
                assertTrue(latency.get(field).getAsDouble() > 0, "latencyMs." + field);
            }
            assertTrue(v.getAsJsonObject("brokerCpuUsPerMsg").get("median").getAsDouble() > 0);
            storedBytes[i] = v.getAsJsonObject("storedBytesPerMsg").get("median").getAsDouble();
            assertTrue(storedBytes[i] > 300, "stored bytes per message include the 300-byte body");
            assertTrue(v.getAsJsonObject("ratioToBaseline").has("tps"));
            assertEquals(1, v.getAsJsonArray("rounds").size());
            String roundFile = v.getAsJsonArray("rounds").get(0).getAsJsonObject().get("resultFile").getAsString();
            assertTrue(Files.isRegularFile(out.resolve(roundFile)), roundFile);
            Path omb = out.resolve(roundFile).resolveSibling("omb-result.json");
            JsonObject ombResult = JsonParser.parseString(Files.readString(omb)).getAsJsonObject();
            assertTrue(ombResult.has("publishRate") && ombResult.get("aggregatedPublishLatency99pct").getAsDouble() > 0,
                "each round in OMB's result format too: " + omb);
        }
        // The patched broker stores no WAIT property and no trailing separator: fewer bytes per message, exactly.
        assertTrue(storedBytes[1] < storedBytes[0], "patched " + storedBytes[1] + " vs stock " + storedBytes[0]);

        JsonObject meta = results.getAsJsonObject("metadata");
        assertTrue(meta.get("command").getAsString().startsWith("scripts/compare.sh"), meta.get("command").getAsString());
        assertTrue(meta.getAsJsonObject("machine").get("cpus").getAsInt() > 0);
        assertTrue(meta.getAsJsonObject("coordinatorJvm").has("version"));
        JsonObject patched = meta.getAsJsonObject("variants").getAsJsonObject("4.9.0-patched");
        assertTrue(patched.getAsJsonObject("jars").has("rocketmq-remoting-4.9.0.jar"));
        assertTrue(patched.getAsJsonObject("jars").has("all-lib-jars"));
        boolean opens = false;
        for (JsonElement arg : patched.getAsJsonArray("brokerCommandLine")) {
            opens |= arg.getAsString().contains("jdk.internal.ref");
        }
        assertTrue(opens, "the broker's JVM flags are recorded");
        assertTrue(results.getAsJsonObject("harnessCeiling").get("tps").getAsDouble() > 0);
    }
}
