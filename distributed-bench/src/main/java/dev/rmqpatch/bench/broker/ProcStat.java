package dev.rmqpatch.bench.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Busy and total CPU time of the whole machine (all cores), nanoseconds; null if unreadable. */
    public static long[] machineCpuNanos() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("cpu ")) {
                    long[] ticks = parseMachineTicks(line);
                    return new long[] {ticksToNanos(ticks[0]), ticksToNanos(ticks[1])};
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** {busy, total} ticks of the aggregate "cpu" line; idle and iowait are not busy, guest time is already in user. */
    static long[] parseMachineTicks(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        long total = 0;
        // user nice system idle iowait irq softirq steal (guest and guest_nice are included in user/nice)
        int fields = Math.min(f.length - 1, 8);
        for (int i = 1; i <= fields; i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
        return new long[] {total - idle, total};
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
