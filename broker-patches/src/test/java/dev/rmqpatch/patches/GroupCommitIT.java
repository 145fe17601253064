package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P22 on a real SYNC_FLUSH store: {@link GroupCommitScenario} runs in class loaders over the stock lib/, the patched
 * lib/ and the patched lib/ with {@code -Drmqpatch.disable=P22} (so the verifier checks the rewritten
 * GroupCommitService and the store's own flush thread runs it), with the same seed: sync and async puts, some not
 * waiting for the flush, from one thread and from several. Every put must be answered as in stock (PUT_OK, same
 * logical offsets per queue), every async request completed, each thread's in its put order.
 */
class GroupCommitIT {

    @TempDir
    Path tmp;

    @Test
    void sameAnswersAsStockFromOneThread() throws Exception {
        long seed = new Random().nextLong();
        List<String> stock = run("stock", "", seed, 1, 600);
        List<String> patched = run("patched", "", seed, 1, 600);
        List<String> off = run("patched", "P22", seed, 1, 600);
        assertEquals(stock, patched, "seed " + seed);
        assertEquals(stock, off, "switched off, seed " + seed);
        assertAllOk(patched, seed);
    }

    @Test
    void sameAnswersAsStockFromConcurrentThreads() throws Exception {
        long seed = new Random().nextLong();
        List<String> stock = run("stock", "", seed, 4, 400);
        List<String> patched = run("patched", "", seed, 4, 400);
        // Each thread has its own queue, so every answer (status and logical offset) is the same whatever the interleaving.
        assertEquals(stock, patched, "seed " + seed);
        assertAllOk(patched, seed);
    }

    private static void assertAllOk(List<String> lines, long seed) {
        for (String l : lines) {
            if (l.contains("async completed in put order")) {
                assertTrue(l.contains(": true"), l + " seed " + seed);
            } else {
                assertTrue(l.contains(" PUT_OK "), l + " seed " + seed);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private List<String> run(String dist, String disable, long seed, int threads, int perThread) throws Exception {
        Path dir = Files.createTempDirectory(tmp, dist);
        URL scenarioClasses = GroupCommitScenario.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = LibLoaders.of(TestCluster.dist(dist).resolve("lib"), scenarioClasses)) {
            if (dist.equals("patched")) {
                Class<?> switches = LibLoaders.switches(loader, disable);
                assertEquals(disable.isEmpty(), switches.getField("P22").getBoolean(null));
                assertTrue(switches.getField("P21").getBoolean(null));
            }
            Class<?> scenario = Class.forName(GroupCommitScenario.class.getName(), true, loader);
            assertFalse(scenario.getClassLoader() != loader, "the scenario links against " + dist);
            List<String> lines = new ArrayList<>((List<String>) scenario.getMethod("run", String.class, long.class,
                int.class, int.class).invoke(null, dir.toString(), seed, threads, perThread));
            String expected = dist.equals("patched") && disable.isEmpty() ? "dev.rmqpatch.codec.store.GroupCommitQueue"
                : "java.util.ArrayList";
            assertEquals("requestsWrite: " + expected, lines.remove(0), dist + " " + disable);
            System.out.println("[GroupCommitIT] " + dist + (disable.isEmpty() ? "" : " -Drmqpatch.disable=" + disable)
                + ": " + lines.size() + " answers");
            return lines;
        }
    }
}
