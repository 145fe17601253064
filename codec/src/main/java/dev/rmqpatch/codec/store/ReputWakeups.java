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
 * runs, so the thread wakes about 1,000 times a second on an idle broker (and on its slave) and two to twenty times per
 * message on one that stores a few hundred messages a second or fewer. Each wake-up is a timer, a context switch and a
 * look at the CommitLog's end.
 *
 * <p>Here the {@code Thread.sleep(millis)} of that loop is {@link #pause}: while appends keep coming it is stock's
 * sleep (the same cadence, the same batching of dispatches under load); after a whole cycle with no append it parks
 * until the next append ({@link #appended}, called once the bytes are in the CommitLog: at the entry of
 * {@code CommitLog.submitFlushRequest} and {@code handleDiskFlush}, which every successful put calls after releasing
 * the put lock, and of a slave's {@code HAClient.reportSlaveMaxOffsetPlus}, which follows each append of replicated
 * bytes) or for at most {@link #IDLE_LIMIT_MS} ms, then dispatches at once. A park that an append ends within
 * {@link #BUSY_NANOS} goes back to stock's cadence, so a busy broker never wakes its dispatch thread more often than
 * stock does.
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

    /** A park ended by an append sooner than this means appends come faster than stock's 1 ms sleep: use it again. */
    static final long BUSY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

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
    /** The owner's own: its next pause is stock's sleep (set again after a park an append ended soon). */
    private static boolean timed = true;

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
     * stock's sleep while appends keep coming (or parking is off, or another dispatch thread parks), else a park until
     * the next append or {@link #IDLE_LIMIT_MS} ms. Interrupted, it throws as the sleep does.
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
                Thread.sleep(millis);
                return;
            }
            timed = false;
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
        appended = false;
        if (System.nanoTime() - start < BUSY_NANOS || mode != PARKING) {
            timed = true;
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
    }

    /** For tests: whether the given thread is parked in {@link #pause} now. */
    static boolean parked(Thread t) {
        return waiter == t;
    }
}
