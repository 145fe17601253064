package dev.rmqpatch.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/jdk8.sh called three times at once into an empty folder, as parallel test forks on a fresh machine call it:
 * every call must print the same JAVA_HOME of a JDK 8 that runs (before the script took a lock, each first call deleted
 * the folder the others were filling, and none ended with a working JDK). This fetches the JDK once from the Debian
 * mirror, as the first test of a fresh machine does.
 */
class Jdk8ScriptTest {

    @TempDir
    Path dir;

    @Test
    void threeConcurrentFirstCallsIntoAnEmptyFolderAllGetTheSameWorkingJdk() throws Exception {
        Path script = Jdk8Home.script();
        Assumptions.assumeTrue(Files.exists(Paths.get("/usr/bin/apt-get")) || inCi(),
            "skipped: not a Debian-based machine (scripts/jdk8.sh needs apt-get)");
        Path target = dir.resolve("jdk8");
        List<Process> calls = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path out = dir.resolve("out-" + i);
            Path err = dir.resolve("err-" + i);
            outs.add(out);
            calls.add(new ProcessBuilder(script.toString(), "--dir", target.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start());
        }
        String first = null;
        for (int i = 0; i < calls.size(); i++) {
            Process p = calls.get(i);
            boolean ended = p.waitFor(10, TimeUnit.MINUTES);
            if (!ended) {
                calls.forEach(Process::destroyForcibly);
            }
            String err = Files.readString(dir.resolve("err-" + i), StandardCharsets.UTF_8);
            assertTrue(ended, "call " + i + " did not end in 10 min: " + err);
            assertEquals(0, p.exitValue(), "call " + i + " failed: " + err);
            String home = Files.readString(outs.get(i), StandardCharsets.UTF_8).trim();
            if (first == null) {
                first = home;
            }
            assertEquals(first, home, "call " + i + " printed another JAVA_HOME");
        }
        assertTrue(Paths.get(first).startsWith(target), first + " is not inside " + target);
        Process version = new ProcessBuilder(Paths.get(first, "bin", "java").toString(), "-version")
            .redirectErrorStream(true).start();
        String said = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(version.waitFor(1, TimeUnit.MINUTES) && version.exitValue() == 0, said);
        assertTrue(said.contains("\"1.8."), said);
        assertFalse(Files.exists(Paths.get(target + ".partial")), "the unpacking folder was left behind");
        // A later call answers from the folder at once (no lock wait, no fetch): it says nothing on stderr.
        Process again = new ProcessBuilder(script.toString(), "--check", "--dir", target.toString())
            .redirectErrorStream(true).start();
        String answer = new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(again.waitFor(1, TimeUnit.MINUTES) && again.exitValue() == 0, answer);
        assertEquals(first, answer);
    }

    private static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
