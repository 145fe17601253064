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

    /** The JDK 8 home; skips (locally) or fails (CI) the calling test when there is none. */
    static Path home() {
        Path home = homeOrNull();
        if (home == null) {
            Assumptions.abort("skipped: no JDK 8 here (" + Jdk8Home.failure() + "); scripts/jdk8.sh provides one");
        }
        return home;
    }

    /** The JDK 8 home, or null (locally, said on stderr) when there is none; fails in CI. */
    static Path homeOrNull() {
        Path home;
        try {
            home = Jdk8Home.forTests();
        } catch (IllegalStateException e) {
            fail(e.getMessage());
            throw e;
        }
        if (home == null) {
            System.err.println("[Jdk8] no JDK 8 here (" + Jdk8Home.failure() + ")");
        }
        return home;
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
