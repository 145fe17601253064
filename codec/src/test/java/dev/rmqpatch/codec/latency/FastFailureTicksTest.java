package dev.rmqpatch.codec.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P39's rescheduling of stock's fast-failure check, on a real BrokerController and DefaultMessageStore (built, not
 * started) and a real scheduled executor that records the delays it is given: no timing is asserted, only the delays
 * the code asks for and what runs.
 */
class FastFailureTicksTest {

    private static final long PERIOD_MS = 10;
    private static final long MS = 1_000_000L;

    @TempDir
    Path store;

    private final BrokerConfig brokerConfig = new BrokerConfig();
    private final MessageStoreConfig storeConfig = new MessageStoreConfig();
    private BrokerController controller;
    private DefaultMessageStore messageStore;
    private RecordingExecutor executor;

    private BrokerController controller() throws Exception {
        storeConfig.setStorePathRootDir(store.toString());
        storeConfig.setStorePathCommitLog(store.resolve("commitlog").toString());
        controller = new BrokerController(brokerConfig, new NettyServerConfig(), new NettyClientConfig(), storeConfig);
        messageStore = new DefaultMessageStore(storeConfig, null, null, brokerConfig);
        controller.setMessageStore(messageStore);
        return controller;
    }

    @AfterEach
    void stop() {
        if (executor != null) {
            executor.shutdownNow();
        }
        if (messageStore != null) {
            messageStore.shutdown();
        }
    }

    @Test
    void quietWhileEveryQueueIsEmptyAndNoPutHoldsTheLock() throws Exception {
        BrokerController c = controller();
        FastFailureTicks ticks = firstTick(c);
        assertEquals(100 * MS, ticks.quietNanos(c), "stock's defaults: the 100 ms limit");

        brokerConfig.setWaitTimeMillsInSendQueue(30);
        assertEquals(30 * MS, ticks.quietNanos(c), "never longer than the send queue's limit");
        brokerConfig.setWaitTimeMillsInSendQueue(200);
        brokerConfig.setWaitTimeMillsInHeartbeatQueue(40);
        assertEquals(40 * MS, ticks.quietNanos(c), "nor the heartbeat queue's");
        brokerConfig.setWaitTimeMillsInHeartbeatQueue(31_000);
        storeConfig.setOsPageCacheBusyTimeOutMills(50);
        assertEquals(50 * MS, ticks.quietNanos(c), "nor the page-cache busy limit");
        storeConfig.setOsPageCacheBusyTimeOutMills(3);
        assertEquals(PERIOD_MS * MS, ticks.quietNanos(c), "never shorter than stock's period");
        storeConfig.setOsPageCacheBusyTimeOutMills(1_000);
    }

    @Test
    void stocksPeriodWhileAnyQueueHoldsARequestOrAPutHoldsTheLock() throws Exception {
        BrokerController c = controller();
        FastFailureTicks ticks = firstTick(c);
        for (LinkedBlockingQueue<Runnable> q : List.of(
                (LinkedBlockingQueue<Runnable>) c.getSendThreadPoolQueue(),
                (LinkedBlockingQueue<Runnable>) c.getPullThreadPoolQueue(),
                (LinkedBlockingQueue<Runnable>) c.getHeartbeatThreadPoolQueue(),
                (LinkedBlockingQueue<Runnable>) c.getEndTransactionThreadPoolQueue())) {
            q.add(() -> { });
            assertEquals(0, ticks.quietNanos(c), "a queued request");
            q.clear();
        }
        assertEquals(100 * MS, ticks.quietNanos(c));

        Field begin = CommitLog.class.getDeclaredField("beginTimeInLock");
        begin.setAccessible(true);
        begin.setLong(messageStore.getCommitLog(), System.currentTimeMillis());
        assertEquals(0, ticks.quietNanos(c), "a put in the lock: the page cache may turn busy");
        begin.setLong(messageStore.getCommitLog(), 0);
        assertEquals(100 * MS, ticks.quietNanos(c));

        assertEquals(0, ticks.quietNanos(null), "no broker known yet");
        c.setMessageStore(null);
        assertEquals(0, ticks.quietNanos(c), "a store that is not a DefaultMessageStore");
    }

