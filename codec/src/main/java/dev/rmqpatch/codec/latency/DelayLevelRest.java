package dev.rmqpatch.codec.latency;

import java.util.Iterator;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.DispatchRequest;
import org.apache.rocketmq.store.SelectMappedBufferResult;

/**
 * P40. A delay level of the master's schedule service that has delivered everything stored for it waits for the
 * next delayed message of that level instead of looking for one every 100 ms.
 *
 * <p>Stock 4.9.x: {@code ScheduleMessageService} keeps one task per delay level (18 by default) that reads the
 * level's consume queue of {@code SCHEDULE_TOPIC_XXXX} from its offset, delivers what is due and schedules itself
 * again 100 ms later ({@code DELAY_FOR_A_WHILE}): on 4.9.0-4.9.2 on one {@code java.util.Timer}, from 4.9.3 on a
 * pool of 18 threads. When the queue holds nothing past the offset ({@code getIndexBuffer} returns null), the run
 * found nothing and the next one, 100 ms later, will find nothing either unless a delayed message of that level was
 * dispatched meanwhile: on a master that stores no delayed messages, 180 runs a second that find nothing (about 430
 * context switches a second and 8-13 ms of CPU on 4.9.8's pool, JDK 8: docs/results/idle-timers-2026-11-30/ and
 * p40-2026-11-30/).
 *
 * <p>Here three calls of stock's code go through this class:
 * <ul>
 * <li>the task's {@code cq.getIndexBuffer(offset)} is {@link #indexBuffer}: stock's call; when it returns null and
 * the offset is the queue's end, the run has caught up, which this thread remembers for the next call;</li>
 * <li>the task's rescheduling, {@code executor.schedule(task, 100, MILLISECONDS)} in {@code scheduleNextTimerTask}
 * (4.9.3+) or {@code timer.schedule(task, 100)} in {@code executeOnTimeup} (4.9.0-4.9.2), is {@link #schedule}:
 * after a run that caught up, the new task (for the same offset) rests, scheduled nowhere, until the next dispatch to
 * its queue; any other run, and any delay over {@link #REST_REPLACES_AT_MOST_MS} (4.9.3+'s 10 s back-off after a
 * throw), is scheduled as stock's;</li>
 * <li>the dispatch of every stored message to its consume queue, {@code store.putMessagePositionInfo(request)} in
 * {@code CommitLogDispatcherBuildConsumeQueue.dispatch}, is {@link #putMessagePositionInfo}: stock's call, then, for
 * a {@code SCHEDULE_TOPIC_XXXX} queue with a resting task, that task is scheduled to run at once. The queue's entry
 * is written before, so the task reads it.</li>
 * </ul>
 * A level's delivery is therefore never later than stock's: stock looks again within 100 ms of the dispatch, this
 * looks at the dispatch; the messages' own delays (1 s and more) are then polled every 100 ms as stock polls them. A
 * task that rests and a dispatch that comes meanwhile cannot miss each other: the task publishes its rest, then reads
 * the queue's end again (and runs as stock's if it moved); the dispatch writes the entry, then looks for a rest; each
 * side writes before it reads, through volatile fields, so at least one sees the other, and only the side that
 * removes the rest from the map schedules it (once). An executor that was shut down or a timer that was cancelled (the
 * service stopped; stock's task would end there) is not scheduled: the rest is dropped.
 *
 * <p>Rests are held by queue, one per level: a service started again (a broker that became master again) replaces
 * its earlier rests, as its queues are the same objects. Rests of a stopped 4.9.3+ service are dropped at the next
 * rest; those of a stopped 4.9.0-4.9.2 service (a cancelled timer cannot be recognised) stay until its queues get a
 * dispatch, at most one per level and store (a JVM that opens many stores, as tests do, keeps theirs).
 */
public final class DelayLevelRest {

    /** Stock's topic of stored delayed messages ({@code TopicValidator.RMQ_SYS_SCHEDULE_TOPIC}; the test checks it). */
    static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";

    /** The longest delay a rest replaces: stock's {@code DELAY_FOR_A_WHILE}; longer back-offs stay stock's. */
    static final long REST_REPLACES_AT_MOST_MS = 100;

    /** The queue that this thread's last run found caught up (set by {@link #indexBuffer}, taken by the schedule). */
    private static final ThreadLocal<CaughtUp> CAUGHT_UP = new ThreadLocal<CaughtUp>();

    /** The resting tasks by consume queue (identity: ConsumeQueue keeps Object's equals). */
    private static final Map<ConsumeQueue, Rest> RESTING = new ConcurrentHashMap<ConsumeQueue, Rest>();

