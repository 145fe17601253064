package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/failover.sh as a user runs it, as short as it goes: one round of stock (tuned) and patched 4.9.0, each a fresh
 * name server and two masters with the stall agent on broker-a, 15 s measured. It wrote the tables, results.json,
 * chart.png and every run's sends.csv; every acknowledged send was read back; the agent was on broker-a only. Nothing
 * about timings (2 shared cores): not even how many stalls fell into the window.
 */
@Timeout(170)
class FailoverScriptIT {
    @TempDir
    Path dir;

    @Test
    void aShortRunWritesItsFilesAndLosesNothingAcknowledged() throws Exception {
        Dists.stock();
        Dists.patched();
        Path out = dir.resolve("failover");
        Path log = dir.resolve("failover.log");
        List<String> command = new ArrayList<>(List.of(Dists.repoRoot().resolve("scripts/failover.sh").toString(), "--no-build",
            "--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "1", "--latency-fault", "on", "--warmup", "3", "--duration", "15",
            "--producers", "2", "--rate", "200", "--broker-heap", "512m", "--stall", "append:200/1000", "--out", out.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(p.waitFor(160, TimeUnit.SECONDS), "failover.sh finished");
        } finally {
            p.destroyForcibly();
        }
        String printed = Files.readString(log);
        assertEquals(0, p.exitValue(), printed);

        for (String file : List.of("results.json", "table.txt", "chart.png")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file + "\n" + printed);
        }
        assertTrue(printed.contains("time to move med/max ms") && printed.contains("p50/p99/p99.9 ms"), printed);
        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertTrue(results.get("error") == null || results.get("error").isJsonNull(), printed);
        assertEquals(2, results.getAsJsonArray("runs").size());
        assertEquals(2, results.getAsJsonArray("summary").size());
        for (JsonElement e : results.getAsJsonArray("runs")) {
            JsonObject run = e.getAsJsonObject();
            JsonObject f = run.getAsJsonObject("figures");
            assertTrue(f.get("sends").getAsLong() > 0, run.toString());
            assertTrue(f.get("acked").getAsLong() > 0, run.toString());
            assertEquals(0, f.get("missing").getAsLong(), "every acknowledged send read back: " + run.get("variant"));
            assertEquals(f.get("sends").getAsLong(), f.getAsJsonObject("outcomes").entrySet().stream()
                .mapToLong(o -> o.getValue().getAsLong()).sum(), "every send has an outcome");
            Path runDir = out.resolve(run.get("folder").getAsString());
            assertTrue(Files.readAllLines(runDir.resolve("sends.csv")).size() > 1, runDir.toString());
            assertTrue(Files.readString(runDir.resolve("broker.out")).contains("[rmqpatch-stall] armed: point=append,millis=200"),
                "the stall agent on broker-a");
            assertFalse(Files.readString(runDir.resolve("broker-b.out")).contains("[rmqpatch-stall]"), "and not on broker-b");
        }
    }
}
