package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.remoting.netty.RequestTask;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * P30 as processRequestCommand uses it: {@code InlineSend.submit(executor, InlineSend.requestTask(run, channel, cmd))}.
 * The counter is the JVM's, so each test leaves it at zero ({@link #nothingLeftCounted}).
 */
class InlineSendTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();

    @AfterEach
    void nothingLeftCounted() {
        InlineSend.resetPause();
        assertEquals(0, InlineSend.pending(), "every counted send released");
        channel.finishAndReleaseAll();
    }

    private RequestTask task(int code, Runnable run) {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(code, null);
        return InlineSend.requestTask(run, channel, cmd);
    }

    @Test
    void sendCodesAreRequestCodes() {
        assertEquals(org.apache.rocketmq.common.protocol.RequestCode.SEND_MESSAGE, InlineSend.SEND_MESSAGE);
        assertEquals(org.apache.rocketmq.common.protocol.RequestCode.SEND_MESSAGE_V2, InlineSend.SEND_MESSAGE_V2);
        assertEquals(org.apache.rocketmq.common.protocol.RequestCode.SEND_BATCH_MESSAGE, InlineSend.SEND_BATCH_MESSAGE);
    }

    @Test
    void anIdleExecutorsSendRunsOnTheReadingThread() throws Exception {
        for (int code : new int[] {10, 310, 320}) {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10));
            try {
                Future<?> f = InlineSend.submit(executor, task(code, () -> ranOn.set(Thread.currentThread())));
                assertTrue(f.isDone());
                assertSame(Thread.currentThread(), ranOn.get(), "code " + code);
                assertEquals(0, executor.getTaskCount(), "nothing submitted");
            } finally {
                executor.shutdownNow();
            }
        }
    }

    /** Issue 43: a send slower than the bound (here or on the executor) stops inline runs for the cool-down. */
    @Test
    void aSlowSendSendsEverySendThroughTheExecutorUntilTheCoolDownEnds() throws Exception {
        for (boolean slowOneInline : new boolean[] {true, false}) {
            InlineSend.resetPause();
            ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10));
            try {
                Runnable slow = () -> sleep(InlineSend.SLOW_MILLIS + 20);
                if (slowOneInline) {
                    assertTrue(InlineSend.submit(executor, task(310, slow)).isDone(), "the first send runs inline");
                } else {
                    // A send queued behind another runs on the executor: its slowness counts too.
                    CountDownLatch release = new CountDownLatch(1);
                    Future<?> running = executor.submit(() -> await(release));
                    InlineSend.pauseUntil(System.nanoTime() - 1); // never mind earlier tests: not paused now
                    InlineSend.PENDING.incrementAndGet(); // as if another send ran inline now
                    Future<?> queued;
                    try {
                        queued = InlineSend.submit(executor, task(310, slow));
                    } finally {
                        InlineSend.PENDING.decrementAndGet();
                    }
                    release.countDown();
                    running.get(10, TimeUnit.SECONDS);
                    queued.get(10, TimeUnit.SECONDS);
                }
                assertEquals(1, InlineSend.slowSends());
                assertTrue(InlineSend.paused(), "paused after a slow send (" + (slowOneInline ? "inline" : "executor") + ")");
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                InlineSend.submit(executor, task(310, () -> ranOn.set(Thread.currentThread()))).get(10, TimeUnit.SECONDS);
                assertNotSame(Thread.currentThread(), ranOn.get(), "while paused, an idle executor's send is the executor's");
                // The cool-down over: inline again.
                InlineSend.pauseUntil(System.nanoTime() - 1);
                assertFalse(InlineSend.paused());
                InlineSend.submit(executor, task(310, () -> ranOn.set(Thread.currentThread())));
                assertSame(Thread.currentThread(), ranOn.get(), "after the cool-down, inline again");
            } finally {
                executor.shutdownNow();
            }
        }
    }

    /** One-off slow sends (a new topic's first send) cost 10 s; recurring ones double it, up to 5 minutes. */
    @Test
    void theCoolDownDoublesWhileSlowSendsRecurAndStartsAgainAfterAQuietSpell() {
        long t = System.nanoTime();
        long s = 1_000_000_000L;
        assertEquals(10_000, InlineSend.slow(t, 60_000_000L, true));
        assertEquals(20_000, InlineSend.slow(t + 2 * s, 60_000_000L, false));
        assertEquals(40_000, InlineSend.slow(t + 4 * s, 60_000_000L, false));
        long p = 40_000;
        for (int i = 3; i < 10; i++) {
            p = InlineSend.slow(t + 2 * i * s, 60_000_000L, false);
        }
        assertEquals(300_000, p, "bounded by the longest cool-down");
        assertTrue(InlineSend.paused());
        // Six minutes after the last slow send: a new spell starts at 10 s again.
        assertEquals(10_000, InlineSend.slow(t + 18 * s + 360 * s, 60_000_000L, true));
        assertEquals(11, InlineSend.slowSends());
    }

    /** A bad bound is said on stderr and the default used: read on an IO thread, a throw would fail every send. */
    @Test
    void aBadBoundIsSaidAndTheDefaultKept() {
        String key = "rmqpatch.inlineSend.testBound";
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        try {
            System.setErr(new java.io.PrintStream(said, true));
            for (String bad : new String[] {"fifty", "0", "-5", ""}) {
                System.setProperty(key, bad);
                assertEquals(7, InlineSend.positive(key, 7), bad);
            }
            System.setProperty(key, " 120 ");
            assertEquals(120, InlineSend.positive(key, 7));
            System.clearProperty(key);
            assertEquals(7, InlineSend.positive(key, 7));
        } finally {
            System.setErr(err);
            System.clearProperty(key);
        }
        String out = said.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(out.contains("-D" + key + " must be a whole number of milliseconds above 0 (got 'fifty'); using 7"), out);
        assertEquals(4, out.lines().count(), out);
    }

    @Test
    void aFastSendPausesNothing() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10));
        try {
            for (int i = 0; i < 100; i++) {
                InlineSend.submit(executor, task(10, () -> { }));
            }
            assertEquals(0, InlineSend.slowSends());
            assertFalse(InlineSend.paused());
            assertEquals(0, executor.getTaskCount(), "every one inline");
        } finally {
            executor.shutdownNow();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void otherRequestsGoToTheExecutorAsStock() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            for (int code : new int[] {11, 34, 36, 105, 311}) {
                AtomicReference<Thread> ranOn = new AtomicReference<>();
                RequestTask t = task(code, () -> ranOn.set(Thread.currentThread()));
                assertFalse(t instanceof InlineSend.SendTask, "code " + code + " is a stock RequestTask");
                InlineSend.submit(executor, t).get(5, TimeUnit.SECONDS);
                assertNotSame(Thread.currentThread(), ranOn.get(), "code " + code);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aSendBehindAnotherIsQueuedAndRunsAfterIt() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        try {
            // The first send runs inline on another "IO thread" and blocks there: the executor is idle, but a send runs.
            Thread io1 = new Thread(() -> InlineSend.submit(executor, task(10, () -> {
                order.add("first");
                firstRunning.countDown();
                await(releaseFirst);
            })), "io-1");
            io1.start();
            assertTrue(firstRunning.await(5, TimeUnit.SECONDS));
            AtomicReference<Thread> secondOn = new AtomicReference<>();
            Future<?> second = InlineSend.submit(executor, task(310, () -> {
                order.add("second");
                secondOn.set(Thread.currentThread());
            }));
            AtomicReference<Thread> thirdOn = new AtomicReference<>();
            Future<?> third = InlineSend.submit(executor, task(10, () -> {
                order.add("third");
                thirdOn.set(Thread.currentThread());
            }));
            releaseFirst.countDown();
            io1.join(5000);
            second.get(5, TimeUnit.SECONDS);
            third.get(5, TimeUnit.SECONDS);
            assertNotSame(Thread.currentThread(), secondOn.get(), "queued, not inline, while a send ran");
            assertNotSame(Thread.currentThread(), thirdOn.get(), "queued behind the second, not inline");
            assertEquals(List.of("first", "second", "third"), order);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void whatTheTaskThrowsStaysInItsFutureAsWithSubmit() {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<?> f = InlineSend.submit(executor, task(10, () -> {
                throw new IllegalStateException("store failed");
            }));
            ExecutionException e = assertThrows(ExecutionException.class, f::get);
            assertInstanceOf(IllegalStateException.class, e.getCause());
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aRejectedSendIsNotLeftCountedAndTheRejectionReachesTheCaller() throws Exception {
        ThreadPoolExecutor full = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1));
        CountDownLatch hold = new CountDownLatch(1);
        try {
            full.submit(() -> await(hold));
            full.submit(() -> { });
            // Something pending so the next send goes to the executor: a send held inline on another thread.
            CountDownLatch inlineRunning = new CountDownLatch(1);
            Thread io = new Thread(() -> InlineSend.submit(full, task(10, () -> {
                inlineRunning.countDown();
                await(hold);
            })));
            io.start();
            assertTrue(inlineRunning.await(5, TimeUnit.SECONDS));
            assertThrows(RejectedExecutionException.class, () -> InlineSend.submit(full, task(10, () -> { })));
            assertEquals(1, InlineSend.pending(), "only the inline send still counted");
            hold.countDown();
            io.join(5000);
        } finally {
            hold.countDown();
            full.shutdownNow();
        }
    }

    @Test
    void aQueuedSendAnsweredWithoutRunningIsReleasedOnce() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(10));
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch inlineRunning = new CountDownLatch(1);
        try {
            Thread io = new Thread(() -> InlineSend.submit(executor, task(10, () -> {
                inlineRunning.countDown();
                await(hold);
            })));
            io.start();
            assertTrue(inlineRunning.await(5, TimeUnit.SECONDS));
            executor.submit(() -> await(hold));
            AtomicInteger ran = new AtomicInteger();
            RequestTask queued = task(310, ran::incrementAndGet);
            InlineSend.submit(executor, queued);
            assertEquals(2, InlineSend.pending());
            // What BrokerFastFailure does to a send that waited too long: out of the queue, stopped, answered.
            Runnable inQueue = executor.getQueue().stream().filter(r -> r != null).reduce((a, b) -> b).get();
            assertTrue(executor.getQueue().remove(inQueue));
            queued.setStopRun(true);
            queued.returnResponse(2, "[TIMEOUT_CLEAN_QUEUE]broker busy");
            queued.returnResponse(2, "again");
            queued.run();
            assertEquals(0, ran.get(), "stopped: not run");
            assertEquals(1, InlineSend.pending(), "released once, the inline send left");
            RemotingCommand answer = (RemotingCommand) channel.readOutbound();
            assertEquals(2, answer.getCode());
            hold.countDown();
            io.join(5000);
        } finally {
            hold.countDown();
            executor.shutdownNow();
        }
    }

    /**
     * Several "IO threads", each with its own connection's requests in order, against a single send worker (stock's
     * default pool): each connection's sends run in the order it sent them, never two inline at once (so at most two
     * sends at a time: one inline and the worker), and some run inline, some queued. The mix is forced, not left to
     * timing: the first send to run inline waits until every other connection has submitted 10 sends, which are then
     * queued behind it.
     */
    @Test
    void connectionsKeepTheirOrderAndSendsNeverOverlap() throws Exception {
        ExecutorService worker = Executors.newSingleThreadExecutor();
        int connections = 3;
        int perConnection = 2000;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger inlineRunning = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger inlineOverlaps = new AtomicInteger();
        AtomicInteger inline = new AtomicInteger();
        AtomicBoolean gateUsed = new AtomicBoolean();
        CountDownLatch[] tenSubmitted = new CountDownLatch[connections];
        int[][] seen = new int[connections][];
        List<Thread> ios = new ArrayList<>();
        List<Future<?>> last = Collections.synchronizedList(new ArrayList<>());
        try {
            for (int c = 0; c < connections; c++) {
                int conn = c;
                seen[c] = new int[] {-1, 0};
                tenSubmitted[c] = new CountDownLatch(10);
                Random random = new Random(42 + c);
                Thread io = new Thread(() -> {
                    Future<?> f = null;
                    for (int i = 0; i < perConnection; i++) {
                        int seq = i;
                        Thread reader = Thread.currentThread();
                        int spin = random.nextInt(200);
                        f = InlineSend.submit(worker, task(10, () -> {
                            boolean here = Thread.currentThread() == reader;
                            if (running.incrementAndGet() > 2) {
                                overlaps.incrementAndGet();
                            }
                            if (here) {
                                inline.incrementAndGet();
                                if (inlineRunning.incrementAndGet() > 1) {
                                    inlineOverlaps.incrementAndGet();
                                }
                                if (gateUsed.compareAndSet(false, true)) {
                                    for (int o = 0; o < connections; o++) {
                                        if (o != conn) {
                                            await(tenSubmitted[o]);
                                        }
                                    }
                                }
                            }
                            synchronized (seen[conn]) {
                                if (seen[conn][0] != seq - 1) {
                                    seen[conn][1]++;
                                }
                                seen[conn][0] = seq;
                            }
                            for (int s = 0; s < spin; s++) {
                                Thread.onSpinWait();
                            }
                            if (here) {
                                inlineRunning.decrementAndGet();
                            }
                            running.decrementAndGet();
                        }));
                        tenSubmitted[conn].countDown();
                    }
                    last.add(f);
                }, "io-" + c);
                ios.add(io);
            }
            ios.forEach(Thread::start);
            for (Thread io : ios) {
                io.join(60_000);
            }
            for (Future<?> f : last) {
                f.get(60, TimeUnit.SECONDS);
            }
            for (int c = 0; c < connections; c++) {
                assertEquals(perConnection - 1, seen[c][0], "connection " + c + " ran all its sends");
                assertEquals(0, seen[c][1], "connection " + c + " sends out of order");
            }
            assertEquals(0, inlineOverlaps.get(), "two sends ran inline at once");
            assertEquals(0, overlaps.get(), "more than one inline send and the worker at once");
            assertTrue(inline.get() > 0, "some sends ran inline");
            assertTrue(inline.get() <= connections * perConnection - 10 * (connections - 1),
                "the other connections' first sends were queued behind the held inline one: " + inline.get());
        } finally {
            worker.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
