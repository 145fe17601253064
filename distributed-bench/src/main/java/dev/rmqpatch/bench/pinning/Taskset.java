package dev.rmqpatch.bench.pinning;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link Affinity} through util-linux {@code taskset -a -p -c LIST PID} (sched_setaffinity on every thread of the
 * process), {@code taskset -p -c LIST TID} (one thread) and {@code /proc}. Set after a JVM started, affinity does not
 * change what the JVM sized its GC, JIT and pool threads by; {@code -XX:ActiveProcessorCount} keeps later
 * {@code availableProcessors()} calls equal too. taskset gets its arguments as a list (numbers only), never a shell line.
 */
public final class Taskset implements Affinity {
    private static final String ALLOWED = "Cpus_allowed_list:";

    @Override
    public List<Integer> allowedCpus() throws AffinityException {
        try {
            List<Integer> cpus = allowedIn(Files.readString(Path.of("/proc/self/status"), StandardCharsets.US_ASCII));
            if (cpus == null) {
                throw new AffinityException("/proc/self/status has no Cpus_allowed_list", null);
            }
            return cpus;
        } catch (IOException | IllegalArgumentException e) {
            throw new AffinityException("cannot read the CPUs this process may use from /proc/self/status: " + e.getMessage(), e);
        }
    }

    /** The Cpus_allowed_list of a /proc status file, or null when it has none. */
    static List<Integer> allowedIn(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith(ALLOWED)) {
                return CpuList.parse(line.substring(ALLOWED.length()));
            }
        }
        return null;
    }

    @Override
    public void pin(long pid, List<Integer> cpus) throws AffinityException {
        run(List.of("taskset", "-a", "-p", "-c", CpuList.format(cpus), Long.toString(pid)), null);
    }

    @Override
    public void pinThread(long tid, List<Integer> cpus) throws AffinityException {
        run(List.of("taskset", "-p", "-c", CpuList.format(cpus), Long.toString(tid)), Path.of("/proc", Long.toString(tid)));
    }

    @Override
    public List<ThreadAffinity> threads(long pid) throws AffinityException {
        List<ThreadAffinity> threads = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : dir) {
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8);
                    List<Integer> cpus = allowedIn(Files.readString(task.resolve("status"), StandardCharsets.UTF_8));
                    if (cpus != null) {
                        threads.add(new ThreadAffinity(Long.parseLong(task.getFileName().toString()), name.strip(), cpus));
                    }
                } catch (IOException ended) {
                    // The thread ended while the folder was read (no such file, or no such process).
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new AffinityException("cannot read the threads of process " + pid + " from /proc: " + e, e);
        }
        return threads;
    }

    /** Runs one taskset command; a failure for a thread whose /proc entry ({@code gone}) has disappeared is none. */
    private static void run(List<String> command, Path gone) throws AffinityException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AffinityException("cannot run taskset (util-linux): " + e.getMessage(), e);
        }
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                throw new AffinityException("taskset did not finish within 10 s", null);
            }
            if (p.exitValue() != 0 && (gone == null || Files.exists(gone))) {
                throw new AffinityException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + output, null);
            }
        } catch (IOException e) {
            throw new AffinityException("taskset: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AffinityException("interrupted while running taskset", e);
        } finally {
            p.destroyForcibly();
        }
    }
}
