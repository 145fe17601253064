package dev.rmqpatch.bench.efficiency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * --freeze-idle: while one variant's window runs, every other variant's broker JVMs (master and slave) are stopped
 * (SIGSTOP), so no idle broker wakes up on the CPUs the measured one runs on; before its own window a variant is
 * continued (SIGCONT) and given {@link #THAW_SETTLE} before its first sample, for the timers it missed (a fixed-rate
 * timer runs its missed turns at once) to run outside the window. Without it every variant's idle brokers share the
 * measured broker's CPUs, and a variant that idles with fewer wake-ups is a quieter neighbour for the others than they
 * are for it.
 *
 * <p>The window loop calls {@link #thaw} before a variant's first sample and {@link #freeze} after its last; a sequence
 * of windows starts and ends with every variant frozen ({@link #freezeAll}). {@link #close} continues every process,
 * whatever happened, before the clusters are stopped (a stopped JVM would hold SIGTERM until continued).
 *
 * <p>A variant frozen longer than {@link #HA_SAFE} (RocketMQ's HA connection expires after 20 s without a read) or
 * the name server's 120 s broker expiry would come back to a broken connection: the longest freeze is recorded, and
 * {@link #warning} says when it passed that.
 */
final class IdleFreeze implements AutoCloseable {
    /** After a continue, before the variant's first sample. */
    static final Duration THAW_SETTLE = Duration.ofSeconds(2);
    /** Below the master's and the slave's HA housekeeping interval (haHousekeepingInterval, 20 s). */
    static final Duration HA_SAFE = Duration.ofSeconds(18);

    /**
     * About how long the first variant of a pair stays stopped: pairs run forwards then backwards (A B C, C B A), so
     * between its windows come the others' windows twice, each with its continue and about a second of switching
     * (the settle after the load moves, the samples, the signals; 15.0 s measured for two variants and 5 s windows).
     */
    static long longestFreezeSeconds(int variants, int windowSeconds) {
        return 2L * (variants - 1) * (windowSeconds + THAW_SETTLE.getSeconds() + 1);
    }

    /** The longest --window that keeps two variants' freezes within {@link #HA_SAFE}. */
    static long longestWindowSeconds() {
        return HA_SAFE.getSeconds() / 2 - THAW_SETTLE.getSeconds() - 1;
    }

    /** Sends a signal to a process. */
    interface Signals {
        /** {@code stop} true: SIGSTOP, else SIGCONT. */
        void send(long pid, boolean stop) throws IOException;
    }

    /** The system's kill(1): an argument list (the pid is a number this JVM started), never a shell line. */
    static final Signals KILL = (pid, stop) -> {
        Process p = new ProcessBuilder("kill", "-s", stop ? "STOP" : "CONT", Long.toString(pid)).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("kill -s " + (stop ? "STOP" : "CONT") + " " + pid + " failed" + (said.isEmpty() ? "" : ": " + said));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while signalling " + pid, e);
        }
    };

    private final List<List<Long>> pids;
    private final Signals signals;
    private final Duration settle;
    /** Per variant: System.nanoTime() when frozen, or -1 while running. */
    private final long[] frozenSince;
    private long longestNanos;
    private int freezes;

    /**
     * @param pids per variant (in variant order), the broker JVMs to stop while it is idle
     */
    IdleFreeze(List<List<Long>> pids, Signals signals, Duration settle) {
        this.pids = new ArrayList<>();
        pids.forEach(p -> this.pids.add(List.copyOf(p)));
        this.signals = signals;
        this.settle = settle;
        this.frozenSince = new long[pids.size()];
        java.util.Arrays.fill(frozenSince, -1);
    }

    /** Stops every variant that runs. */
    void freezeAll() throws IOException {
        for (int v = 0; v < pids.size(); v++) {
            freeze(v);
        }
    }

    /** Stops variant {@code v}'s brokers (nothing when already stopped). */
    void freeze(int v) throws IOException {
        if (frozenSince[v] >= 0) {
            return;
        }
        for (long pid : pids.get(v)) {
            signals.send(pid, true);
        }
        frozenSince[v] = System.nanoTime();
        freezes++;
    }

    /** Continues variant {@code v}'s brokers and waits the settle; nothing when it runs. */
    void thaw(int v) throws IOException, InterruptedException {
        if (frozenSince[v] < 0) {
            return;
        }
        cont(v);
        TimeUnit.NANOSECONDS.sleep(settle.toNanos());
    }

    private void cont(int v) throws IOException {
        IOException first = null;
        for (long pid : pids.get(v)) {
            try {
                signals.send(pid, false);
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        longestNanos = Math.max(longestNanos, System.nanoTime() - frozenSince[v]);
        frozenSince[v] = -1;
        if (first != null) {
            throw first;
        }
    }

    /** Whether variant {@code v}'s brokers are stopped now. */
    boolean frozen(int v) {
        return frozenSince[v] >= 0;
    }

    /** How many times a variant was stopped. */
    int freezes() {
        return freezes;
    }

    /** The longest any variant stayed stopped so far. */
    Duration longest() {
        return Duration.ofNanos(longestNanos);
    }

    /** A warning for results.json when a variant stayed stopped longer than {@link #HA_SAFE}; null otherwise. */
    String warning() {
        if (longest().compareTo(HA_SAFE) <= 0) {
            return null;
        }
        return String.format(Locale.ROOT, "--freeze-idle kept a variant's brokers stopped for %.1f s, longer than %d s: a master and slave "
            + "stopped past 20 s drop their HA connection and reconnect after the continue (fewer variants, or shorter --window, keep "
            + "freezes below that)", longestNanos / 1e9, HA_SAFE.getSeconds());
    }

    /** Continues every stopped variant at once (no settle). */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (int v = 0; v < pids.size(); v++) {
            if (frozenSince[v] >= 0) {
                try {
                    cont(v);
                } catch (IOException e) {
                    first = first == null ? e : first;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
