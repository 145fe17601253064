package dev.rmqpatch.codec.remoting;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.netty.channel.Channel;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.netty.RequestTask;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * P30. {@code NettyRemotingAbstract.processRequestCommand} wraps every request in a {@code RequestTask} and submits it
 * to its processor's executor; for a send that is the broker's send executor, whose worker is woken for it (a
 * context switch on each side at a rate where it sleeps between messages). Here a send request is run at once, on the
 * thread that read it (the connection's IO thread with P7), when the send executor has nothing of the kind to do: no
 * send task queued, running or on its way to a worker, and no other send running this way. Otherwise it is submitted
 * as stock submits it. So a request never overtakes an earlier one of its connection (a connection's requests are
 * read by one thread, in order, and one is only run here when every earlier one has finished), a busy broker queues,
 * flow-controls and fast-fails its sends exactly as stock (they go through the executor), and at most one send at a
 * time runs outside the executor's threads.
 *
 * <p>{@link #requestTask} replaces the {@code new RequestTask(...)} of that method: a send's task is a
 * {@link SendTask}, which counts itself from submission until it has run or has been answered without running (the
 * broker's fast-failure drops queued tasks with {@code returnResponse}). {@link #submit} replaces the executor's
 * {@code submit}. What runs, and what the task answers, are stock's; only the thread differs.
 *
 * <p><b>A stalling store.</b> A send run here holds the thread that read it: while its append waits (a page fault
 * under dirty-page throttling, a mapped file not yet allocated, a slow disk), every other connection that thread reads
 * waits too, where stock would have read their requests, served their pulls and fast-failed their queued sends. So a
 * send, here or on the executor, that takes longer than {@link #SLOW_MILLIS} (default 50 ms; a send normally takes
 * well under a millisecond) switches this path off for a cool-down, and every send goes through the executor as on
 * stock. The cool-down starts at {@link #FIRST_PAUSE_MILLIS} (10 s: a one-off slow send, such as the first send of a
 * new topic, which registers the broker with the name servers on the sending thread, costs the saving for 10 s) and
 * doubles with each slow send that comes within {@link #MAX_PAUSE_MILLIS} (5 minutes) of the one before, up to that
 * bound: a store that keeps stalling keeps every send on the executor, and the saving comes back once it has been quiet.
 * What is left: the first stall of a spell can land on a send run here, and then holds that thread's other connections
 * for its length (StoreStallIT measures it). The bounds are system properties of the broker JVM
 * ({@code -Drmqpatch.inlineSend.slowMillis}, {@code firstPauseMillis}, {@code maxPauseMillis}).
 */
public final class InlineSend {

    /** Send tasks submitted and not yet run or answered, plus the one running inline (if any). */
    static final AtomicInteger PENDING = new AtomicInteger();

    /** A send that runs longer than this (ms) is a stalling store's: this path stops for a cool-down. */
    static final long SLOW_MILLIS = positive("rmqpatch.inlineSend.slowMillis", 50);
    /** The cool-down (ms) after a slow send that follows no other within MAX_PAUSE_MILLIS. */
    static final long FIRST_PAUSE_MILLIS = positive("rmqpatch.inlineSend.firstPauseMillis", 10_000);
    /** The longest cool-down (ms), and how long a slow send is remembered for doubling the next one's. */
    static final long MAX_PAUSE_MILLIS =
        Math.max(FIRST_PAUSE_MILLIS, positive("rmqpatch.inlineSend.maxPauseMillis", 300_000));
    private static final long SLOW_NANOS = SLOW_MILLIS * 1_000_000L;
    /** The last slow send's System.nanoTime() and the cool-down it started (ms); written under the class lock. */
    private static long lastSlowNanos;
    private static long lastPauseMillis;

    /** System.nanoTime() before which no send runs here (0: never stopped; written only by a slow send). */
    private static volatile long pausedUntilNanos;
    private static volatile boolean everPaused;
    /** Sends that ran longer than SLOW_MILLIS, here or on the executor (tests, and the log line). */
    private static final AtomicInteger SLOW_SENDS = new AtomicInteger();

    private InlineSend() {
    }

    /** Instead of {@code new RequestTask(run, channel, request)} in processRequestCommand. */
    public static RequestTask requestTask(Runnable run, Channel channel, RemotingCommand request) {
        return isSend(request.getCode()) ? new SendTask(run, channel, request) : new RequestTask(run, channel, request);
    }

    /** Instead of {@code executor.submit(task)} in processRequestCommand. */
    public static Future<?> submit(ExecutorService executor, Runnable task) {
        if (!(task instanceof SendTask)) {
            return executor.submit(task);
        }
        SendTask send = (SendTask) task;
        if (!paused() && PENDING.compareAndSet(0, 1)) {
            // As the executor's submit would: a FutureTask keeps what the task throws from reaching the caller.
            send.inline = true;
            FutureTask<Object> ran = new FutureTask<Object>(send, null);
            ran.run();
            return ran;
        }
        PENDING.incrementAndGet();
        try {
            return executor.submit(send);
        } catch (RuntimeException e) {
            send.release();
            throw e;
        } catch (Error e) {
            send.release();
            throw e;
        }
    }

    /** RequestCode.SEND_MESSAGE, SEND_MESSAGE_V2, SEND_BATCH_MESSAGE (InlineSendTest checks them against RequestCode). */
    static final int SEND_MESSAGE = 10;
    static final int SEND_MESSAGE_V2 = 310;
    static final int SEND_BATCH_MESSAGE = 320;

    /**
     * The sends the broker's send executor serves. RequestCode's values are spelled here, not named: javac keeps a
     * class reference to RequestCode (rocketmq-common) in the constant pool of a class that names its constants, and
     * this class is reached from rocketmq-remoting, whose stock POM does not bring rocketmq-common.
     */
    static boolean isSend(int code) {
        return code == SEND_MESSAGE || code == SEND_MESSAGE_V2 || code == SEND_BATCH_MESSAGE;
    }

    /** Send tasks counted now (tests). */
    static int pending() {
        return PENDING.get();
    }

    /** Whether a recent slow send keeps every send on the executor now. */
    static boolean paused() {
        return everPaused && System.nanoTime() - pausedUntilNanos < 0;
    }

    /** Slow sends seen so far (tests). */
    static int slowSends() {
        return SLOW_SENDS.get();
    }

    /** A send took {@code nanos}: when that is slow, stop running sends here for the cool-down (counted from now). */
    static void ran(long nanos, boolean inline) {
        if (nanos <= SLOW_NANOS) {
            return;
        }
        slow(System.nanoTime(), nanos, inline);
    }

    /**
     * A slow send ended at {@code now}: the cool-down, doubled when the last slow send was recent; returns it (ms).
     * Rare, so locked.
     */
    static synchronized long slow(long now, long nanos, boolean inline) {
        boolean wasPaused = paused();
        long pause = everPaused && now - lastSlowNanos < MAX_PAUSE_MILLIS * 1_000_000L
            ? Math.min(MAX_PAUSE_MILLIS, lastPauseMillis * 2) : FIRST_PAUSE_MILLIS;
        lastSlowNanos = now;
        lastPauseMillis = pause;
        long until = now + pause * 1_000_000L;
        if (!everPaused || until - pausedUntilNanos > 0) {
            pauseUntil(until);
        }
        int n = SLOW_SENDS.incrementAndGet();
        if (!wasPaused) {
            Log.paused(nanos / 1_000_000L, inline, Thread.currentThread().getName(), n, pause);
        }
        return pause;
    }

    /** No send runs here before System.nanoTime() reaches {@code nanoTime}. */
    static void pauseUntil(long nanoTime) {
        pausedUntilNanos = nanoTime;
        everPaused = true;
    }

    /** Tests: forget slow sends (as a broker start does). */
    static synchronized void resetPause() {
        everPaused = false;
        pausedUntilNanos = 0;
        lastSlowNanos = 0;
        lastPauseMillis = 0;
        SLOW_SENDS.set(0);
    }

    static long positive(String key, long def) {
        String v = System.getProperty(key);
        if (v == null) {
            return def;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the line below
        }
        // Read when the first request arrives, on an IO thread: a throw here would fail every send, so say it and go on.
        System.err.println("rmqpatch P30: -D" + key + " must be a whole number of milliseconds above 0 (got '" + v
            + "'); using " + def);
        return def;
    }

    /** The remoting log's line when this path stops; the logger is made on the first slow send only. */
    private static final class Log {
        private static final InternalLogger LOG = InternalLoggerFactory.getLogger(RemotingHelper.ROCKETMQ_REMOTING);

        static void paused(long millis, boolean inline, String thread, int n, long pause) {
            LOG.warn("rmqpatch P30: a send took {} ms on {} ({}; slow send #{}): every send goes through the send "
                + "executor, as on stock, for {} ms (longer while sends slower than {} ms recur)", millis, thread,
                inline ? "run on the thread that read it" : "on the send executor", n, pause, SLOW_MILLIS);
        }
    }

    /** A send's task: counted in {@link #PENDING} until it has run or has been answered without running. */
    static final class SendTask extends RequestTask {
        private static final AtomicIntegerFieldUpdater<SendTask> RELEASED =
            AtomicIntegerFieldUpdater.newUpdater(SendTask.class, "released");
        private volatile int released;
        /** Set before an inline run (on the thread that runs it): only the log line reads it. */
        boolean inline;

        SendTask(Runnable run, Channel channel, RemotingCommand request) {
            super(run, channel, request);
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            try {
                super.run();
            } finally {
                ran(System.nanoTime() - start, inline);
                release();
            }
        }

        @Override
        public void returnResponse(int code, String remark) {
            try {
                super.returnResponse(code, remark);
            } finally {
                release();
            }
        }

        void release() {
            if (RELEASED.compareAndSet(this, 0, 1)) {
                PENDING.decrementAndGet();
            }
        }
    }
}
