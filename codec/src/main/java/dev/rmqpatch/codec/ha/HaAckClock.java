package dev.rmqpatch.codec.ha;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.ha.HAService;
import org.apache.rocketmq.store.ha.WaitNotifyObject;

/**
 * P29. A SYNC_MASTER's replication paced by its slave's acknowledgements: new data less than one transfer batch waits
 * while the slave has not yet acknowledged the previous transfer, and goes out, all of it in one transfer, when the
 * acknowledgement arrives.
 *
 * <p>Stock 4.9.0 (and P16) wakes the master's HA write thread ({@code HAConnection$WriteSocketService}) on every
 * synchronous put, and the thread sends whatever the CommitLog holds at once. Each transfer is one round trip: the
 * write thread's wake-up and write, the slave's wake-up, read, append and acknowledgement, the master's read thread's
 * wake-up, and the responses it hands to the netty threads. In the ms-sync efficiency runs of 2026-11-26 the patched
 * pair spent about 58 us per transfer at 8,100 msg/s (master replication threads 35, slave 22; its replication
 * threads switch exactly twice per slave wake-up at every rate) and sent 0.70 transfers per message, more than tuned
 * stock's 0.53: stock's slower wake-ups happen to batch. A message put while a transfer is in flight cannot be
 * acknowledged before that transfer is (the slave appends in order); here it waits for that acknowledgement, whose
 * thread is awake anyway, so the messages of one round trip share the next transfer. Under load the round trips per
 * message fall; at a low rate nothing is in flight when a message comes, and nothing changes.
 *
 * <p>What waits, and for how long: only on a SYNC_MASTER with exactly one slave connection; only data the write thread
 * has not sent, and only while it is less than {@code haTransferBatchSize} (32 KB by default: more is sent at once,
 * as stock, so a slave catching up, or a fast stream, is never paced); only while this write thread's last transfer is
 * unacknowledged, so at most one round trip of the slave (its wake-up, append and acknowledgement). The thread that
 * reads the acknowledgement wakes the write thread after it has raised the acknowledged offset and answered the sends
 * it covers. The bytes the slave receives, their order and offsets, every status (SEND_OK only once the slave has the
 * message, FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE) and the crash guarantees are stock's; only the cut of the stream
 * into transfers and the moment the held data is written differ.
 *
 * <p>No wake-up is lost: a put or the write thread that decides to wait first sets the clock's {@code held} flag and
 * then reads the acknowledged offset again, and the acknowledging thread raises the offset before it reads the flag,
 * so one of the two sees the other (both are sequentially consistent atomics). A put that decides not to wait wakes
 * the write thread as stock does. A write thread that stops waiting clears the flag before it reads the CommitLog's
 * end, so a put that set it earlier has its data in that read. If no acknowledgement ever comes, the write thread's
 * own wait (stock's 100 ms) still ends and it looks again; the connection's housekeeping closes a silent slave as in
 * stock.
 */
public final class HaAckClock {

    /** One clock per HAService (keyed by its WaitNotifyObject, which every call site can reach); one per broker. */
    private static final CopyOnWriteArrayList<Clock> ALL = new CopyOnWriteArrayList<Clock>();
    private static volatile Clock last;

    private HaAckClock() {
    }

    /**
     * Instead of {@code haService.getWaitNotifyObject().wakeupAll()} in {@code CommitLog.submitReplicaRequest} and
     * {@code CommitLog.handleHA} (a synchronous put, after its request is queued): wakes the write thread as stock,
     * unless the put's data may wait for the acknowledgement of the transfer in flight.
     */
    public static void wakeupAll(WaitNotifyObject wno) {
        Clock c = find(wno);
        if (c == null || !c.putWaits()) {
            wno.wakeupAll();
        }
    }

    /**
     * Instead of {@code getCommitLogData(nextTransferFromWhere)} in {@code HAConnection$WriteSocketService.run}: null
     * (stock's "nothing to send", after which the thread waits on the WaitNotifyObject) while the data may wait, else
     * stock's result, whose transfer the clock then counts as in flight.
     */
    public static SelectMappedBufferResult commitLogData(DefaultMessageStore store, long offset) {
        Clock c = of(store);
        int batch = store.getMessageStoreConfig().getHaTransferBatchSize();
        if (c.writerWaits(Thread.currentThread(), offset, batch)) {
            return null;
        }
        SelectMappedBufferResult result = store.getCommitLogData(offset);
        if (result != null) {
            // Stock cuts the transfer to haTransferBatchSize right after this call.
            c.sending(offset + Math.min(result.getSize(), batch));
        }
        return result;
    }

