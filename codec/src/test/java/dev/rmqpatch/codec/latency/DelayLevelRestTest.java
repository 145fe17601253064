package dev.rmqpatch.codec.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.DispatchRequest;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P40's rest of a caught-up delay level, on a real DefaultMessageStore (loaded, not started) whose consume queues are
 * written by stock's {@code putMessagePositionInfo}, with a real scheduled executor that records what it is asked to
 * schedule and a real {@code java.util.Timer}: what rests, what runs and when it is scheduled as stock's. No timing
 * is asserted; waits are for things that must happen.
 */
class DelayLevelRestTest {

    private static final long WHILE_MS = 100; // stock's DELAY_FOR_A_WHILE

    @TempDir
    Path dir;

    private DefaultMessageStore store;
    private RecordingExecutor executor;
    private ConsumeQueue level1;
    private long physicalOffset;

    @BeforeEach
    void store() throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.toString());
        config.setStorePathCommitLog(dir.resolve("commitlog").toString());
        store = new DefaultMessageStore(config, null, null, new BrokerConfig());
        assertTrue(store.load());
        executor = new RecordingExecutor();
        level1 = store.findConsumeQueue(DelayLevelRest.SCHEDULE_TOPIC, 0);
    }

    @AfterEach
    void stop() {
        executor.shutdownNow();
        dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0); // resumes (and so drops) a rest a failed test left
        store.shutdown();
    }

    @Test
    void theTopicIsStocks() {
        assertEquals(TopicValidator.RMQ_SYS_SCHEDULE_TOPIC, DelayLevelRest.SCHEDULE_TOPIC);
    }

    @Test
    void aCaughtUpLevelRestsUntilADispatchToItsQueueThenRunsAtOnce() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Runnable task = ran::countDown;
        assertNull(DelayLevelRest.indexBuffer(level1, 0), "an empty queue");
        assertNull(DelayLevelRest.schedule(executor, task, WHILE_MS, TimeUnit.MILLISECONDS), "rests");
        assertTrue(executor.delays.isEmpty(), "scheduled nowhere: " + executor.delays);
        assertTrue(DelayLevelRest.rests(level1));

        dispatch("SomeTopic", 0);
        dispatch(DelayLevelRest.SCHEDULE_TOPIC, 1); // another level's queue
        assertTrue(DelayLevelRest.rests(level1), "only its own queue's dispatch ends the rest");
        assertEquals(1, ran.getCount());

        dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0);
        assertFalse(DelayLevelRest.rests(level1));
        assertTrue(ran.await(30, TimeUnit.SECONDS), "run at once after the dispatch");
        assertEquals(1, executor.executed.get());
        SelectMappedBufferResult entry = DelayLevelRest.indexBuffer(level1, 0);
        assertNotNull(entry, "the entry was written before the task ran");
        entry.release();
    }

    @Test
    void everyOtherRunIsScheduledAsStocks() throws Exception {
        dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0);
        SelectMappedBufferResult entry = DelayLevelRest.indexBuffer(level1, 0);
        assertNotNull(entry);
        entry.release();
        assertNotNull(DelayLevelRest.schedule(executor, () -> { }, WHILE_MS, TimeUnit.MILLISECONDS),
            "an entry to deliver: stock's 100 ms");
        assertNotNull(DelayLevelRest.schedule(executor, () -> { }, WHILE_MS, TimeUnit.MILLISECONDS),
            "no read on this thread before: stock's");
        assertNull(DelayLevelRest.indexBuffer(level1, 1));
        assertNotNull(DelayLevelRest.schedule(executor, () -> { }, 10_000, TimeUnit.MILLISECONDS),
            "caught up, but a longer delay (the back-off after a throw) is stock's");
        assertNotNull(DelayLevelRest.schedule(executor, () -> { }, WHILE_MS, TimeUnit.MILLISECONDS),
            "the catch-up is taken by the first schedule after it");
        assertNull(DelayLevelRest.indexBuffer(level1, 7), "past the end (stock logs it and resets to the end)");
        assertNotNull(DelayLevelRest.schedule(executor, () -> { }, WHILE_MS, TimeUnit.MILLISECONDS),
            "not at the end: stock's");
        assertEquals(List.of(WHILE_MS, WHILE_MS, 10_000L, WHILE_MS, WHILE_MS), executor.delays);
        assertFalse(DelayLevelRest.rests(level1));
    }

    @Test
    void anEntryThatCameBetweenTheReadAndTheRestIsNotMissed() {
        assertNull(DelayLevelRest.indexBuffer(level1, 0), "caught up");
        dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0); // no rest yet: nothing to resume
        assertNotNull(DelayLevelRest.schedule(executor, () -> { }, WHILE_MS, TimeUnit.MILLISECONDS),
            "the queue's end moved: scheduled as stock's");
        assertEquals(List.of(WHILE_MS), executor.delays);
        assertFalse(DelayLevelRest.rests(level1));
    }

    @Test
    void aRestOfAStoppedServiceIsDroppedNotRun() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        assertNull(DelayLevelRest.indexBuffer(level1, 0));
        assertNull(DelayLevelRest.schedule(executor, runs::incrementAndGet, WHILE_MS, TimeUnit.MILLISECONDS));
        executor.shutdownNow();
        dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0); // must not throw into the dispatch thread
        assertFalse(DelayLevelRest.rests(level1));
        assertEquals(0, runs.get());

        RecordingExecutor other = new RecordingExecutor();
        ConsumeQueue level2 = store.findConsumeQueue(DelayLevelRest.SCHEDULE_TOPIC, 1);
        try {
            assertNull(DelayLevelRest.indexBuffer(level2, 0));
            assertNull(DelayLevelRest.schedule(other, runs::incrementAndGet, WHILE_MS, TimeUnit.MILLISECONDS));
            other.shutdownNow();
            assertNull(DelayLevelRest.indexBuffer(level1, 1));
            RecordingExecutor next = new RecordingExecutor();
            try {
                assertNull(DelayLevelRest.schedule(next, runs::incrementAndGet, WHILE_MS, TimeUnit.MILLISECONDS));
                assertFalse(DelayLevelRest.rests(level2), "the stopped service's rest dropped at the next rest");
                assertTrue(DelayLevelRest.rests(level1));
            } finally {
                next.shutdownNow();
            }
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void on490sTimerTheRestEndsTheSameWay() throws Exception {
        Timer timer = new Timer("DelayLevelRestTest", true);
        try {
            CountDownLatch ran = new CountDownLatch(1);
            assertNull(DelayLevelRest.indexBuffer(level1, 0));
            DelayLevelRest.schedule(timer, task(ran), WHILE_MS);
            assertTrue(DelayLevelRest.rests(level1));
            dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0);
            assertTrue(ran.await(30, TimeUnit.SECONDS), "run by the timer after the dispatch");

            CountDownLatch later = new CountDownLatch(1);
            DelayLevelRest.schedule(timer, task(later), WHILE_MS); // no catch-up before it: stock's
            assertTrue(later.await(30, TimeUnit.SECONDS));
            assertFalse(DelayLevelRest.rests(level1));

            assertNull(DelayLevelRest.indexBuffer(level1, 1));
            DelayLevelRest.schedule(timer, task(new CountDownLatch(1)), WHILE_MS);
            timer.cancel(); // the service stopped: 4.9.0's shutdown cancels its timer
            dispatch(DelayLevelRest.SCHEDULE_TOPIC, 0); // must not throw into the dispatch thread
            assertFalse(DelayLevelRest.rests(level1));
        } finally {
            timer.cancel();
        }
    }

    private static TimerTask task(CountDownLatch ran) {
        return new TimerTask() {
            @Override
            public void run() {
                ran.countDown();
            }
        };
    }

    /** One message's entry dispatched as the store's dispatcher does, through the replaced call. */
    private void dispatch(String topic, int queueId) {
        ConsumeQueue cq = store.findConsumeQueue(topic, queueId);
        long next = cq.getMaxOffsetInQueue();
        DispatchRequest request = new DispatchRequest(topic, queueId, physicalOffset, 100, System.currentTimeMillis(),
            System.currentTimeMillis(), next, null, null, 0, 0, new HashMap<String, String>());
        physicalOffset += 100;
        DelayLevelRest.putMessagePositionInfo(store, request);
        assertEquals(next + 1, cq.getMaxOffsetInQueue(), "stock's write");
    }

    /** A real executor that records the delay (ms) of every one-shot schedule and counts what it executes. */
    private static final class RecordingExecutor extends ScheduledThreadPoolExecutor {
        final List<Long> delays = new CopyOnWriteArrayList<>();
        final AtomicInteger executed = new AtomicInteger();

        RecordingExecutor() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            delays.add(unit.toMillis(delay));
            return super.schedule(command, delay, unit);
        }

        @Override
        public void execute(Runnable command) {
            executed.incrementAndGet();
            super.execute(command);
        }
    }
}
