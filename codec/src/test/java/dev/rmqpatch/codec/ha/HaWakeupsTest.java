package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.apache.rocketmq.store.ha.WaitNotifyObject;
import org.junit.jupiter.api.Test;

/**
 * P16 against stock 4.9.0's {@code WaitNotifyObject} (the unpatched class on the test class path), driven as the master
 * drives it: put threads call {@code wakeupAll}, HA write threads look for work and call {@code allWaitForRunning}.
 * Random histories must give the same observable outcome (which waits block, which return at once, which blocked
 * waits a wake-up or an interrupt releases, whether the interrupt is still set after) on both; a stress run of many
 * puts and waiters must lose no wake-up on either. Waits use a one-hour interval, so a wait that ends was woken: a lost
 * wake-up shows as a thread still waiting after {@link #LOST_AFTER_MS}, a bound on liveness, not a timing measurement.
 */
class HaWakeupsTest {

    /** The interval of the waits under test: long enough that a wait which ends was woken, not timed out. */
    private static final long NEVER = TimeUnit.HOURS.toMillis(1);
    /** How long a woken thread may take to return before the test calls the wake-up lost. */
    private static final long LOST_AFTER_MS = 60_000;
    /** In the stress run, how many puts a producer makes between two points where it lets a waiter go back to wait. */
    private static final long GATE = 1_000;

    /** The three calls, on stock's class or through P16's hooks. */
    interface Wakeups {
        void wakeupAll(WaitNotifyObject o);

        void allWaitForRunning(WaitNotifyObject o, long interval);

        void removeFromWaitingThreadTable(WaitNotifyObject o);
    }

    static final Wakeups STOCK = new Wakeups() {
        @Override
        public void wakeupAll(WaitNotifyObject o) {
            o.wakeupAll();
        }

        @Override
        public void allWaitForRunning(WaitNotifyObject o, long interval) {
            o.allWaitForRunning(interval);
        }

        @Override
        public void removeFromWaitingThreadTable(WaitNotifyObject o) {
            o.removeFromWaitingThreadTable();
        }

        @Override
        public String toString() {
            return "stock";
        }
    };

    static final Wakeups PATCHED = new Wakeups() {
        @Override
        public void wakeupAll(WaitNotifyObject o) {
            assertTrue(HaWakeups.wakeupAll(o));
        }

        @Override
        public void allWaitForRunning(WaitNotifyObject o, long interval) {
            assertTrue(HaWakeups.allWaitForRunning(o, interval));
        }

        @Override
        public void removeFromWaitingThreadTable(WaitNotifyObject o) {
            assertTrue(HaWakeups.removeFromWaitingThreadTable(o));
        }

        @Override
        public String toString() {
            return "patched";
        }
    };

    @Test
    void randomHistoriesHaveStocksOutcomes() throws Exception {
        int blocked = 0;
        int immediate = 0;
        for (long seed = 1; seed <= 30; seed++) {
            List<String> stock = history(STOCK, seed, 40);
            List<String> patched = history(PATCHED, seed, 40);
            assertEquals(stock, patched, "seed " + seed);
            for (String line : stock) {
                blocked += line.endsWith("blocks") ? 1 : 0;
                immediate += line.contains("returns at once") ? 1 : 0;
            }
        }
        assertTrue(blocked > 100 && immediate > 100, "histories exercise both: " + blocked + " blocked, "
            + immediate + " at once");
    }

    @Test
    void manyPutsAndWaitersLoseNoWakeUp() throws Exception {
        // Stock only once its threads are in the table (see stockMissesAPutDuringAThreadsFirstWait).
        assertEquals(List.of(), stress(STOCK, true));
        assertEquals(List.of(), stress(PATCHED, true));
        assertEquals(List.of(), stress(PATCHED, false), "threads entering the table while puts run");
    }

    /** The check above can fail: stock's first wait, before the thread is in the table, misses a put. */
    @Test
    void stockMissesAPutDuringAThreadsFirstWaitPatchedDoesNot() throws Exception {
        WaitNotifyObject o = new WaitNotifyObject();
        try (Worker w = new Worker("stock-first-wait")) {
            CompletableFuture<Boolean> first = w.call(() -> STOCK.allWaitForRunning(o, NEVER), false);
            assertTrue(w.blocks(first));
            STOCK.wakeupAll(o);
            assertThrows(TimeoutException.class, () -> first.get(1, TimeUnit.SECONDS), "stock: the put is lost");
            w.thread.interrupt();
            first.get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
        }
        WaitNotifyObject p = new WaitNotifyObject();
        try (Worker w = new Worker("patched-first-wait")) {
            CompletableFuture<Boolean> first = w.call(() -> PATCHED.allWaitForRunning(p, NEVER), false);
            assertFalse(w.blocks(first), "the first wait returns at once");
            CompletableFuture<Boolean> second = w.call(() -> PATCHED.allWaitForRunning(p, NEVER), false);
            assertTrue(w.blocks(second));
            PATCHED.wakeupAll(p);
            assertFalse(second.get(LOST_AFTER_MS, TimeUnit.MILLISECONDS), "woken by the put");
        }
    }

