package dev.rmqpatch.bench.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every thread of a local process at one instant, from /proc/PID/task/TID/{stat,status} (Linux): its name (the
 * kernel's 15-character copy, which JDK 9+ and recent JDK 8 builds set from the Java thread name; older ones leave most threads named "java"),
 * its user + system CPU and its voluntary and involuntary context switches so far. Reading /proc costs the process
 * nothing.
 */
public final class ThreadSnapshot {

    /** One thread's counters. */
    public static final class Task {
        public final String name;
        public final long cpuNanos;
        public final long voluntarySwitches;
        public final long involuntarySwitches;

        Task(String name, long cpuNanos, long voluntarySwitches, long involuntarySwitches) {
            this.name = name;
            this.cpuNanos = cpuNanos;
            this.voluntarySwitches = voluntarySwitches;
            this.involuntarySwitches = involuntarySwitches;
        }
    }

    /** By thread id; a thread that ended between two snapshots is missing from the later one. */
    public final Map<Long, Task> tasks;
    /** System.nanoTime() when it was read. */
    public final long nanos;

    ThreadSnapshot(Map<Long, Task> tasks, long nanos) {
        this.tasks = Collections.unmodifiableMap(tasks);
        this.nanos = nanos;
    }

    /** The threads of {@code pid}, or null when the process cannot be read (gone, not Linux). */
    public static ThreadSnapshot of(long pid) {
        Map<Long, Task> tasks = new LinkedHashMap<>();
        long nanos = System.nanoTime();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : dir) {
                try {
                    String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                    String status = Files.readString(task.resolve("status"), StandardCharsets.US_ASCII);
                    tasks.put(Long.parseLong(task.getFileName().toString()), parse(stat, status));
                } catch (NoSuchFileException ended) {
                    // The thread ended while the folder was read.
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new ThreadSnapshot(tasks, nanos);
    }

    /**
     * The threads of several processes as one snapshot (thread ids are unique on the machine), or null when none can be
     * read: the agent JVMs of one client together.
     */
    public static ThreadSnapshot of(List<Long> pids) {
        if (pids.size() == 1) {
            return of(pids.get(0));
        }
        Map<Long, Task> tasks = new LinkedHashMap<>();
        long nanos = System.nanoTime();
        boolean any = false;
        for (long pid : pids) {
            ThreadSnapshot one = of(pid);
            if (one != null) {
                tasks.putAll(one.tasks);
                any = true;
            }
        }
        return any ? new ThreadSnapshot(tasks, nanos) : null;
    }

    /** A task from its stat line (name in parentheses, CPU ticks) and its status file (the two switch counters). */
    static Task parse(String statLine, String status) {
        int open = statLine.indexOf('(');
        int close = statLine.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc/PID/task/TID/stat line");
        }
        String name = statLine.substring(open + 1, close);
        long cpu = ProcStat.ticksToNanos(ProcStat.parseProcessCpuTicks(statLine));
        return new Task(name, cpu, field(status, "voluntary_ctxt_switches:"), field(status, "nonvoluntary_ctxt_switches:"));
    }

    private static long field(String status, String key) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                return Long.parseLong(line.substring(key.length()).trim());
            }
        }
        throw new IllegalArgumentException("no " + key + " in the status file");
    }
}
