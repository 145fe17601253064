package dev.rmqpatch.bench.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Ends the agent when the coordinator that started it is gone, so a killed coordinator leaves no agent behind. JDK 8 has
 * no ProcessHandle, so it reads Linux's /proc: the parent is gone when /proc/PID is, or when PID now names another
 * process (a different start time in /proc/PID/stat).
 */
final class ParentWatch {
    private static final long POLL_MILLIS = 500;

    private ParentWatch() {
    }

    /** Calls {@code onGone} with a reason once the parent is gone (at once if it is not running now). */
    static void start(long parent, java.util.function.Consumer<String> onGone) {
        Path proc = Paths.get("/proc");
        if (!Files.isDirectory(proc.resolve("self"))) {
            System.err.println("no /proc here: the agent cannot watch its parent process " + parent + " and will not stop with it");
            return;
        }
        String started = startTime(proc.resolve(Long.toString(parent)));
        if (started == null) {
            onGone.accept("parent process " + parent + " is not running");
            return;
        }
        Thread watch = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                if (!started.equals(startTime(proc.resolve(Long.toString(parent))))) {
                    onGone.accept("parent process " + parent + " exited");
                    return;
                }
            }
        }, "agent-parent-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** Field 22 of /proc/PID/stat (the start time in clock ticks), or null when there is no such process. */
    static String startTime(Path procPid) {
        try {
            String stat = new String(Files.readAllBytes(procPid.resolve("stat")), StandardCharsets.US_ASCII);
            // The command name (field 2) is in parentheses and may hold spaces; count fields after its last ')'.
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return rest.length > 19 ? rest[19] : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
