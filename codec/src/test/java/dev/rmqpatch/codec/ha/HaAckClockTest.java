package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.ha.HAService;
import org.apache.rocketmq.store.ha.WaitNotifyObject;
import org.apache.rocketmq.store.stats.BrokerStatsManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P29's clock: which data waits for the slave's acknowledgement (single steps), the static hooks on a real store's
 * HAService, and a whole replication in this JVM without sockets (put threads that wait for their acknowledgement as
 * synchronous senders do, the master's write thread as stock's loop drives it, a slave that acknowledges each transfer
 * after a random delay), paced and unpaced, on stock's WaitNotifyObject and on P16's: every put must be acknowledged
 * and, paced, some data must have waited. The write thread waits with an hour's interval, so a lost wake-up leaves a
 * put unacknowledged past {@link #LOST_AFTER_MS}: a bound on liveness, not a timing measurement.
 */
class HaAckClockTest {

    private static final long NEVER = TimeUnit.HOURS.toMillis(1);
    private static final long LOST_AFTER_MS = 60_000;
    private static final int BATCH = 32 * 1024;

    @TempDir
    Path dir;

    /** A clock over numbers the test sets: the CommitLog's end, the acknowledged offset, the connections, the role. */
    private static final class Numbers implements HaAckClock.Store {
        final AtomicLong end = new AtomicLong();
        final AtomicLong acked = new AtomicLong();
        final AtomicInteger connections = new AtomicInteger(1);
        final MessageStoreConfig config = new MessageStoreConfig();
        final WaitNotifyObject wno = new WaitNotifyObject();
        final HaAckClock.Clock clock = new HaAckClock.Clock(wno, acked, connections, this);

        Numbers() {
            config.setBrokerRole(BrokerRole.SYNC_MASTER);
            config.setHaTransferBatchSize(BATCH);
        }

        @Override
        public long maxOffset() {
            return end.get();
        }

        @Override
        public MessageStoreConfig config() {
            return config;
        }

        /** The write thread's look at the CommitLog from {@code offset}, as HaAckClock.commitLogData: bytes sent or 0. */
        long look(long offset) {
            if (clock.writerWaits(Thread.currentThread(), offset, BATCH)) {
                return -1;
            }
            long size = Math.min(end.get() - offset, BATCH);
            if (size <= 0) {
                return 0;
            }
            clock.sending(offset + size);
            return size;
        }
    }

    @Test
    void dataPutDuringATransferWaitsForItsAcknowledgementThenGoesOutTogether() {
        Numbers n = new Numbers();
        n.end.set(100);
        assertEquals(100, n.look(0), "nothing in flight: sent at once");
        n.end.set(150);
        assertTrue(n.clock.putWaits(), "the first transfer is unacknowledged: the put does not wake the writer");
        n.end.set(230);
        assertTrue(n.clock.putWaits());
        assertEquals(-1, n.look(100), "the writer, looking again, waits too");
        assertTrue(n.clock.held());
        n.acked.set(100);
        assertTrue(n.clock.acknowledged(), "the acknowledgement wakes the writer");
        assertFalse(n.clock.acknowledged(), "once");
        assertEquals(130, n.look(100), "both puts in one transfer");
        assertFalse(n.clock.held());
        n.acked.set(230);
        assertFalse(n.clock.acknowledged(), "nothing waited for this one: no wake-up");
        n.end.set(300);
        assertFalse(n.clock.putWaits(), "nothing in flight: the put wakes the writer as stock");
    }

    @Test
    void aBatchOrMoreIsSentAtOnce() {
        Numbers n = new Numbers();
        n.end.set(100);
        assertEquals(100, n.look(0));
        n.end.set(100 + BATCH - 1);
        assertTrue(n.clock.putWaits());
        n.end.set(100 + BATCH);
        assertFalse(n.clock.putWaits(), "a whole batch waits: send it");
        assertEquals(BATCH, n.look(100), "the writer streams while a batch or more waits");
        assertEquals(0, n.look(100 + BATCH), "nothing left, and no wait for it");
        assertFalse(n.clock.held());
    }

    @Test
    void onlyASyncMasterWithOneSlaveIsPaced() {
        for (int variant = 0; variant < 3; variant++) {
            Numbers n = new Numbers();
            n.end.set(100);
            assertEquals(100, n.look(0));
            n.end.set(200);
            if (variant == 0) {
                n.config.setBrokerRole(BrokerRole.ASYNC_MASTER);
            } else if (variant == 1) {
                n.connections.set(2);
            } else {
                n.connections.set(0);
            }
            assertFalse(n.clock.putWaits(), "variant " + variant);
            assertEquals(100, n.look(100), "variant " + variant);
        }
    }

    @Test
    void aNewWriteThreadStartsWithNothingInFlight() throws Exception {
        Numbers n = new Numbers();
        n.end.set(100);
        assertEquals(100, n.look(0));
        n.end.set(150);
        assertTrue(n.clock.putWaits());
        // A new connection's write thread (the old one's transfer never acknowledged) starts from the slave's offset.
        long[] sent = new long[2];
        Thread next = new Thread(() -> {
            sent[0] = n.look(0);
            sent[1] = n.look(150);
        });
        next.start();
        next.join();
        assertEquals(150, sent[0], "its first look sends, whatever the old thread had in flight");
        assertEquals(0, sent[1], "nothing more");
        n.end.set(170);
        assertTrue(n.clock.putWaits(), "now its own transfer is in flight");
    }

    @Test
    void aWriterThatHasSentNothingNeverWaits() {
        Numbers n = new Numbers();
        // The write thread of a fresh slave starts at the start of the master's last file, past what the slave has
        // acknowledged (0): it has sent nothing, so nothing of it is in flight and no acknowledgement is due.
        n.end.set(64);
        assertEquals(0, n.look(64), "nothing to send yet: stock's null");
        n.end.set(100);
        assertFalse(n.clock.putWaits(), "the put wakes the writer");
        assertEquals(36, n.look(64), "which sends at once");
    }

    @Test
    void theStaticHooksWireTheStoresHaServiceAndCallStock() throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.toString());
        config.setStorePathCommitLog(dir.resolve("commitlog").toString());
        config.setBrokerRole(BrokerRole.SYNC_MASTER);
        config.setHaListenPort(0);
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager("test"), null, new BrokerConfig());
        HAService ha = store.getHaService();
        WaitNotifyObject wno = ha.getWaitNotifyObject();
        try {
            assertNull(HaAckClock.clockOf(wno));
            HaAckClock.wakeupAll(wno);
            HaAckClock.notifyTransferSome(ha, 100);
            assertEquals(100, ha.getPush2SlaveMaxOffset().get(), "stock's notifyTransferSome ran");
            assertNull(HaAckClock.commitLogData(store, 0), "an empty store has nothing to send");
            assertNotNull(HaAckClock.clockOf(wno), "the write thread's first look makes the clock");
            HaAckClock.wakeupAll(wno);
            HaAckClock.notifyTransferSome(ha, 50);
            assertEquals(100, ha.getPush2SlaveMaxOffset().get(), "an older acknowledgement never lowers it");
        } finally {
            HaAckClock.forget(wno);
            store.destroy();
        }
    }

    @Test
    void aReplicationLosesNoWakeUpAndSendsTheCommitLogGapFree() throws Exception {
        long seed = Seeds.seed();
        for (HaWakeupsTest.Wakeups wakeups : new HaWakeupsTest.Wakeups[] {HaWakeupsTest.STOCK, HaWakeupsTest.PATCHED}) {
            Run unpaced = new Run(wakeups, false, seed).go();
            Run paced = new Run(wakeups, true, seed).go();
            String where = wakeups + ", " + Seeds.replay(seed, 0) + ": paced " + paced + ", unpaced " + unpaced;
            assertTrue(paced.waited.get() > 0, "data waited for acknowledgements: " + where);
            System.out.println("[HaAckClockTest] " + where);
        }
    }

    /** One replication: put threads, the write thread, the slave. */
    private static final class Run {
        static final int PUTTERS = 8;
        static final int PUTS = 1000;

        final HaWakeupsTest.Wakeups wakeups;
        final boolean paced;
        final long seed;
        final Numbers n = new Numbers();
        final BlockingQueue<long[]> wire = new LinkedBlockingQueue<>();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger transfers = new AtomicInteger();
        final AtomicInteger waited = new AtomicInteger();
        volatile boolean stop;

        Run(HaWakeupsTest.Wakeups wakeups, boolean paced, long seed) {
            this.wakeups = wakeups;
            this.paced = paced;
            this.seed = seed;
        }

        Run go() throws Exception {
            Thread writer = new Thread(this::write, "writer");
            Thread slave = new Thread(this::slave, "slave");
            List<Thread> putters = new ArrayList<>();
            for (int i = 0; i < PUTTERS; i++) {
                int id = i;
                putters.add(new Thread(() -> put(id), "putter-" + i));
            }
            writer.start();
            slave.start();
            putters.forEach(Thread::start);
            for (Thread t : putters) {
                t.join();
            }
            stop = true;
            wakeups.wakeupAll(n.wno);
            wire.put(new long[0]);
            writer.join(LOST_AFTER_MS);
            slave.join(LOST_AFTER_MS);
            assertFalse(writer.isAlive() || slave.isAlive(), "threads ended");
            assertEquals(List.of(), failures, "seed " + seed);
            assertEquals(n.end.get(), n.acked.get(), "the slave acknowledged the whole CommitLog");
            return this;
        }

        /** A synchronous sender's put: append, wake the writer unless the data waits, wait for the acknowledgement. */
        void put(int id) {
            Random r = new Random(seed * 31 + id);
            for (int i = 0; i < PUTS && failures.isEmpty(); i++) {
                int size = r.nextInt(100) == 0 ? BATCH + r.nextInt(BATCH) : 1 + r.nextInt(600);
                long end = n.end.addAndGet(size);
                if (paced && n.clock.putWaits()) {
                    waited.incrementAndGet();
                } else {
                    wakeups.wakeupAll(n.wno);
                }
                long deadline = System.currentTimeMillis() + LOST_AFTER_MS;
                while (n.acked.get() < end) {
                    if (System.currentTimeMillis() > deadline) {
                        failures.add("put ending at " + end + " never acknowledged (acked " + n.acked.get() + ")");
                        return;
                    }
                    LockSupport.parkNanos(20_000);
                }
            }
        }

        /** Stock's WriteSocketService loop around the substituted getCommitLogData. */
        void write() {
            // Stock's table enters a thread when its first wait ends (P16 enters it at once): enter it first.
            wakeups.allWaitForRunning(n.wno, 1);
            long next = 0;
            while (!stop) {
                long size;
                if (paced) {
                    size = n.look(next);
                    if (size < 0) {
                        waited.incrementAndGet();
                        size = 0;
                    }
                } else {
                    size = Math.min(n.end.get() - next, BATCH);
                }
                if (size > 0) {
                    wire.add(new long[] {next, next + size});
                    transfers.incrementAndGet();
                    next += size;
                } else {
                    wakeups.allWaitForRunning(n.wno, NEVER);
                }
            }
        }

        /** Appends in order, acknowledges after a random delay, as the read thread then calls HaAckClock. */
        void slave() {
            Random r = new Random(seed);
            long expect = 0;
            try {
                while (true) {
                    long[] t = wire.take();
                    if (t.length == 0) {
                        return;
                    }
                    if (t[0] != expect) {
                        failures.add("a gap or overlap: transfer from " + t[0] + ", expected " + expect);
                        return;
                    }
                    expect = t[1];
                    if (r.nextInt(3) == 0) {
                        LockSupport.parkNanos(r.nextInt(300_000));
                    }
                    for (long v = n.acked.get(); expect > v; v = n.acked.get()) {
                        if (n.acked.compareAndSet(v, expect)) {
                            break;
                        }
                    }
                    if (paced && n.clock.acknowledged()) {
                        wakeups.wakeupAll(n.wno);
                    }
                }
            } catch (InterruptedException e) {
                failures.add("slave interrupted");
            }
        }

        @Override
        public String toString() {
            return PUTTERS * PUTS + " puts in " + transfers.get() + " transfers, " + waited.get() + " waits";
        }
    }
}
