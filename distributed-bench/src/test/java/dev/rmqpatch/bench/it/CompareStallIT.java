package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.RunsAlone;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/compare.sh --stall with a real broker, the tiniest saturation run that meets stalls: one round of the patched
 * variant, 200 ms append stalls every second from 11 s after the broker's start (10 s start-up allowance + 1 s warm-up).
 * The stalls took effect (the broker printed them and results.json has them, each on a named thread) and the run says so.
 */
@RunsAlone
@Timeout(180)
class CompareStallIT {
    @TempDir
    Path dir;

    @Test
    void stallsOfTheMasterAreInResultsJsonAndTheSummary() throws Exception {
        Dists.patched();
        Path out = dir.resolve("cmp");
        Path log = dir.resolve("compare.log");
        String printed = CompareScript.run(log, 150, "--variants", "4.9.0-patched", "--rounds", "1", "--warmup", "1", "--duration", "12",
            "--threads", "4", "--broker-heap", "512m", "--no-sink", "--stall", "append:200/1000", "--out", out.toString());

        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("ok", results.get("status").getAsString(), printed);
        JsonObject stalls = results.getAsJsonArray("variants").get(0).getAsJsonObject().getAsJsonObject("stalls");
        assertEquals("append:200/1000", stalls.get("plan").getAsString());
        assertEquals(11_000, stalls.get("afterMillis").getAsLong());
        int count = stalls.get("count").getAsInt();
        assertTrue(count >= 1, "the broker stalled under the round's load: " + stalls + "\n" + printed);
        assertEquals(count, stalls.getAsJsonArray("stalls").size());
        assertEquals(count, stalls.get("onIoThreads").getAsInt() + stalls.get("onSendExecutor").getAsInt()
            + stalls.get("onOtherThreads").getAsInt());
        for (JsonElement e : stalls.getAsJsonArray("stalls")) {
            JsonObject s = e.getAsJsonObject();
            assertEquals(200, s.get("ms").getAsLong());
            assertEquals(1, s.get("round").getAsInt());
            assertTrue(s.get("at").getAsLong() > 1_700_000_000_000L, s.toString());
            assertTrue(!s.get("thread").getAsString().isBlank() && s.has("threadGroup"), s.toString());
        }
        assertTrue(stalls.has("sendsAnsweredWithError") && stalls.has("sendsTimedOut"), stalls.toString());
        String brokerCommand = results.getAsJsonObject("metadata").getAsJsonObject("variants").getAsJsonObject("4.9.0-patched")
            .getAsJsonArray("brokerCommandLine").toString();
        assertTrue(brokerCommand.contains("rmqpatch-stall-agent.jar=point=append,millis=200,everyMillis=1000,afterMillis=11000"),
            brokerCommand);
        assertTrue(printed.contains("Store stalls (--stall append:200/1000") && printed.contains("  4.9.0-patched: " + count + " stall(s)"),
            printed);
    }
}
