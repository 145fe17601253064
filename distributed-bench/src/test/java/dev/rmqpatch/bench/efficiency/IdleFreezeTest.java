package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * --freeze-idle's stop and continue: real signals on real child processes (their state in /proc), which process
 * gets which signal when, and that closing continues everything, even after a failed signal.
 */
class IdleFreezeTest {

    /** The state letter of /proc/PID/stat: T when stopped. */
    private static char state(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    private static Process sleeper() throws IOException {
        return new ProcessBuilder("sleep", "120").start();
    }

    @Test
    void stopsAndContinuesRealProcessesPerVariant() throws Exception {
        Process a1 = sleeper();
        Process a2 = sleeper();
        Process b = sleeper();
        try (IdleFreeze f = new IdleFreeze(List.of(List.of(a1.pid(), a2.pid()), List.of(b.pid())), IdleFreeze.KILL, Duration.ZERO)) {
            f.freezeAll();
            assertEquals('T', state(a1.pid()));
            assertEquals('T', state(a2.pid()));
            assertEquals('T', state(b.pid()));
            f.thaw(1);
            assertFalse(f.frozen(1));
            assertTrue(f.frozen(0));
            assertEquals('T', state(a1.pid()), "the other variant stays stopped");
            assertTrue(state(b.pid()) != 'T', "continued: " + state(b.pid()));
            f.freeze(1);
            assertEquals('T', state(b.pid()));
            assertEquals(3, f.freezes());
        }
        // close() continued every stopped process.
        for (Process p : List.of(a1, a2, b)) {
            assertTrue(state(p.pid()) != 'T', "continued at close: " + p.pid());
        }
        for (Process p : List.of(a1, a2, b)) {
            p.destroy();
        }
    }

    @Test
    void aProcessThatIsGoneIsAClearErrorAndTheOthersAreStillContinued() throws Exception {
        Process gone = sleeper();
        Process live = sleeper();
        gone.destroyForcibly().waitFor();
        IdleFreeze f = new IdleFreeze(List.of(List.of(live.pid()), List.of(gone.pid())), IdleFreeze.KILL, Duration.ZERO);
        try {
            f.freeze(0);
            IOException e = assertThrows(IOException.class, () -> f.freeze(1));
            assertTrue(e.getMessage().contains("kill -s STOP " + gone.pid() + " failed"), e.getMessage());
        } finally {
            f.close();
        }
        assertTrue(state(live.pid()) != 'T');
        live.destroy();
    }

    /** Recorded signals: each variant signalled once per change, the settle waited after a continue, the longest freeze kept. */
    @Test
    void signalsOnlyOnAChangeAndKeepsTheLongestFreeze() throws Exception {
        List<String> sent = new ArrayList<>();
        IdleFreeze f = new IdleFreeze(List.of(List.of(1L, 2L), List.of(3L)), (pid, stop) -> sent.add((stop ? "STOP " : "CONT ") + pid),
            Duration.ofMillis(50));
        f.thaw(0);
        assertEquals(List.of(), sent, "a running variant is not continued");
        f.freezeAll();
        f.freezeAll();
        assertEquals(List.of("STOP 1", "STOP 2", "STOP 3"), sent, "a stopped variant is not stopped again");
        Thread.sleep(30);
        long t0 = System.nanoTime();
        f.thaw(0);
        assertTrue(System.nanoTime() - t0 >= Duration.ofMillis(50).toNanos(), "the settle after a continue");
        assertTrue(f.longest().toMillis() >= 30, f.longest().toString());
        assertNull(f.warning(), "short freezes need no warning");
        f.close();
        assertEquals(List.of("STOP 1", "STOP 2", "STOP 3", "CONT 1", "CONT 2", "CONT 3"), sent);
    }
}
