package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The agent ends with its parent: read from /proc, as on JDK 8 (no ProcessHandle there). */
class ParentWatchTest {
    @Test
    void aRunningProcessHasAStartTimeAndAMissingOneHasNone() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        String self = ParentWatch.startTime(Path.of("/proc/" + ProcessHandle.current().pid()));
        assertNotNull(self);
        long ticks = Long.parseLong(self);
        assertTrue(ticks > 0, self);
        assertNull(ParentWatch.startTime(Path.of("/proc/999999999")));
    }

    @Test
    void itReportsOnceTheParentIsGoneOrAtOnceWhenItNeverRan() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux only");
        BlockingQueue<String> gone = new ArrayBlockingQueue<>(2);
        ParentWatch.start(999_999_999L, gone::add);
        assertEquals("parent process 999999999 is not running", gone.poll(1, TimeUnit.SECONDS));

        Process parent = new ProcessBuilder("sleep", "30").start();
        try {
            ParentWatch.start(parent.pid(), gone::add);
            assertNull(gone.poll(1200, TimeUnit.MILLISECONDS), "the parent still runs");
            parent.destroy();
            assertEquals("parent process " + parent.pid() + " exited", gone.poll(10, TimeUnit.SECONDS));
        } finally {
            parent.destroyForcibly();
        }
    }
}