    private DelayLevelRest() {
    }

    /** Replaces {@code cq.getIndexBuffer(offset)} in the delay level's task: stock's call, remembering a catch-up. */
    public static SelectMappedBufferResult indexBuffer(ConsumeQueue cq, long offset) {
        SelectMappedBufferResult result = cq.getIndexBuffer(offset);
        if (result == null && offset == cq.getMaxOffsetInQueue()) {
            CAUGHT_UP.set(new CaughtUp(cq, offset));
        } else {
            CAUGHT_UP.remove();
        }
        return result;
    }

    /**
     * Replaces {@code executor.schedule(task, delay, unit)} in the task's {@code scheduleNextTimerTask} (4.9.3+). Returns
     * null for a task that rests (stock discards the result).
     */
    public static ScheduledFuture<?> schedule(final ScheduledExecutorService executor, final Runnable task, long delay,
                                              TimeUnit unit) {
        CaughtUp caughtUp = takeCaughtUp(unit.toMillis(delay));
        if (caughtUp != null && rest(caughtUp, new Rest() {
            @Override
            void resume() {
                executor.execute(task);
            }

            @Override
            boolean stopped() {
                return executor.isShutdown();
            }
        })) {
            return null;
        }
        return executor.schedule(task, delay, unit);
    }

    /** Replaces {@code timer.schedule(task, delay)} in the task's {@code executeOnTimeup} (4.9.0-4.9.2). */
    public static void schedule(final Timer timer, final TimerTask task, long delay) {
        CaughtUp caughtUp = takeCaughtUp(delay);
        if (caughtUp != null && rest(caughtUp, new Rest() {
            @Override
            void resume() {
                timer.schedule(task, 0);
            }

            @Override
            boolean stopped() {
                return false; // a cancelled Timer cannot be recognised until it refuses a task
            }
        })) {
            return;
        }
        timer.schedule(task, delay);
    }

    /**
     * Replaces {@code store.putMessagePositionInfo(request)} in {@code CommitLogDispatcherBuildConsumeQueue.dispatch}:
     * stock's call, then the resting task of a delayed message's queue, if any, runs at once.
     */
    public static void putMessagePositionInfo(DefaultMessageStore store, DispatchRequest request) {
        store.putMessagePositionInfo(request);
        if (!RESTING.isEmpty() && SCHEDULE_TOPIC.equals(request.getTopic())) {
            ConsumeQueue cq = store.findConsumeQueue(request.getTopic(), request.getQueueId());
            Rest rest = RESTING.get(cq);
            if (rest != null && RESTING.remove(cq, rest)) {
                rest.resumeIfRunning();
            }
        }
    }

    /** Whether a task of this queue rests now (for tests). */
    static boolean rests(ConsumeQueue cq) {
        return RESTING.containsKey(cq);
    }

    private static CaughtUp takeCaughtUp(long delayMillis) {
        CaughtUp caughtUp = CAUGHT_UP.get();
        if (caughtUp == null) {
            return null;
        }
        CAUGHT_UP.remove();
        return delayMillis <= REST_REPLACES_AT_MOST_MS ? caughtUp : null;
    }

    /**
     * Publishes the rest, then reads the queue's end again: true when the task rests (or a dispatch has already
     * resumed it), false when an entry came meanwhile and the caller schedules it as stock's.
     */
    private static boolean rest(CaughtUp caughtUp, Rest rest) {
        dropStopped();
        RESTING.put(caughtUp.cq, rest); // an earlier rest of this queue belongs to a stopped service: replaced
        if (caughtUp.cq.getMaxOffsetInQueue() != caughtUp.offset) {
            return !RESTING.remove(caughtUp.cq, rest);
        }
        return true;
    }

    private static void dropStopped() {
        for (Iterator<Rest> it = RESTING.values().iterator(); it.hasNext(); ) {
            if (it.next().stopped()) {
                it.remove();
            }
        }
    }

    private static final class CaughtUp {
        final ConsumeQueue cq;
        final long offset;

        CaughtUp(ConsumeQueue cq, long offset) {
            this.cq = cq;
            this.offset = offset;
        }
    }

    /** A task scheduled nowhere until a dispatch to its queue. */
    private abstract static class Rest {
        abstract void resume();

        abstract boolean stopped();

        final void resumeIfRunning() {
            try {
                resume();
            } catch (RejectedExecutionException | IllegalStateException stopped) {
                // the executor was shut down or the timer cancelled: the service stopped, as stock's task would end
            }
        }
    }
}