    /**
     * Instead of {@code haService.notifyTransferSome(slaveAckOffset)} in {@code HAConnection$ReadSocketService
     * .processReadEvent}: stock's call (or P13's), then the wake-up of the write thread if data waits for this
     * acknowledgement.
     */
    public static void notifyTransferSome(HAService ha, long offset) {
        ha.notifyTransferSome(offset);
        WaitNotifyObject wno = ha.getWaitNotifyObject();
        Clock c = find(wno);
        if (c != null && c.acknowledged()) {
            wno.wakeupAll();
        }
    }

    private static Clock find(WaitNotifyObject wno) {
        Clock c = last;
        if (c != null && c.key == wno) {
            return c;
        }
        for (Clock x : ALL) {
            if (x.key == wno) {
                last = x;
                return x;
            }
        }
        return null;
    }

    private static Clock of(final DefaultMessageStore store) {
        HAService ha = store.getHaService();
        WaitNotifyObject wno = ha.getWaitNotifyObject();
        Clock c = find(wno);
        if (c != null) {
            return c;
        }
        synchronized (ALL) {
            c = find(wno);
            if (c == null) {
                c = new Clock(wno, ha.getPush2SlaveMaxOffset(), ha.getConnectionCount(), new Store() {
                    @Override
                    public long maxOffset() {
                        return store.getCommitLog().getMaxOffset();
                    }

                    @Override
                    public MessageStoreConfig config() {
                        return store.getMessageStoreConfig();
                    }
                });
                ALL.add(c);
                last = c;
            }
            return c;
        }
    }

    /** Forgets the clock of {@code wno} (a store shut down in a JVM that starts another): for tests. */
    static void forget(WaitNotifyObject wno) {
        synchronized (ALL) {
            for (Clock x : ALL) {
                if (x.key == wno) {
                    ALL.remove(x);
                }
            }
            last = null;
        }
    }

    /** The clock of {@code wno}, or null before its write thread's first look at the CommitLog: for tests. */
    static Clock clockOf(WaitNotifyObject wno) {
        return find(wno);
    }

    /** What a clock reads of its store: the CommitLog's end and the store's configuration. */
    interface Store {
        long maxOffset();

        MessageStoreConfig config();
    }

    /** The pacing state of one HAService. */
    static final class Clock {
        final WaitNotifyObject key;
        /** HAService's push2SlaveMaxOffset: what the slave has acknowledged, raised by the read thread. */
        private final AtomicLong acked;
        private final AtomicInteger connections;
        private final Store store;
        /** The write thread the in-flight end belongs to; another thread (a new connection's) starts afresh. */
        private volatile Thread writer;
        /** End of the write thread's last transfer; -1 until it has sent one. */
        private volatile long sentEnd = -1;
        /** Set when data waits for an acknowledgement; the acknowledging thread clears it and wakes the writer. */
        private final AtomicBoolean held = new AtomicBoolean();

        Clock(WaitNotifyObject key, AtomicLong acked, AtomicInteger connections, Store store) {
            this.key = key;
            this.acked = acked;
            this.connections = connections;
            this.store = store;
        }

        /** SYNC_MASTER (the only role whose puts wake the write thread) with exactly one slave connection. */
        private boolean paced() {
            return connections.get() == 1 && store.config().getBrokerRole() == BrokerRole.SYNC_MASTER;
        }

        /** A put's data, already in the CommitLog: true if it waits (the caller skips the wake-up). */
        boolean putWaits() {
            long end = sentEnd;
            if (end < 0 || acked.get() >= end || !paced()) {
                return false;
            }
            if (store.maxOffset() - end >= store.config().getHaTransferBatchSize()) {
                return false;
            }
            held.set(true);
            // The acknowledgement may have come between the first read and the flag; its thread then missed the flag.
            return acked.get() < end;
        }

        /** The write thread, about to read the CommitLog from {@code offset}: true if it waits instead. */
        boolean writerWaits(Thread me, long offset, int batch) {
            // Whatever a put held is read below (it was written before the flag was set) or held again by this thread.
            held.set(false);
            if (writer != me) {
                writer = me;
                sentEnd = -1;
                return false;
            }
            if (sentEnd != offset || acked.get() >= offset || !paced()) {
                return false;
            }
            long waiting = store.maxOffset() - offset;
            if (waiting <= 0 || waiting >= batch) {
                return false;
            }
            held.set(true);
            return acked.get() < offset;
        }

        /** The write thread sends up to {@code end}. */
        void sending(long end) {
            sentEnd = end;
        }

        /** After the acknowledged offset was raised: true if the write thread must be woken for waiting data. */
        boolean acknowledged() {
            return held.get() && held.getAndSet(false);
        }

        boolean held() {
            return held.get();
        }
    }
}
