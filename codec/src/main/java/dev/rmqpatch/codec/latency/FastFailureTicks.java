package dev.rmqpatch.codec.latency;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageStore;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * P39. The broker's fast-failure check ({@code BrokerFastFailure}) runs every 10 ms while it could find something to
 * answer, and less often while it cannot, instead of waking 100 times a second for as long as the broker runs.
 *
 * <p>Stock 4.9.x: {@code BrokerFastFailure.start()} schedules its check at a fixed rate of 10 ms. Each check answers
 * SYSTEM_BUSY to the send requests queued while the page cache is busy (a put has held the CommitLog's lock longer
 * than {@code osPageCacheBusyTimeOutMills}, 1 s by default), and to the requests that have waited in the send, pull,
 * heartbeat or end-transaction queue longer than that queue's limit ({@code waitTimeMillsInSendQueue}, 200 ms by
 * default; pull 5 s, heartbeat 31 s, end-transaction 3 s). On an idle broker, a slave, or a master between two
 * messages, the queues are empty and no put holds the lock: the check finds nothing, 100 times a second, each a
 * timer wake-up and a context switch (3-6 ms of CPU a second on an idle broker on JDK 8:
 * docs/results/reput-idle-2026-11-29/ and idle-timers-2026-11-30/).
 *
 * <p>Here {@code scheduleAtFixedRate} in {@code start()} is {@link #scheduleAtFixedRate}: the same first delay, then
 * stock's check (the same {@code Runnable}, so the same switch, {@code brokerFastFailureEnable}, and the same
 * answers), rescheduled after each run: at stock's period (10 ms after the last planned run) while any of the four
 * queues holds a request or a put holds the lock; else not before the quiet interval ({@link #quietNanos}), the
 * shortest of the four queues' limits, the page-cache busy limit and {@link #QUIET_LIMIT_MS}, and never shorter than
 * stock's period. A check that saw the queues empty and no put in the lock at time T cannot miss anything until T plus
 * that interval: a request queued after T expires at the earliest one limit after T, and the page cache can be busy at
 * the earliest one busy limit after T. So every request is answered when stock's would be, to within stock's own
 * 10 ms (a request created before T but queued after it, a few microseconds apart, is the only exception, and only by
 * that gap), and an idle broker's check wakes 10 times a second.
 *
 * <p>The check learns its broker from stock's own code: {@code BrokerFastFailure$1.run()} reads the controller's
 * {@code getBrokerConfig()} first, which is {@link #brokerConfig} here. Until it has (the first run) and for a store
 * that is not a {@code DefaultMessageStore} (a plug-in store wraps it), the check keeps stock's period. Like stock's
 * periodic task, the check stops for good when a run throws or the executor is shut down. The interval limits are
 * read at every run, so an UPDATE_BROKER_CONFIG that shortens one takes effect within one quiet interval.
 */
public final class FastFailureTicks implements Runnable {

    /** The longest quiet interval: an idle broker's check runs 10 times a second (stock: 100). */
    public static final long QUIET_LIMIT_MS = 100;

    /** The check running on this thread, for {@link #brokerConfig}. */
    private static final ThreadLocal<FastFailureTicks> RUNNING = new ThreadLocal<FastFailureTicks>();

    private final ScheduledExecutorService executor;
    private final Runnable check;
    private final long periodNanos;
    /** The broker, once its check has run (only the executor's one thread reads and writes it). */
    private BrokerController controller;
    /** When the next run was planned (System.nanoTime()), for stock's fixed rate. */
    private long plannedNanos;

    private FastFailureTicks(ScheduledExecutorService executor, Runnable check, long periodNanos) {
        this.executor = executor;
        this.check = check;
        this.periodNanos = periodNanos;
    }

    /**
     * Replaces {@code executor.scheduleAtFixedRate(check, initialDelay, period, unit)} in {@code BrokerFastFailure.start()}:
     * the first run after {@code initialDelay}, then as the class describes. Returns the first run's future (stock
     * discards the result).
     */
    public static ScheduledFuture<?> scheduleAtFixedRate(ScheduledExecutorService executor, Runnable check,
                                                         long initialDelay, long period, TimeUnit unit) {
        if (check == null || unit == null) {
            throw new NullPointerException();
        }
        if (period <= 0) {
            throw new IllegalArgumentException("period " + period);
        }
        FastFailureTicks ticks = new FastFailureTicks(executor, check, unit.toNanos(period));
        ticks.plannedNanos = System.nanoTime() + unit.toNanos(initialDelay);
        return executor.schedule(ticks, initialDelay, unit);
    }

    /**
     * Replaces {@code controller.getBrokerConfig()} in {@code BrokerFastFailure$1.run()}: remembers the controller for
     * the check running on this thread, and returns its config as stock's call does.
     */
    public static BrokerConfig brokerConfig(BrokerController controller) {
        FastFailureTicks running = RUNNING.get();
        if (running != null) {
            running.controller = controller;
        }
        return controller.getBrokerConfig();
    }

    @Override
    public void run() {
        if (executor.isShutdown()) {
            return; // stock's periodic task is cancelled at shutdown; a delayed one would still run once
        }
        RUNNING.set(this);
        try {
            check.run(); // a throw ends the ticks, as it ends stock's periodic task
        } finally {
            RUNNING.remove();
        }
        long now = System.nanoTime();
        long next = plannedNanos + periodNanos;
        long quiet = quietNanos(controller);
        if (quiet > 0 && now + quiet > next) {
            next = now + quiet;
        }
        plannedNanos = next;
        try {
            executor.schedule(this, Math.max(0, next - now), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException shutDown) {
            // the executor was shut down after the check above: stock's task ends there too
        }
    }

    /**
     * How long the check may rest from now: 0 (stock's period) when a request is queued, a put holds the CommitLog's
     * lock, or the broker or its store is not known; else the quiet interval, at least stock's period.
     */
    long quietNanos(BrokerController c) {
        if (c == null) {
            return 0;
        }
        MessageStore store = c.getMessageStore();
        if (!(store instanceof DefaultMessageStore)) {
            return 0;
        }
        DefaultMessageStore defaultStore = (DefaultMessageStore) store;
        if (defaultStore.getCommitLog().getBeginTimeInLock() != 0) {
            return 0;
        }
        if (!idle(c.getSendThreadPoolQueue(), c.getPullThreadPoolQueue(), c.getHeartbeatThreadPoolQueue(),
            c.getEndTransactionThreadPoolQueue())) {
            return 0;
        }
        return Math.max(periodNanos, quietMillis(c.getBrokerConfig(), defaultStore.getMessageStoreConfig()) * 1_000_000L);
    }

    static boolean idle(BlockingQueue<?>... queues) {
        for (BlockingQueue<?> q : queues) {
            if (q != null && !q.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The quiet interval in ms: the shortest of the four queues' limits, the page-cache busy limit and
     * {@link #QUIET_LIMIT_MS} (never below 0).
     */
    static long quietMillis(BrokerConfig broker, MessageStoreConfig store) {
        long m = QUIET_LIMIT_MS;
        m = Math.min(m, broker.getWaitTimeMillsInSendQueue());
        m = Math.min(m, broker.getWaitTimeMillsInPullQueue());
        m = Math.min(m, broker.getWaitTimeMillsInHeartbeatQueue());
        m = Math.min(m, broker.getWaitTimeMillsInTransactionQueue());
        m = Math.min(m, store.getOsPageCacheBusyTimeOutMills());
        return Math.max(0, m);
    }
}
