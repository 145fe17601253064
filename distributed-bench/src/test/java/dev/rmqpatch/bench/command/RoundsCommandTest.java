package dev.rmqpatch.bench.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench rounds: the order scripts/run-distributed.sh --variants runs its rounds in, its errors, and the merge's files. */
class RoundsCommandTest {
    @TempDir
    Path dir;

    private String run(String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(0, RoundsCommand.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String refused(String... args) {
        return assertThrows(UsageException.class, () -> RoundsCommand.run(args, new PrintStream(new ByteArrayOutputStream()))).getMessage();
    }

    @Test
    void printsTheBaselineAndTheInterleavedOrder() throws Exception {
        assertEquals("baseline 4.9.0-tuned\nrun 1 4.9.0-patched\nrun 1 4.9.0-tuned\nrun 2 4.9.0-patched\nrun 2 4.9.0-tuned\n",
            run("--variants", "4.9.0-patched,4.9.0-tuned", "--rounds", "2"));
        assertEquals("baseline 4.9.0-patched#2\nrun 1 4.9.0-patched\nrun 1 4.9.0-patched#2\n",
            run("--variants", "4.9.0-patched,4.9.0-patched#2", "--rounds", "1", "--baseline", "4.9.0-patched#2"));
        assertTrue(run("--variants", "4.9.0,4.9.1").startsWith("baseline 4.9.0\nrun 1 4.9.0\n"), "default: 3 rounds, the first variant");
    }

    @Test
    void refusesOneVariantAnUnknownOneZeroRoundsAndAForeignBaseline() {
        assertTrue(refused("--variants", "4.9.0-tuned").contains("at least two variants"));
        assertTrue(refused("--rounds", "2").contains("--variants A,B"));
        assertTrue(refused("--variants", "4.9.0-tuned,4.9.0-fast").contains("variant '4.9.0-fast' is not"));
        assertTrue(refused("--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "0").contains("--rounds must be at least 1"));
        assertTrue(refused("--variants", "4.9.0-tuned,4.9.0-tuned").contains("given twice"));
        assertTrue(refused("--variants", "4.9.0-tuned,4.9.0-patched", "--baseline", "4.9.1").contains("not one of the variants"));
        assertTrue(refused("--variants", "4.9.0-tuned,4.9.0-patched", "--running").contains("go with --merge"));
        assertTrue(refused("--variants", "4.9.0-tuned,4.9.0-patched", "--merge", dir.resolve("none").toString()).contains("no folder"));
    }

    @Test
    void mergeWritesResultsTableAndChartEvenBeforeTheFirstRound() throws Exception {
        String out = run("--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "2", "--merge", dir.toString(), "--command", "x y", "--running");
        assertTrue(out.contains("results: " + dir.resolve("results.json")), out);
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"status\": \"running\"") && json.contains("\"command\": \"x y\"") && json.contains("\"mode\": \"saturation\""), json);
        assertTrue(Files.size(dir.resolve("chart.png")) > 0 && Files.exists(dir.resolve("table.txt")));
        run("--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "2", "--merge", dir.toString());
        assertTrue(Files.readString(dir.resolve("results.json")).contains("\"status\": \"failed\""), "no round at all, and none to come");
    }
}
