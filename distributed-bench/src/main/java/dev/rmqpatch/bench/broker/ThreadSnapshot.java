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
 * Every thread of a local process at one instant, from /proc/PID/task/TID/{stat,status,io} (Linux): its name (the
 * kernel's 15-character copy, which JDK 9+ and recent JDK 8 builds set from the Java thread name; older ones leave most threads named "java"),
 * its user + system CPU, its voluntary and involuntary context switches and its read and write system calls so far
 * (syscr, syscw: read, readv, recvfrom ... and write, writev, sendto ..., sockets, pipes and files alike; -1 where the
 * kernel keeps no io file). Reading /proc costs the process nothing.
 */
public final class ThreadSnapshot {

    /** One thread's counters. */
    public static final class Task {
        public final String name;
        public final long cpuNanos;
        public final long voluntarySwitches;
        public final long involuntarySwitches;
        /** Read and write system calls so far, or -1: no io file for the thread. */
        public final long readCalls;
        public final long writeCalls;

        Task(String name, long cpuNanos, long voluntarySwitches, long involuntarySwitches, long readCalls, long writeCalls) {
            this.name = name;
            this.cpuNanos = cpuNanos;
            this.voluntarySwitches = voluntarySwitches;
            this.involuntarySwitches = involuntarySwitches;
            this.readCalls = readCalls;
            this.writeCalls = writeCalls;
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
                    tasks.put(Long.parseLong(task.getFileName().toString()), parse(stat, status, io(task)));
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

    /** The thread's io file, or null where the kernel keeps none (no task I/O accounting) or it cannot be read. */
    private static String io(Path task) throws NoSuchFileException {
        try {
            return Files.readString(task.resolve("io"), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException ended) {
            if (Files.exists(task)) {
                return null;
            }
            throw ended;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A task from its stat line (name in parentheses, CPU ticks), its status file (the two switch counters) and its io
     * file (the two system call counters; null: unknown).
     */
    static Task parse(String statLine, String status, String io) {
        int open = statLine.indexOf('(');
        int close = statLine.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc/PID/task/TID/stat line");
        }
        String name = statLine.substring(open + 1, close);
        long cpu = ProcStat.ticksToNanos(ProcStat.parseProcessCpuTicks(statLine));
        return new Task(name, cpu, field(status, "voluntary_ctxt_switches:"), field(status, "nonvoluntary_ctxt_switches:"),
            io == null ? -1 : field(io, "syscr:"), io == null ? -1 : field(io, "syscw:"));
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