    @Test
    void theCheckRunsThenRestsTheQuietIntervalOrStocksPeriod() throws Exception {
        BrokerController c = controller();
        executor = new RecordingExecutor();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch twice = new CountDownLatch(2);
        FastFailureTicks.scheduleAtFixedRate(executor, () -> {
            assertSame(brokerConfig, FastFailureTicks.brokerConfig(c), "stock's config");
            if (runs.incrementAndGet() == 1) {
                c.getPullThreadPoolQueue().add(() -> { }); // busy after the first run
            } else {
                c.getPullThreadPoolQueue().clear();
            }
            twice.countDown();
        }, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
        assertTrue(twice.await(30, TimeUnit.SECONDS));
        // the third run's delay is recorded by the second run before it returns; wait for it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (executor.delays.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(0, executor.delays.get(0), "the first delay is stock's");
        assertTrue(executor.delays.get(1) <= PERIOD_MS * MS, "a queued request: stock's period " + executor.delays);
        assertEquals(100 * MS, executor.delays.get(2), "quiet: the 100 ms interval " + executor.delays);
    }

    @Test
    void aShutDownExecutorOrAThrowingCheckEndsTheTicks() throws Exception {
        executor = new RecordingExecutor();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch first = new CountDownLatch(1);
        FastFailureTicks.scheduleAtFixedRate(executor, () -> {
            runs.incrementAndGet();
            first.countDown();
        }, 0, 1_000, TimeUnit.MILLISECONDS);
        assertTrue(first.await(30, TimeUnit.SECONDS));
        executor.shutdown(); // the next run, delayed 1 s, still runs once under the default policy: it must not check
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(1, runs.get(), "no check after shutdown");

        RecordingExecutor other = new RecordingExecutor();
        try {
            CountDownLatch thrown = new CountDownLatch(1);
            ScheduledFuture<?> f = FastFailureTicks.scheduleAtFixedRate(other, () -> {
                thrown.countDown();
                throw new IllegalStateException("check failed");
            }, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
            assertTrue(thrown.await(30, TimeUnit.SECONDS));
            assertThrows(java.util.concurrent.ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertEquals(1, other.delays.size(), "not rescheduled after a throw: " + other.delays);
            assertTrue(other.getQueue().isEmpty());
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void badArgumentsFailAsStocksExecutorWould() {
        executor = new RecordingExecutor();
        assertThrows(NullPointerException.class,
            () -> FastFailureTicks.scheduleAtFixedRate(executor, null, 0, PERIOD_MS, TimeUnit.MILLISECONDS));
        assertThrows(IllegalArgumentException.class,
            () -> FastFailureTicks.scheduleAtFixedRate(executor, () -> { }, 0, 0, TimeUnit.MILLISECONDS));
        assertFalse(FastFailureTicks.idle(new LinkedBlockingQueue<Runnable>(List.of(() -> { }))));
        assertTrue(FastFailureTicks.idle(new LinkedBlockingQueue<Runnable>(), null));
    }

    /** A ticks object whose broker is {@code c}, as after its first run; nothing scheduled after it. */
    private FastFailureTicks firstTick(BrokerController c) throws Exception {
        executor = new RecordingExecutor();
        CountDownLatch ran = new CountDownLatch(1);
        FastFailureTicks.scheduleAtFixedRate(executor, () -> {
            FastFailureTicks.brokerConfig(c);
            ran.countDown();
        }, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (executor.scheduled.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        executor.shutdownNow();
        return executor.scheduled.get(1);
    }

    /** A real executor that records the delay (ns) and the task of every one-shot schedule. */
    private static final class RecordingExecutor extends ScheduledThreadPoolExecutor {
        final List<Long> delays = new CopyOnWriteArrayList<>();
        final List<FastFailureTicks> scheduled = new CopyOnWriteArrayList<>();

        RecordingExecutor() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            delays.add(unit.toNanos(delay));
            scheduled.add((FastFailureTicks) command);
            return super.schedule(command, delay, unit);
        }
    }
}
