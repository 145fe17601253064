package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.cluster.LocalCluster;
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

    /** The flag of compare --efficiency. */
    static final Flag<Boolean> FLAG = Flag.toggle("--freeze-idle", "in the measured pairs, every variant's broker JVMs "
        + "(master and slave) are stopped (SIGSTOP) outside its own windows and continued (SIGCONT) " + THAW_SETTLE.getSeconds()
        + " s before its first sample, the load paused meanwhile: no idle broker wakes up beside the measured one (without it, a "
        + "variant that idles quietly is a quieter neighbour for the others than they are for it); local brokers only, not with "
        + "--clients; for a test of that bias, not for headline figures (a stopped broker misses its timers and its clients' "
        + "heartbeats; two variants and --window " + longestWindowSeconds() + " at most: a longer freeze would drop a pair's HA "
        + "connection)");

    /** Reads --freeze-idle (after --remote, --clients, --variants and --window are read) and refuses what it cannot do. */
    static void configure(Args a, RunOptions o) throws UsageException {
        o.freezeIdle = a.get(FLAG);
        if (o.freezeIdle && (o.remote != null || o.clients != null)) {
            throw new UsageException("--freeze-idle stops the idle variants' local brokers: not with " + (o.remote != null
                ? "--remote (the brokers run elsewhere)" : "--clients (one broker serves every client)"));
        }
        if (o.freezeIdle && longestFreezeSeconds(o.variants.size(), o.windowSeconds) > HA_SAFE.getSeconds()) {
            throw new UsageException(String.format(Locale.ROOT, "--freeze-idle with %d variants and %d s windows would keep the first "
                + "variant stopped about %d s (the other variants' windows of a pair and its mirror, each with its %d s continue), "
                + "past %d s: a master and slave stopped 20 s drop their HA connection. Compare two variants at a time, with "
                + "--window %d or less", o.variants.size(), o.windowSeconds,
                longestFreezeSeconds(o.variants.size(), o.windowSeconds), THAW_SETTLE.getSeconds(),
                HA_SAFE.getSeconds(), longestWindowSeconds()));
        }
    }

    /** Per variant (in variant order), its master's and (ms-sync) its slave's JVM, signalled by kill(1). */
    static IdleFreeze of(List<LocalCluster> clusters, List<Long> masters) {
        List<List<Long>> pids = new ArrayList<>();
        for (int i = 0; i < masters.size(); i++) {
            List<Long> own = new ArrayList<>(List.of(masters.get(i)));
            if (clusters.get(i).slaveProcess() != null) {
                own.add(clusters.get(i).slaveProcess().pid());
            }
            pids.add(own);
        }
        return new IdleFreeze(pids, KILL, THAW_SETTLE);
    }

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
    /** Per variant: stopped now, and System.nanoTime() when it was (nanoTime has no fixed origin: no sentinel value). */
    private final boolean[] frozen;
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
        this.frozen = new boolean[pids.size()];
        this.frozenSince = new long[pids.size()];
    }

    /** Stops every variant that runs. */
    void freezeAll() throws IOException {
        for (int v = 0; v < pids.size(); v++) {
            freeze(v);
        }
    }

    /** Stops variant {@code v}'s brokers (nothing when already stopped). */
    void freeze(int v) throws IOException {
        if (frozen[v]) {
            return;
        }
        for (long pid : pids.get(v)) {
            signals.send(pid, true);
        }
        frozen[v] = true;
        frozenSince[v] = System.nanoTime();
        freezes++;
    }

    /** Continues variant {@code v}'s brokers and waits the settle; nothing when it runs. */
    void thaw(int v) throws IOException, InterruptedException {
        if (!frozen[v]) {
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
        frozen[v] = false;
        if (first != null) {
            throw first;
        }
    }

    /** Whether variant {@code v}'s brokers are stopped now. */
    boolean frozen(int v) {
        return frozen[v];
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

    /** Continues every stopped variant; returns what results.json records, {@link #warning} added to {@code warnings}. */
    EfficiencyResults.FreezeIdle finish(List<String> warnings) throws IOException {
        close();
        EfficiencyResults.FreezeIdle r = new EfficiencyResults.FreezeIdle();
        r.settleSeconds = settle.toMillis() / 1000.0;
        r.freezes = freezes;
        r.longestFrozenSeconds = longest().toMillis() / 1000.0;
        if (warning() != null) {
            warnings.add(warning());
        }
        return r;
    }

    /** Continues every stopped variant at once (no settle). */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (int v = 0; v < pids.size(); v++) {
            if (frozen[v]) {
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
