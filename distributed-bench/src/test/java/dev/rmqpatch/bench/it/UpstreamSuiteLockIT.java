package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock by which distributed-bench's measuring tests wait for RocketMQ's own suite when both run in one
 * {@code mvn verify} (two modules at a time): {@code scripts/upstream-tests.sh --hold-lock FILE} holds FILE for as long
 * as the run lasts and no longer, {@code --wait-lock FILE} waits while it is held and returns at once when it is not.
 * The run is held in place by taking its cache's lock first (it then waits for "another run"), after it has taken
 * FILE; then it is killed, and the waiter must go on.
 */
class UpstreamSuiteLockIT {

    @TempDir
    Path tmp;

    @Test
    void aWaiterWaitsWhileTheSuiteRunsAndGoesOnWhenItEnds() throws Exception {
        Path lock = tmp.resolve("target/upstream-suite.lock");
        Path cache = tmp.resolve("cache");
        Files.createDirectories(cache);
        String script = Dists.repoRoot().resolve("scripts/upstream-tests.sh").toString();
        List<Process> started = new ArrayList<>();
        try {
            Output free = run(started, script, "--wait-lock", lock.toString());
            assertTrue(free.process.waitFor(30, TimeUnit.SECONDS), "returns at once when nothing holds the lock");
            assertEquals(0, free.process.exitValue(), free.text());
            assertFalse(free.text().contains("waiting"), free.text());

            // Another run holds the cache: the suite's run takes its own lock, then waits for the cache.
            run(started, "flock", cache.resolve(".lock").toString(), "sleep", "300");
            waitFor(() -> held(cache.resolve(".lock")), 30, "the cache lock taken");
            Output suite = run(started, script, "--side", "patched", "--modules", "common", "--hold-lock", lock.toString(),
                "--cache", cache.toString(), "--out", tmp.resolve("out").toString());
            waitFor(() -> suite.text().contains("holds " + cache.resolve(".lock") + "; waiting for it"), 300,
                "the run waiting for the cache: " + suite.text());
            assertTrue(held(lock), "the run holds " + lock);

            Output waiter = run(started, script, "--wait-lock", lock.toString());
            waitFor(() -> waiter.text().contains("waiting for the upstream suite to end"), 30, "the waiter says it waits");
            Thread.sleep(2000);
            assertTrue(waiter.process.isAlive(), "still waiting while the run lasts: " + waiter.text());

            suite.process.destroy();
            assertTrue(suite.process.waitFor(30, TimeUnit.SECONDS), "the run ended");
            assertTrue(waiter.process.waitFor(30, TimeUnit.SECONDS), "the waiter goes on once the run is gone: " + waiter.text());
            assertEquals(0, waiter.process.exitValue(), waiter.text());
            assertTrue(waiter.text().contains("the upstream suite has ended"), waiter.text());
            assertFalse(held(lock), "nothing the run started keeps the lock");
        } finally {
            for (Process p : started) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    /** Whether some process holds {@code file}'s flock lock (a non-blocking try fails). */
    private static boolean held(Path file) {
        try {
            Process p = new ProcessBuilder("flock", "-n", file.toString(), "true").redirectErrorStream(true).start();
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            return p.exitValue() != 0;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void waitFor(BooleanSupplier condition, int seconds, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "within " + seconds + " s: " + what);
            Thread.sleep(100);
        }
    }

    /** A started process and the file its output (stdout and stderr) goes to. */
    private record Output(Process process, Path file) {
        String text() {
            try {
                return Files.readString(file);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    private Output run(List<Process> started, String... command) throws Exception {
        Path file = Files.createTempFile(tmp, "output-", ".txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(file.toFile()).start();
        started.add(p);
        return new Output(p, file);
    }
}
