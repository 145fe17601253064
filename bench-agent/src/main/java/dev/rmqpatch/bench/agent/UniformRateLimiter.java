package dev.rmqpatch.bench.agent;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Hands out evenly spaced intended send times for a fixed rate, shared by all threads of an agent. The schedule is
 * fixed when the limiter starts and never moves: when the broker stalls, the sends that should have happened
 * meanwhile keep their original intended times and start late. Recording that lateness (send delay) next to the
 * service latency is how OpenMessaging Benchmark avoids coordinated omission, where a stalled load generator quietly
 * stops sending and the stall never shows up in the latency figures.
 */
public final class UniformRateLimiter {
    /** A source of {@link System#nanoTime()}-like time; replaceable in tests. */
    public interface NanoClock {
        long nanoTime();
    }

    /** Waits for a number of nanoseconds; replaceable in tests. */
    public interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    /** Longest single wait, so a stop request is seen promptly even at very low rates. */
    static final long MAX_WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final double nanosPerPermit;
    private final NanoClock clock;
    private final Sleeper sleeper;
    private final AtomicLong issued = new AtomicLong();
    private volatile long startNanos;
    private volatile boolean started;

    public UniformRateLimiter(double permitsPerSecond) {
        this(permitsPerSecond, System::nanoTime, nanos -> {
            LockSupport.parkNanos(nanos);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        });
    }

    public UniformRateLimiter(double permitsPerSecond, NanoClock clock, Sleeper sleeper) {
        if (!(permitsPerSecond > 0) || Double.isInfinite(permitsPerSecond)) {
            throw new IllegalArgumentException("rate must be a positive number of permits per second, not " + permitsPerSecond);
        }
        this.nanosPerPermit = TimeUnit.SECONDS.toNanos(1) / permitsPerSecond;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Fixes the schedule: permit n is intended for {@code startNanos + n / rate}. */
    public void start(long startNanos) {
        issued.set(0);
        this.startNanos = startNanos;
        started = true;
    }

    public void start() {
        start(clock.nanoTime());
    }

    /**
     * Takes the next permit without waiting and returns its intended time: for callers that schedule the send
     * themselves (the wire agent's event loop) instead of blocking a thread.
     */
    public long next() {
        if (!started) {
            throw new IllegalStateException("start() the limiter first");
        }
        long n = issued.getAndIncrement();
        return startNanos + (long) (n * nanosPerPermit);
    }

    /**
     * Takes the next permit and waits until its intended time (not at all when the schedule is already behind).
     * Returns the intended time; {@code keepWaiting} is polled between wait slices, and when it turns false the
     * method returns early without having reached the intended time.
     */
    public long acquire(BooleanSupplier keepWaiting) throws InterruptedException {
        if (!started) {
            throw new IllegalStateException("start() the limiter first");
        }
        long intended = next();
        await(intended, keepWaiting);
        return intended;
    }

    /**
     * Waits until {@code intendedNanos}, a permit's time from {@link #next()}; {@code keepWaiting} is polled between
     * wait slices, and when it turns false the method returns early.
     */
    public void await(long intendedNanos, BooleanSupplier keepWaiting) throws InterruptedException {
        while (keepWaiting.getAsBoolean()) {
            long wait = intendedNanos - clock.nanoTime();
            if (wait <= 0) {
                break;
            }
            sleeper.sleep(Math.min(wait, MAX_WAIT_SLICE_NANOS));
        }
    }
}
