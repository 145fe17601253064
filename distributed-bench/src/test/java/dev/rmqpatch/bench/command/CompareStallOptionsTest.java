package dev.rmqpatch.bench.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.engine.RunOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare --stall: read in every plan, the agent jar found from the repository root, a clear error otherwise. */
class CompareStallOptionsTest {

    private static Path repoWithJar(Path root) throws Exception {
        Path jar = root.resolve(StoreStalls.JAR);
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "");
        return jar;
    }

    private static String[] args(Path root, String... more) {
        List<String> a = new ArrayList<>(List.of("--repo-root", root.toString()));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> CompareCommand.parse(args)).getMessage();
    }

    @Test
    void noStallByDefault() throws Exception {
        RunOptions o = CompareCommand.parse(new String[0]);
        assertNull(o.stall);
        assertNull(o.stallAgentJar);
    }

    @Test
    void stallIsReadInBothPlansWithTheBuiltJar(@TempDir Path root) throws Exception {
        Path jar = repoWithJar(root);
        RunOptions o = CompareCommand.parse(args(root, "--stall", "append:500/2000"));
        assertEquals(new StoreStalls.Plan("append", 500, 2000), o.stall);
        assertEquals(jar.toAbsolutePath().normalize(), o.stallAgentJar);
        RunOptions e = CompareCommand.parse(args(root, "--efficiency", "--stall=flush:50/1000"));
        assertEquals("flush", e.stall.point());
        assertEquals(o.stall, o.copy().stall, "each of --runs N gets it");
    }

    @Test
    void wrongValuesAndAMissingJarAreClearErrors(@TempDir Path root) throws Exception {
        String missing = error(args(root, "--stall", "append:500/2000"));
        assertTrue(missing.contains("run mvn package first"), missing);
        repoWithJar(root);
        assertTrue(error(args(root, "--stall", "append")).contains("POINT:MILLIS/EVERY_MILLIS"));
        assertTrue(error(args(root, "--stall", "disk:500/2000")).contains("unknown point 'disk'"));
        assertTrue(error(args(root, "--stall", "append:2000/500")).contains("EVERY_MILLIS must be longer"));
        assertTrue(error(args(root, "--efficiency", "--clients", "stock,patched", "--stall", "append:500/2000"))
            .contains("not with --clients"));
    }

    @Test
    void theHelpSaysWhatItDoes() {
        String help = CompareCommand.helpText();
        assertTrue(help.contains("--stall POINT:MILLIS/EVERY_MILLIS"), help);
        assertTrue(help.contains("never in a delivered broker"), help);
    }
}
