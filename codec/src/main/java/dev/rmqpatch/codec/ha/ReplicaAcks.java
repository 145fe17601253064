package dev.rmqpatch.codec.ha;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.PutMessageStatus;
import org.apache.rocketmq.store.ha.HAService;

/**
 * P13. A SYNC_MASTER's wait for its slave, answered by the thread that learns of the slave's progress.
 *
 * <p>Stock 4.9.0 queues every synchronous send's {@code GroupCommitRequest} on {@code HAService$GroupTransferService}
 * and wakes that thread; the thread that reads the slave's acknowledgements ({@code HAConnection$ReadSocketService})
 * raises {@code push2SlaveMaxOffset} and wakes the transfer thread again, which completes the waiting requests. So
 * every message costs two wake-ups of a thread whose only job is to compare two offsets. Here the request waits in a
 * lock-free queue; the acknowledgement's thread completes every request the slave now holds, in queue order, and the
 * putting thread completes its own request at once when the slave already holds it. The transfer thread wakes every
 * 10 ms as stock's does while a request waits, and answers FLUSH_SLAVE_TIMEOUT to requests the slave has not
 * acknowledged within {@code syncFlushTimeout}; while none waits (an idle master, a slave, an ASYNC_MASTER) every
 * 100 ms ({@link #transferWaitMillis}).
 *
 * <p>Same answers: PUT_OK exactly when the slave's acknowledged offset reaches the request's next offset (stock's
 * test), FLUSH_SLAVE_TIMEOUT when it has not within {@code syncFlushTimeout} of the put (stock counts that time from
 * when its single transfer thread gets to the request, which behind an earlier timed-out request can be much later),
 * SLAVE_NOT_AVAILABLE decided before, by the stock {@code isSlaveOK}, untouched.
 *
 * <p>4.9.3 to 4.9.8 (the variant: {@code ReplicaDeadlines.putRequestUntilDeadline}, which calls {@link #putUntil}):
 * stock's {@code doWaitTransfer} waits for each
 * request until the request's own deadline, {@code GroupCommitRequest.getDeadLine()} ({@code System.nanoTime()} at its
 * creation plus {@code slaveTimeout}, set by {@code CommitLog.submitReplicaRequest}), not {@code syncFlushTimeout}
 * from when it gets to the request; the request is answered PUT_OK once {@code push2SlaveMaxOffset >=} its next offset,
 * FLUSH_SLAVE_TIMEOUT when {@code deadLine - System.nanoTime() <= 0} and the slave has not reached it, and nothing is
 * logged. The variant queues such a request with that deadline, on that clock, with that test, and logs nothing.
 */
public final class ReplicaAcks {

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(LoggerName.STORE_LOGGER_NAME);

    /** The transfer thread's wait while no request waits for a slave (stock: 10 ms, whatever waits). */
    public static final long QUIET_MILLIS = 100;

    /** Requests waiting per HAService; one per broker, so the cache below always hits outside tests. */
    private static final CopyOnWriteArrayList<Waiting> ALL = new CopyOnWriteArrayList<Waiting>();
    private static volatile Waiting last;

    private ReplicaAcks() {
    }

    /** Replaces {@code HAService.putRequest(GroupCommitRequest)}. */
    public static void putRequest(HAService ha, CommitLog.GroupCommitRequest request) {
        long timeout = ha.getDefaultMessageStore().getMessageStoreConfig().getSyncFlushTimeout();
        enqueue(ha, new Entry(request, System.currentTimeMillis() + timeout, false));
    }

    /**
     * Queues {@code request} with a deadline on the {@code System.nanoTime()} clock: the variant's put (its caller,
     * {@code ReplicaDeadlines}, is compiled against 4.9.7's store, whose requests carry that deadline).
     */
    static void putUntil(HAService ha, CommitLog.GroupCommitRequest request, long deadlineNanos) {
        enqueue(ha, new Entry(request, deadlineNanos, true));
    }

    private static void enqueue(HAService ha, Entry e) {
        Waiting w = of(ha);
        w.queue.add(e);
        // The slave may have acknowledged this offset before the request was queued; its acknowledgement's drain
        // then ran without it.
        long acked = w.acked.get();
        if (acked >= e.request.getNextOffset()) {
            w.drain(acked, 0L, 0L, false);
        }
    }

    /** Replaces {@code HAService.notifyTransferSome(long)}: stock's offset update, then the completions. */
    public static void notifyTransferSome(HAService ha, long offset) {
        AtomicLong acked = ha.getPush2SlaveMaxOffset();
        for (long value = acked.get(); offset > value; ) {
            if (acked.compareAndSet(value, offset)) {
                of(ha).drain(offset, 0L, 0L, false);
                return;
            }
            value = acked.get();
        }
    }

