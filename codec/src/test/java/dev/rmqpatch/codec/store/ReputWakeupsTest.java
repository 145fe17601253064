package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P38's pause and signal, driven as {@code ReputMessageService.run()} and the put paths drive them. The longest park is
 * made an hour here, so a pause that parks returns only when an append (or a start that turns parking off, or an
 * interrupt) ends it: a lost wake-up fails the test by its time-out instead of hiding behind the 10 ms limit. Nothing
 * here is a timing: "returns" means within the preemptive time-outs (seconds), "parks" means the thread is seen parked
 * on this class.
 */
class ReputWakeupsTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);

    @BeforeEach
    void freshJvm() {
        ReputWakeups.reset(TimeUnit.HOURS.toMillis(1));
    }

    @AfterEach
    void restore() {
        ReputWakeups.reset(ReputWakeups.IDLE_LIMIT_MS);
    }

    @Test
    void beforeAnyStoreStartsAPauseIsStocksSleep() {
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int i = 0; i < 5; i++) {
                ReputWakeups.pause(1);
            }
        });
    }

    @Test
    void appendsBeforeEachPauseKeepStocksSleepAndFiveEmptyCyclesParkUntilTheNextAppend() throws Exception {
        ReputWakeups.started(true);
        // The first pauses are stock's sleep (a fresh store may have bytes to dispatch); then, nothing appended for
        // QUIET_CYCLES of them, the thread parks and stays parked.
        try (DispatchLoop loop = new DispatchLoop(() -> { })) {
            Thread reput = loop.thread;
            AtomicLong cycles = loop.cycles;
            long parkedAt = loop.awaitParked();
            Thread.sleep(200);
            assertTrue(ReputWakeups.parked(reput), "still parked with nothing appended");
            assertEquals(parkedAt, cycles.get(), "no dispatch while parked");
            // One append: one more dispatch at once, then parked again (nothing more came, and the park it ended
            // lasted longer than QUIET_CYCLES ms).
            ReputWakeups.appended();
            awaitCycles(cycles, parkedAt + 1);
            awaitParked(reput);
            // Appends before every cycle: the thread keeps dispatching.
            long before = cycles.get();
            for (int i = 0; i < 50; i++) {
                ReputWakeups.appended();
                Thread.sleep(1);
            }
            assertTrue(cycles.get() > before, "appends keep the loop dispatching");
        }
    }

    @Test
    void aStoreWhoseAppendsAreNotSignalledWakesAParkedThreadAndKeepsStocksSleepFromThen() throws Exception {
        ReputWakeups.started(true);
        try (DispatchLoop loop = new DispatchLoop(() -> { })) {
            long parkedAt = loop.awaitParked();
            ReputWakeups.started(false);
            awaitCycles(loop.cycles, parkedAt + 20);
            ReputWakeups.started(true);
            awaitCycles(loop.cycles, loop.cycles.get() + 20);
            Thread reput = loop.thread;
            assertFalse(ReputWakeups.parked(reput), "a transient-pool or DLedger store in the JVM: never parks again");
        }
    }

    @Test
    void whileOneDispatchThreadParksAnotherSleepsAsStockAndTakesOverWhenTheFirstEnds() throws Exception {
        ReputWakeups.started(true);
        try (DispatchLoop first = new DispatchLoop(() -> { })) {
            awaitParked(first.thread);
            try (DispatchLoop second = new DispatchLoop(() -> { })) {
                awaitCycles(second.cycles, 30);
                assertFalse(ReputWakeups.parked(second.thread), "a second store's dispatch thread keeps stock's sleep");
                first.close();
                awaitParked(second.thread);
            }
        }
    }

    @Test
    void anInterruptEndsAParkAsItEndsStocksSleep() throws Exception {
        ReputWakeups.started(true);
        AtomicReference<Throwable> thrown = new AtomicReference<Throwable>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                for (;;) {
                    ReputWakeups.pause(1);
                }
            } catch (Throwable e) {
                thrown.set(Thread.currentThread().isInterrupted() ? new AssertionError("interrupt flag left set") : e);
            } finally {
                done.countDown();
            }
        }, "ReputMessageService-test");
        t.start();
        awaitParked(t);
        t.interrupt();
        assertTrue(done.await(LIMIT.getSeconds(), TimeUnit.SECONDS));
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
    }

    /**
     * Several threads append (a counter, then the signal, as a put's bytes precede its submitFlushRequest) at random
     * moments while the dispatch thread loops as stock's run() does; after each burst the dispatch thread must see
     * the last append without the park's limit (an hour here) having passed: no wake-up is lost between the park's
     * check and a put's signal.
     */
    @Test
    void noAppendIsLeftUndispatchedWhileTheThreadParks() throws Exception {
        ReputWakeups.started(true);
        AtomicLong stored = new AtomicLong();
        AtomicLong dispatched = new AtomicLong();
        Random random = new Random(38);
        try (DispatchLoop loop = new DispatchLoop(() -> dispatched.set(stored.get()))) {
            Thread reput = loop.thread;
            for (int round = 0; round < 200; round++) {
                int appenders = 1 + random.nextInt(3);
                int each = 1 + random.nextInt(20);
                long pauseNanos = random.nextInt(4) == 0 ? 0 : random.nextInt(2_000_000);
                Thread[] threads = new Thread[appenders];
                for (int a = 0; a < appenders; a++) {
                    threads[a] = new Thread(() -> {
                        for (int i = 0; i < each; i++) {
                            stored.incrementAndGet();
                            ReputWakeups.appended();
                            if (pauseNanos > 0) {
                                LockSupport.parkNanos(pauseNanos);
                            }
                        }
                    });
                    threads[a].start();
                }
                for (Thread a : threads) {
                    a.join();
                }
                long target = stored.get();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (dispatched.get() < target) {
                    assertTrue(System.nanoTime() < deadline, "round " + round + ": " + dispatched.get() + " of "
                        + target + " dispatched; the thread is " + (ReputWakeups.parked(reput) ? "parked" : "running"));
                    Thread.sleep(1);
                }
            }
        }
    }

    /** Stock's run() loop on its own thread: pause, then the dispatch, until closed (interrupted). */
    private static final class DispatchLoop implements AutoCloseable {
        final AtomicLong cycles = new AtomicLong();
        final Thread thread;
        private final AtomicReference<Throwable> failed = new AtomicReference<Throwable>();

        DispatchLoop(Runnable doReput) {
            thread = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        ReputWakeups.pause(1);
                        doReput.run();
                        cycles.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    // closed
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "ReputMessageService-test");
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits until the thread parks; the cycles it had made by then. */
        long awaitParked() throws InterruptedException {
            ReputWakeupsTest.awaitParked(thread);
            return cycles.get();
        }

        /** Stops the loop and fails the test with whatever the loop threw. */
        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join(LIMIT.toMillis());
            assertFalse(thread.isAlive());
            assertEquals(null, failed.get());
        }
    }

    private static void awaitParked(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!ReputWakeups.parked(t)) {
            assertTrue(System.nanoTime() < deadline, t.getName() + " never parked");
            Thread.sleep(1);
        }
    }

    private static void awaitCycles(AtomicLong cycles, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (cycles.get() < atLeast) {
            assertTrue(System.nanoTime() < deadline, cycles.get() + " cycles, expected " + atLeast);
            Thread.sleep(1);
        }
    }
}
