package dev.rmqpatch.codec.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.PutMessageStatus;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * P38. The store's dispatch thread ({@code DefaultMessageStore$ReputMessageService}) waits for the next append when
 * there is nothing to dispatch, instead of waking every millisecond to look.
 *
 * <p>Stock 4.9.x: {@code ReputMessageService.run()} loops {@code Thread.sleep(1); doReput();} for as long as the broker
 * runs, so the thread wakes about 1,000 times a second on an idle broker (and on its slave), and ten or more times
 * per message on one that stores a hundred messages a second or fewer. Each wake-up is a timer, a context switch and a
 * look at the CommitLog's end.
 *
 * <p>Here the {@code Thread.sleep(millis)} of that loop is {@link #pause}: stock's sleep (the same cadence, the same
 * batching of dispatches) until {@link #QUIET_CYCLES} cycles in a row have seen no append; then it parks until the next
 * append ({@link #appended}, called once the bytes are in the CommitLog: at the entry of
 * {@code CommitLog.submitFlushRequest} and {@code handleDiskFlush}, which every successful put calls after releasing
 * the put lock, and of a slave's {@code HAClient.reportSlaveMaxOffsetPlus}, which follows each append of replicated
 * bytes) or for at most {@link #IDLE_LIMIT_MS} ms, and dispatches at once. An append that ends a park sooner than
 * {@link #QUIET_CYCLES} ms after it began brings stock's sleep back. So parking is for appends at least that far
 * apart (an idle broker, or one storing under about 200 messages a second), where it saves the empty looks in between;
 * where appends come closer together the thread runs stock's cadence, and a put costs one volatile read. (A first
 * version parked after one empty cycle: at 700-1,000 messages a second each put then unparked the thread, a system
 * call on the put's own thread, and the pair cost more than with stock's sleep: docs/results/eff-2026-11-29-mssync-p38-first-design.)
 *
 * <p>Where an append could become readable without one of those calls, stock's sleep stays: a store using the transient
 * store pool (its bytes become readable when the commit thread commits them) or the DLedger CommitLog (its own append
 * path) makes {@link #storeStarting} turn parking off for the JVM. One dispatch thread at a time parks (the first to
 * pause, until it ends); another store's in the same JVM (tests) sleeps as stock, and its appends only wake the first
 * early. An append missed anyway delays its dispatch by at most {@link #IDLE_LIMIT_MS} ms; nothing is lost, the
 * dispatch itself is stock's.
 */
public final class ReputWakeups {

    /** The longest park: an idle broker's dispatch thread still looks 100 times a second (stock: 1,000). */
    public static final long IDLE_LIMIT_MS = 10;

    /** {@link #IDLE_LIMIT_MS} in nanoseconds; tests lengthen it so that only an append can end a park. */
    private static volatile long idleLimitNanos = TimeUnit.MILLISECONDS.toNanos(IDLE_LIMIT_MS);

    /**
     * Empty cycles of stock's sleep (about 1 ms each) before the thread parks; an append ending a park sooner than this
     * many milliseconds after it began brings the sleep back.
     */
    public static final int QUIET_CYCLES = 5;

    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_CYCLES);

    private static final int UNKNOWN = 0;
    private static final int PARKING = 1;
    private static final int STOCK = 2;

    /** UNKNOWN until a store starts; PARKING while every store started so far appends only through the calls above. */
    private static volatile int mode = UNKNOWN;
    /** The one dispatch thread allowed to park. */
    private static final AtomicReference<Thread> OWNER = new AtomicReference<Thread>();
    /** The owner while it parks, else null. */
    private static volatile Thread waiter;
    /** Something was appended since the owner last looked. */
    private static volatile boolean appended = true;
    /** The owner's own: its next pause is stock's sleep (until QUIET_CYCLES empty ones; again after a short park). */
    private static boolean timed = true;
    /** The owner's own: stock's sleeps in a row that found nothing appended. */
    private static int emptyCycles;

    private ReputWakeups() {
    }

    /**
     * Entry hook of {@code DefaultMessageStore.start()}, before the dispatch thread starts: a store whose appends
     * bypass the calls above (transient store pool, DLedger CommitLog) keeps stock's sleep for every store in the JVM.
     * Returns false: stock's start runs.
     */
    public static boolean storeStarting(DefaultMessageStore store) {
        MessageStoreConfig config = store.getMessageStoreConfig();
        started(!config.isEnableDLegerCommitLog() && !config.isTransientStorePoolEnable());
        return false;
    }

    /** A store started; {@code signalled}: every append it makes is followed by one of the calls above. */
    static void started(boolean signalled) {
        if (!signalled) {
            mode = STOCK;
            wake();
        } else if (mode == UNKNOWN) {
            mode = PARKING;
        }
    }

    /** Entry hook of {@code CommitLog.submitFlushRequest}: a put's bytes are in the CommitLog. Null: stock's body runs. */
    public static CompletableFuture<PutMessageStatus> flushRequested(CommitLog log, AppendMessageResult result,
                                                                     MessageExt message) {
        appended();
        return null;
    }

    /** Entry hook of 4.9.0's {@code CommitLog.handleDiskFlush} (its synchronous puts). False: stock's body runs. */
    public static boolean diskFlushing(CommitLog log, AppendMessageResult result, PutMessageResult putResult,
                                       MessageExt message) {
        appended();
        return false;
    }

    /** Entry hook of a slave's {@code HAService$HAClient.reportSlaveMaxOffsetPlus()}. False: stock's body runs. */
    public static boolean slaveReporting(Object haClient) {
        appended();
        return false;
    }

    /**
     * Something was appended: the parked dispatch thread, if any, wakes. While the flag is still set (the thread has not
     * looked since the last append) this is one volatile read.
     */
    public static void appended() {
        if (!appended) {
            appended = true;
            wake();
        }
    }

    private static void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /**
     * Replaces {@code Thread.sleep(millis)} in {@code ReputMessageService.run()}, before each {@code doReput()}:
     * stock's sleep until {@link #QUIET_CYCLES} in a row found nothing appended (always, when parking is off or another
     * dispatch thread parks), then a park until the next append or {@link #IDLE_LIMIT_MS} ms. Interrupted, it throws as the sleep does.
     */
    public static void pause(long millis) throws InterruptedException {
        Thread me = Thread.currentThread();
        if (mode != PARKING || !owns(me)) {
            Thread.sleep(millis);
            return;
        }
        if (timed) {
            if (appended) {
                appended = false;
                emptyCycles = 0;
            } else if (++emptyCycles >= QUIET_CYCLES) {
                timed = false;
            }
            if (timed) {
                Thread.sleep(millis);
                return;
            }
        }
        long start = System.nanoTime();
        long deadline = start + idleLimitNanos;
        waiter = me;
        try {
            long left = deadline - start;
            while (!appended && mode == PARKING && left > 0) {
                LockSupport.parkNanos(ReputWakeups.class, left);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                left = deadline - System.nanoTime();
            }
        } finally {
            waiter = null;
        }
        boolean byAppend = appended;
        appended = false;
        if (byAppend && System.nanoTime() - start < QUIET_NANOS || mode != PARKING) {
            timed = true;
            emptyCycles = 0;
        }
    }

    /** Whether {@code me} is the dispatch thread that parks: the first to ask, until it ends. */
    private static boolean owns(Thread me) {
        Thread owner = OWNER.get();
        if (owner == me) {
            return true;
        }
        if (owner != null && owner.isAlive()) {
            return false;
        }
        if (!OWNER.compareAndSet(owner, me)) {
            return false;
        }
        timed = true;
        emptyCycles = 0;
        return true;
    }

    /** For tests: the state a fresh JVM starts with, and the longest park. */
    static void reset(long idleLimitMillis) {
        idleLimitNanos = TimeUnit.MILLISECONDS.toNanos(idleLimitMillis);
        mode = UNKNOWN;
        OWNER.set(null);
        waiter = null;
        appended = true;
        timed = true;
        emptyCycles = 0;
    }

    /** For tests: whether the given thread is parked in {@link #pause} now. */
    static boolean parked(Thread t) {
        return waiter == t;
    }
}
