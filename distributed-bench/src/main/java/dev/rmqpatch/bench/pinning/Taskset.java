package dev.rmqpatch.bench.pinning;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link Affinity} through util-linux {@code taskset -a -p -c LIST PID} (sched_setaffinity on every thread of the
 * process) and {@code /proc/self/status}. Set after a JVM started, affinity does not change what the JVM sized its GC,
 * JIT and pool threads by; {@code -XX:ActiveProcessorCount} keeps later {@code availableProcessors()} calls equal too.
 */
public final class Taskset implements Affinity {
    @Override
    public List<Integer> allowedCpus() throws AffinityException {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return CpuList.parse(line.substring(line.indexOf(':') + 1));
                }
            }
            throw new AffinityException("/proc/self/status has no Cpus_allowed_list", null);
        } catch (IOException | IllegalArgumentException e) {
            throw new AffinityException("cannot read the CPUs this process may use from /proc/self/status: " + e.getMessage(), e);
        }
    }

    @Override
    public void pin(long pid, List<Integer> cpus) throws AffinityException {
        List<String> command = List.of("taskset", "-a", "-p", "-c", CpuList.format(cpus), Long.toString(pid));
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
            if (p.exitValue() != 0) {
                throw new AffinityException("taskset -a -p -c " + CpuList.format(cpus) + " " + pid + " failed (exit " + p.exitValue() + "): "
                    + output, null);
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
