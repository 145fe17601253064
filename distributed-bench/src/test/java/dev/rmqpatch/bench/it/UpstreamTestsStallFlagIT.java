package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * scripts/upstream-tests.sh --stall: a value that is not POINT:MILLIS/EVERY (or carries anything more) stops the script
 * with usage status 2 and the expected form, before anything is fetched, built or run.
 */
class UpstreamTestsStallFlagIT {

    @Test
    void aBadStallIsRefusedWithTheForm() throws Exception {
        for (String bad : List.of("dispatch:30", "dispatch:30/200;x", "commit:30/200", "dispatch:30/200 -Dx=1", "DISPATCH:30/200")) {
            Process p = new ProcessBuilder(Dists.repoRoot().resolve("scripts/upstream-tests.sh").toString(), "--stall", bad)
                .redirectErrorStream(true).start();
            String out;
            try {
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), bad + ": finished");
                out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                p.destroyForcibly();
            }
            assertEquals(2, p.exitValue(), bad + ": " + out);
            assertTrue(out.contains("--stall must be POINT:MILLIS/EVERY with POINT one of append, allocate, flush, replica, dispatch"
                + " (got '" + bad + "')"), bad + ": " + out);
        }
    }
}
