package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Context switches of a process's threads by name, from /proc: counts, not timings, for the idle-wake-up ITs. */
final class ThreadSwitches {

    private ThreadSwitches() {
    }

    /** Voluntary and involuntary context switches so far of the threads of {@code pid} named {@code comm}. */
    static long of(long pid, String comm) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            long total = -1;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (!Files.readString(task.resolve("comm")).trim().equals(comm)) {
                    continue;
                }
                total = Math.max(total, 0);
                for (String line : Files.readAllLines(task.resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                        total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            }
            assertTrue(total >= 0, "no thread " + comm + " in process " + pid);
            return total;
        }
    }
}
