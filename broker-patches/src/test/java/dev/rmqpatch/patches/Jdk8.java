package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;

import dev.rmqpatch.cluster.Jdk8Home;
import dev.rmqpatch.cluster.LocalCluster;
import org.junit.jupiter.api.Assumptions;

/**
 * The JDK 8 that JDK 8 tests run their servers (or probes) on, from {@link Jdk8Home} (scripts/jdk8.sh, or
 * -Drmqpatch.jdk8.home). The one rule for when it cannot be had: in CI ({@code CI=true}) the test fails with the reason;
 * elsewhere it is skipped with the reason, which the test report shows.
 */
final class Jdk8 {

    private Jdk8() {
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** The JDK 8 home; skips (locally) or fails (CI) the calling test when there is none. */
    static Path home() {
        try {
            return Jdk8Home.find();
        } catch (Jdk8Home.Unavailable e) {
            if (inCi()) {
                fail("JDK 8 is required in CI and could not be had: " + e.getMessage());
            }
            Assumptions.abort("skipped: no JDK 8 here (" + e.getMessage() + "); scripts/jdk8.sh provides one");
            throw new AssertionError("unreachable");
        }
    }

    /** The JDK 8 home, or null (locally, said on stderr) when there is none; fails in CI. */
    static Path homeOrNull() {
        try {
            return Jdk8Home.find();
        } catch (Jdk8Home.Unavailable e) {
            if (inCi()) {
                fail("JDK 8 is required in CI and could not be had: " + e.getMessage());
            }
            System.err.println("[Jdk8] no JDK 8 here (" + e.getMessage() + ")");
            return null;
        }
    }

    /**
     * Asserts that process {@code pid} runs the {@code java} of {@code javaHome} (its executable, from /proc), and
     * prints which JVM it is, so the test report names the JVM each server ran on.
     */
    static void assertRunsOn(String what, long pid, Path javaHome) {
        String exe = LocalCluster.javaOf(pid);
        if (exe == null) {
            fail(what + " (pid " + pid + ") is not running");
        }
        System.out.println("[Jdk8] " + what + " (pid " + pid + ") runs " + exe);
        assertTrue(Path.of(exe).toAbsolutePath().normalize().startsWith(javaHome.toAbsolutePath().normalize()),
            what + " runs " + exe + ", not the java of " + javaHome);
    }
}
