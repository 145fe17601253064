package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs scripts/compare.sh as a user would, for the compare ITs: what it printed, once it ended well in time. */
final class CompareScript {
    private CompareScript() {
    }

    /**
     * Runs {@code compare.sh --no-build OPTIONS} (the ITs run after package, so a missing part is a failure, not a build),
     * its output into {@code log}; fails with that output unless it exits 0 within {@code seconds}.
     */
    static String run(Path log, int seconds, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Dists.repoRoot().resolve("scripts/compare.sh").toString(), "--no-build"));
        command.addAll(List.of(options));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), "compare.sh finished");
        } finally {
            p.destroyForcibly();
        }
        String printed = Files.readString(log);
        assertEquals(0, p.exitValue(), printed);
        return printed;
    }
}