    @Test
    void aWaitWithoutAPutLastsItsInterval() throws Exception {
        WaitNotifyObject o = new WaitNotifyObject();
        PATCHED.allWaitForRunning(o, NEVER);
        long start = System.nanoTime();
        PATCHED.allWaitForRunning(o, 50);
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "not before its interval");
    }

    @Test
    void aPutWhileTheThreadWorksMakesOnlyItsNextWaitReturnAtOnce() throws Exception {
        for (Wakeups impl : List.of(STOCK, PATCHED)) {
            WaitNotifyObject o = new WaitNotifyObject();
            try (Worker w = new Worker("writer")) {
                w.call(() -> impl.allWaitForRunning(o, 1), false).get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
                impl.wakeupAll(o);
                impl.wakeupAll(o);
                assertFalse(w.blocks(w.call(() -> impl.allWaitForRunning(o, NEVER), false)), impl + ": notified");
                CompletableFuture<Boolean> next = w.call(() -> impl.allWaitForRunning(o, NEVER), false);
                assertTrue(w.blocks(next), impl + ": two puts notify once");
                impl.wakeupAll(o);
                next.get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Test
    void aRemovedThreadLeavesTheTable() throws Exception {
        WaitNotifyObject o = new WaitNotifyObject();
        try (Worker a = new Worker("a"); Worker b = new Worker("b")) {
            a.call(() -> PATCHED.allWaitForRunning(o, 1), false).get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            b.call(() -> PATCHED.allWaitForRunning(o, 1), false).get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            assertEquals(2, HaWakeups.waiting(o));
            a.call(() -> PATCHED.removeFromWaitingThreadTable(o), false).get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            assertEquals(1, HaWakeups.waiting(o));
            CompletableFuture<Boolean> waiting = b.call(() -> PATCHED.allWaitForRunning(o, NEVER), false);
            assertTrue(b.blocks(waiting));
            PATCHED.wakeupAll(o);
            waiting.get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            b.call(() -> PATCHED.removeFromWaitingThreadTable(o), false).get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            assertEquals(0, HaWakeups.waiting(o));
        }
    }

    @Test
    void aNegativeIntervalFailsAsStocksWaitDoes() {
        for (Wakeups impl : List.of(STOCK, PATCHED)) {
            WaitNotifyObject o = new WaitNotifyObject();
            impl.allWaitForRunning(o, 1);
            assertThrows(IllegalArgumentException.class, () -> impl.allWaitForRunning(o, -1), impl.toString());
            impl.wakeupAll(o);
            impl.allWaitForRunning(o, -1);
        }
    }

    @Test
    void aSubclassIsLeftToStock() {
        WaitNotifyObject sub = new WaitNotifyObject() {
        };
        assertFalse(HaWakeups.wakeupAll(sub));
        assertFalse(HaWakeups.allWaitForRunning(sub, 1));
        assertFalse(HaWakeups.removeFromWaitingThreadTable(sub));
    }

    /**
     * A random history on three waiting threads, each in the table first; one line per step: a put, a wait (blocks or
     * returns at once, and whether the thread is still interrupted after), a wait entered interrupted, or an
     * interrupt of a blocked wait; after a put or an interrupt, which blocked waits it released.
     */
    private static List<String> history(Wakeups impl, long seed, int steps) throws Exception {
        WaitNotifyObject o = new WaitNotifyObject();
        Random random = new Random(seed);
        List<String> out = new ArrayList<>();
        Worker[] workers = new Worker[3];
        @SuppressWarnings("unchecked")
        CompletableFuture<Boolean>[] blocked = new CompletableFuture[workers.length];
        try {
            for (int i = 0; i < workers.length; i++) {
                workers[i] = new Worker(impl + "-" + seed + "-" + i);
                workers[i].call(() -> impl.allWaitForRunning(o, 1), false).get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            }
            for (int step = 0; step < steps; step++) {
                for (int j = 0; j < workers.length; j++) {
                    if (blocked[j] != null && blocked[j].isDone()) {
                        out.add(j + " returned unwoken");
                        blocked[j] = null;
                    }
                }
                int i = random.nextInt(workers.length);
                int kind = random.nextInt(10);
                if (kind < 4) {
                    impl.wakeupAll(o);
                    out.add("put released " + release(workers, blocked, false));
                } else if (blocked[i] != null) {
                    workers[i].thread.interrupt();
                    CompletableFuture<Boolean> f = blocked[i];
                    blocked[i] = null;
                    out.add("interrupt " + i + " released " + outcome(workers[i], f));
                } else {
                    boolean interrupted = kind >= 8;
                    CompletableFuture<Boolean> f = workers[i].call(() -> impl.allWaitForRunning(o, NEVER), interrupted);
                    String wait = (interrupted ? "interrupted wait " : "wait ") + i;
                    if (workers[i].blocks(f)) {
                        blocked[i] = f;
                        out.add(wait + " blocks");
                    } else {
                        out.add(wait + " returns at once, still interrupted " + f.get());
                    }
                }
            }
            out.add("end released " + release(workers, blocked, true));
        } finally {
            for (Worker w : workers) {
                if (w != null) {
                    w.close();
                }
            }
        }
        return out;
    }

    /** Waits for every blocked wait to return (interrupting it first when {@code interrupt}); what each ended with. */
    private static List<String> release(Worker[] workers, CompletableFuture<Boolean>[] blocked, boolean interrupt)
        throws Exception {
        List<String> released = new ArrayList<>();
        for (int j = 0; j < workers.length; j++) {
            if (blocked[j] != null) {
                if (interrupt) {
                    workers[j].thread.interrupt();
                }
                released.add(j + ": " + outcome(workers[j], blocked[j]));
                blocked[j] = null;
            }
        }
        return released;
    }

    private static String outcome(Worker w, CompletableFuture<Boolean> f) throws Exception {
        try {
            return "still interrupted " + f.get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            w.thread.interrupt();
            f.get(LOST_AFTER_MS, TimeUnit.MILLISECONDS);
            return "NOT WOKEN";
        }
    }

    /**
     * Producers each put and call wakeupAll; waiters, as HA write threads, look for new puts and wait when there are
     * none, until they have seen every put. Returns the waiters that missed a wake-up (empty when none did).
     */
    private static List<String> stress(Wakeups impl, boolean enterFirst) throws Exception {
        WaitNotifyObject o = new WaitNotifyObject();
        int producers = 3;
        int waiters = 3;
        long total = producers * 20_000L;
        AtomicLong published = new AtomicLong();
        AtomicLongArray seen = new AtomicLongArray(waiters);
        AtomicLong waits = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(waiters);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            int me = i;
            threads.add(new Thread(() -> {
                if (enterFirst) {
                    impl.allWaitForRunning(o, 1);
                }
                ready.countDown();
                awaitQuietly(go);
                long mine = 0;
                while (mine < total) {
                    long now = published.get();
                    if (now > mine) {
                        mine = now;
                        seen.set(me, mine);
                        continue;
                    }
                    waits.incrementAndGet();
                    impl.allWaitForRunning(o, NEVER);
                }
                impl.removeFromWaitingThreadTable(o);
            }, impl + "-waiter-" + i));
        }
        // Every GATE puts a producer waits until some waiter, having seen that put, has gone back to wait: so the waits
        // (and the races between a put and a thread entering its wait) happen however the threads are scheduled, also
        // on a busy machine where the puts would otherwise all run before any waiter. A producer never waits past
        // LOST_AFTER_MS: a lost wake-up then shows as a waiter still waiting, below.
        long perProducer = total / producers;
        List<Thread> puts = new ArrayList<>();
        for (int i = 0; i < producers; i++) {
            puts.add(new Thread(() -> {
                awaitQuietly(go);
                for (long n = 1; n <= perProducer; n++) {
                    long waitsBefore = waits.get();
                    published.incrementAndGet();
                    impl.wakeupAll(o);
                    if (n % GATE == 0 && n < perProducer) {
                        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOST_AFTER_MS);
                        while (waits.get() == waitsBefore && System.nanoTime() < giveUp) {
                            Thread.yield();
                        }
                    }
                }
            }, impl + "-put-" + i));
        }
        threads.forEach(Thread::start);
        puts.forEach(Thread::start);
        assertTrue(ready.await(LOST_AFTER_MS, TimeUnit.MILLISECONDS));
        go.countDown();
        for (Thread t : puts) {
            t.join();
        }
        long deadline = System.currentTimeMillis() + LOST_AFTER_MS;
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            Thread t = threads.get(i);
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (t.isAlive()) {
                lost.add(t.getName() + " waits having seen " + seen.get(i) + " of " + total + " puts");
                t.interrupt();
                t.join();
            }
        }
        long gates = producers * ((perProducer - 1) / GATE);
        assertTrue(lost.size() > 0 || waits.get() >= gates / producers,
            impl + ": the waiters waited " + waits.get() + " times, fewer than one producer's " + gates / producers + " gates");
        if (impl == PATCHED) {
            assertEquals(0, HaWakeups.waiting(o), "every waiter left the table");
        }
        return lost;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A thread that runs the calls given to it, one at a time, so that a history's waits come from fixed threads. */
    static final class Worker implements AutoCloseable {
        final Thread thread;
        private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
        private volatile boolean inCall;
        private volatile boolean closed;

        Worker(String name) {
            thread = new Thread(this::loop, name);
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            while (!closed) {
                try {
                    tasks.take().run();
                } catch (InterruptedException e) {
                    // An interrupt meant for a call that had already returned.
                }
            }
        }

        /** Runs {@code call} on this thread (interrupted first when asked); completes with "still interrupted after". */
        CompletableFuture<Boolean> call(Runnable call, boolean interruptFirst) {
            CompletableFuture<Boolean> f = new CompletableFuture<>();
            tasks.add(() -> {
                if (interruptFirst) {
                    Thread.currentThread().interrupt();
                }
                inCall = true;
                try {
                    call.run();
                } catch (Throwable t) {
                    inCall = false;
                    Thread.interrupted();
                    f.completeExceptionally(t);
                    return;
                }
                inCall = false;
                f.complete(Thread.interrupted());
            });
            return f;
        }

        /** True once the call waits inside (parked or in Object.wait), false once it has returned without waiting. */
        boolean blocks(CompletableFuture<Boolean> f) throws InterruptedException, ExecutionException {
            long deadline = System.currentTimeMillis() + LOST_AFTER_MS;
            while (System.currentTimeMillis() < deadline) {
                if (f.isDone()) {
                    f.get();
                    return false;
                }
                // The state first: if the call is still running after it was read, the wait it shows is the call's.
                // A call that returns at once can pass through a short wait of its own (stock logs the interrupt it
                // catches, and a logger may wait for a lock): only a wait whose waiting frame is the wake-up code's
                // (WaitNotifyObject's or HaWakeups') counts as blocking, whatever the machine's load.
                // Seen twice, a few milliseconds apart: a call passing through a short wait elsewhere and then back
                // into the wake-up code's frames (stock's catch and finally) is not mistaken for one that blocks.
                if (waiting() && inCall && waitsInWakeupCode() && !f.isDone()) {
                    Thread.sleep(3);
                    if (waiting() && inCall && waitsInWakeupCode() && !f.isDone()) {
                        return true;
                    }
                }
                Thread.sleep(1);
            }
            throw new AssertionError(thread.getName() + " neither returned nor waited");
        }

        /**
         * The stack, taken now, is in Object.wait or a park (its top frame), and the first frame below it and the JDK
         * frames it calls is the wake-up code's. (The thread state read before the stack can be a moment older than
         * it: a thread that waited in its logger and has since returned into WaitNotifyObject's finally is running.)
         */
        private boolean waitsInWakeupCode() {
            StackTraceElement[] stack = thread.getStackTrace();
            if (stack.length == 0 || !isWaitFrame(stack[0])) {
                return false;
            }
            for (StackTraceElement e : stack) {
                String c = e.getClassName();
                if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.")) {
                    continue;
                }
                return c.endsWith(".WaitNotifyObject") || c.endsWith(".HaWakeups") || c.contains(".HaWakeups$");
            }
            return false;
        }

        private static boolean isWaitFrame(StackTraceElement top) {
            String m = top.getMethodName();
            return top.getClassName().equals("java.lang.Object") && m.startsWith("wait")
                || m.equals("park") || m.equals("parkNanos");
        }

        private boolean waiting() {
            Thread.State s = thread.getState();
            return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        }

        @Override
        public void close() {
            closed = true;
            tasks.add(() -> { });
        }
    }
}