    /**
     * Entry hook of {@code HAService$GroupTransferService.doWaitTransfer()}, which the transfer thread runs every
     * 10 ms: completes what the slave holds and times out what it has not acknowledged in time. Returns true (the
     * stock body, whose queue stays empty, is skipped).
     */
    public static boolean sweep(Object transferService) {
        sweepAt(System.currentTimeMillis(), System.nanoTime());
        return true;
    }

    /**
     * The interval of the transfer thread's wait ({@code HAService$GroupTransferService.run()}'s
     * {@code waitForRunning(10)}, which this filters): stock's while a request waits for a slave, else
     * {@link #QUIET_MILLIS}. The thread's only work here is {@link #sweep}, and with nothing queued it has nothing to
     * time out: a request queued during the longer wait is still answered PUT_OK by the acknowledgement's thread, and
     * FLUSH_SLAVE_TIMEOUT at the first sweep after its deadline, which with a timeout of at least
     * {@link #QUIET_MILLIS} (4.9.0's syncFlushTimeout, 4.9.3+'s slaveTimeout: 5 s and 3 s by default) is one of the
     * 10 ms sweeps that follow while it waits. Stock's own timeout answer comes from a wait of up to 1 s
     * ({@code notifyTransferObject.waitForRunning(1000)}), so not earlier than that in any case. Shutdown still wakes
     * the wait at once (stock's {@code waitForRunning}, only the interval differs).
     */
    public static long transferWaitMillis(long stockMillis) {
        for (Waiting w : ALL) {
            if (!w.queue.isEmpty()) {
                return stockMillis;
            }
        }
        return Math.max(stockMillis, QUIET_MILLIS);
    }

    /** The transfer thread's round at these clock readings (ms for 4.9.0's requests, ns for the variant's). */
    static void sweepAt(long nowMillis, long nowNanos) {
        for (Waiting w : ALL) {
            w.drain(w.acked.get(), nowMillis, nowNanos, true);
        }
    }

    private static Waiting of(HAService ha) {
        Waiting w = last;
        if (w != null && w.ha == ha) {
            return w;
        }
        synchronized (ALL) {
            for (Waiting x : ALL) {
                if (x.ha == ha) {
                    last = x;
                    return x;
                }
            }
            w = new Waiting(ha);
            ALL.add(w);
            last = w;
            return w;
        }
    }

    /** Number of requests waiting for {@code ha}'s slave: for tests. */
    static int waiting(HAService ha) {
        return of(ha).queue.size();
    }

    /** Forgets {@code ha} (a store shut down in a JVM that starts another): for tests. */
    static void forget(HAService ha) {
        synchronized (ALL) {
            for (Waiting x : ALL) {
                if (x.ha == ha) {
                    ALL.remove(x);
                }
            }
            last = null;
        }
    }

    private static final class Waiting {
        final HAService ha;
        final AtomicLong acked;
        final ConcurrentLinkedQueue<Entry> queue = new ConcurrentLinkedQueue<Entry>();

        Waiting(HAService ha) {
            this.ha = ha;
            this.acked = ha.getPush2SlaveMaxOffset();
        }

        /**
         * Completes, in queue order, what {@code ackedOffset} covers, and when {@code expire} what has expired at
         * these clock readings.
         */
        void drain(long ackedOffset, long nowMillis, long nowNanos, boolean expire) {
            for (Iterator<Entry> it = queue.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                if (e.request.getNextOffset() <= ackedOffset) {
                    // A removal that fails was another thread's: that thread completes it.
                    if (queue.remove(e)) {
                        e.request.wakeupCustomer(PutMessageStatus.PUT_OK);
                    }
                } else if (expire && e.expired(nowMillis, nowNanos) && acked.get() < e.request.getNextOffset()) {
                    if (queue.remove(e)) {
                        if (!e.nanos) {
                            // Stock 4.9.0's words for the same event (4.9.3+ logs nothing).
                            LOG.warn("transfer messsage to slave timeout, " + e.request.getNextOffset());
                        }
                        e.request.wakeupCustomer(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
                    }
                }
            }
        }
    }

    private static final class Entry {
        final CommitLog.GroupCommitRequest request;
        final long deadline;
        /** The deadline is on {@code System.nanoTime()} (4.9.3+'s request deadline), else on the wall clock (4.9.0). */
        final boolean nanos;

        Entry(CommitLog.GroupCommitRequest request, long deadline, boolean nanos) {
            this.request = request;
            this.deadline = deadline;
            this.nanos = nanos;
        }

        /** 4.9.0: {@code now >= waitUntilWhen}; 4.9.3+: {@code !(deadLine - nanoTime() > 0)}, as stock's loops exit. */
        boolean expired(long nowMillis, long nowNanos) {
            return nanos ? deadline - nowNanos <= 0 : nowMillis >= deadline;
        }
    }
}
