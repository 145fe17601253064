package dev.rmqpatch.bench.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * CPU time of local processes and of the whole machine from /proc (Linux). Reading /proc costs the measured process
 * nothing, unlike attaching to it.
 */
public final class ProcStat {
    private static volatile long clockTicks;

    private ProcStat() {
    }

    /** user + system CPU time of a process in nanoseconds, or null if it cannot be read (gone, not Linux). */
    public static Long processCpuNanos(long pid) {
        try {
            String line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            return ticksToNanos(parseProcessCpuTicks(line));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * utime + stime (fields 14 and 15) of a /proc/PID/stat line. The command name (field 2) is in parentheses and may
     * itself contain spaces and parentheses, so fields are counted from the last ')'.
     */
    static long parseProcessCpuTicks(String statLine) {
        int close = statLine.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line");
        }
        String[] fields = statLine.substring(close + 2).trim().split("\\s+");
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * The whole machine's idle time and CPU count, from /proc/stat; null if unreadable. Busy time is the window's wall
     * time times the CPUs minus this, not the busy columns: with tick-based accounting (CONFIG_TICK_CPU_ACCOUNTING, the
     * default) user, system and softirq are sampled a whole tick at a time (4 ms at HZ=250), while a tickless kernel
     * measures idle time exactly and /proc/PID/stat's process times add up exact run time. Seen on this project's 2-vCPU
     * machine at 400 msg/s: in patched 4.9.8's windows the busy columns said 0.59 cores where wall time minus idle said
     * 0.54 (stock's, 0.64 against 0.65), so the busy columns minus the processes ("other load") was about twice as high
     * in the burstier variant's windows (0.10 against 0.05 cores) with nothing else running.
     */
    public static MachineIdle machineIdle() {
        try {
            return parseMachineIdle(Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Idle time (idle + iowait + steal: time this machine's work did not use) and the number of CPUs (cpuN lines). */
    public record MachineIdle(long idleNanos, int cpus) {
    }

    static MachineIdle parseMachineIdle(List<String> procStat) {
        long idleTicks = -1;
        int cpus = 0;
        for (String line : procStat) {
            if (line.startsWith("cpu ")) {
                // user nice system idle iowait irq softirq steal (guest and guest_nice are included in user/nice)
                String[] f = line.trim().split("\\s+");
                idleTicks = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0) + (f.length > 8 ? Long.parseLong(f[8]) : 0);
            } else if (line.startsWith("cpu")) {
                cpus++;
            }
        }
        if (idleTicks < 0 || cpus == 0) {
            throw new IllegalArgumentException("no cpu lines in /proc/stat");
        }
        return new MachineIdle(ticksToNanos(idleTicks), cpus);
    }

    static long ticksToNanos(long ticks) {
        return ticks * (TimeUnit.SECONDS.toNanos(1) / clockTicksPerSecond());
    }

    /** USER_HZ from {@code getconf CLK_TCK}; 100 on practically every Linux, used if getconf is missing. */
    static long clockTicksPerSecond() {
        long ticks = clockTicks;
        if (ticks == 0) {
            ticks = 100;
            try {
                Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
                if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    ticks = Long.parseLong(out);
                }
            } catch (IOException | RuntimeException e) {
                // keep 100
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            clockTicks = ticks;
        }
        return ticks;
    }
}
