package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.PutMessageStatus;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.ha.HAService;
import org.apache.rocketmq.store.stats.BrokerStatsManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P13 on the HAService of a real (unstarted) SYNC_MASTER store: which requests the slave's acknowledgements complete,
 * in which order, with which status, and when the transfer thread's round times them out.
 */
class ReplicaAcksTest {

    @TempDir
    Path dir;

    private DefaultMessageStore store;
    private HAService ha;

    @BeforeEach
    void store() throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.toString());
        config.setStorePathCommitLog(dir.resolve("commitlog").toString());
        config.setBrokerRole(BrokerRole.SYNC_MASTER);
        config.setHaListenPort(0);
        config.setSyncFlushTimeout(200);
        store = new DefaultMessageStore(config, new BrokerStatsManager("test"), null, new BrokerConfig());
        ha = store.getHaService();
    }

    @AfterEach
    void forget() {
        ReplicaAcks.forget(ha);
        store.destroy();
    }

    private CompletableFuture<PutMessageStatus> put(long nextOffset) {
        CommitLog.GroupCommitRequest r = new CommitLog.GroupCommitRequest(nextOffset, 200);
        ReplicaAcks.putRequest(ha, r);
        return r.future();
    }

    @Test
    void theTransferThreadRestsOnlyWhileNoRequestWaits() {
        assertEquals(ReplicaAcks.QUIET_MILLIS, ReplicaAcks.transferWaitMillis(10), "nothing queued yet");
        CompletableFuture<PutMessageStatus> a = put(100);
        assertEquals(10, ReplicaAcks.transferWaitMillis(10), "a request waits: stock's interval");
        ReplicaAcks.notifyTransferSome(ha, 100);
        assertEquals(PutMessageStatus.PUT_OK, a.getNow(null));
        assertEquals(ReplicaAcks.QUIET_MILLIS, ReplicaAcks.transferWaitMillis(10), "answered: quiet again");
        CompletableFuture<PutMessageStatus> b = put(200);
        assertEquals(10, ReplicaAcks.transferWaitMillis(10));
        ReplicaAcks.sweepAt(System.currentTimeMillis() + 200, System.nanoTime());
        assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, b.getNow(null), "timed out by the round");
        assertEquals(ReplicaAcks.QUIET_MILLIS, ReplicaAcks.transferWaitMillis(10));
        assertEquals(500, ReplicaAcks.transferWaitMillis(500), "never shorter than stock's");
    }

    @Test
    void anAcknowledgementCompletesWhatTheSlaveHoldsInOrderAndNothingElse() {
        List<Long> order = new ArrayList<>();
        CompletableFuture<PutMessageStatus> a = put(100);
        CompletableFuture<PutMessageStatus> b = put(200);
        CompletableFuture<PutMessageStatus> c = put(300);
        a.thenRun(() -> order.add(100L));
        b.thenRun(() -> order.add(200L));
        ReplicaAcks.notifyTransferSome(ha, 99);
        assertFalse(a.isDone(), "one byte short");
        assertEquals(99, ha.getPush2SlaveMaxOffset().get());
        ReplicaAcks.notifyTransferSome(ha, 250);
        assertEquals(PutMessageStatus.PUT_OK, a.join());
        assertEquals(PutMessageStatus.PUT_OK, b.join());
        assertEquals(List.of(100L, 200L), order);
        assertFalse(c.isDone());
        assertEquals(1, ReplicaAcks.waiting(ha));
        ReplicaAcks.notifyTransferSome(ha, 120);
        assertEquals(250, ha.getPush2SlaveMaxOffset().get(), "an older acknowledgement never lowers the offset (stock's CAS)");
        ReplicaAcks.notifyTransferSome(ha, 300);
        assertEquals(PutMessageStatus.PUT_OK, c.join());
        assertEquals(0, ReplicaAcks.waiting(ha));
    }

    @Test
    void aRequestTheSlaveAlreadyHoldsIsCompletedByThePut() {
        ReplicaAcks.notifyTransferSome(ha, 1000);
        CompletableFuture<PutMessageStatus> f = put(1000);
        assertTrue(f.isDone());
        assertEquals(PutMessageStatus.PUT_OK, f.join());
    }

    @Test
    void theTransferThreadsRoundTimesOutOnlyWhatIsLateAndNotAcknowledged() throws Exception {
        CompletableFuture<PutMessageStatus> late = put(500);
        ReplicaAcks.sweep(null);
        assertFalse(late.isDone(), "before syncFlushTimeout");
        Thread.sleep(260);
        CompletableFuture<PutMessageStatus> fresh = put(600);
        ReplicaAcks.sweep(null);
        assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, late.join());
        assertFalse(fresh.isDone(), "its own timeout counts from its own put");
        ReplicaAcks.notifyTransferSome(ha, 600);
        assertEquals(PutMessageStatus.PUT_OK, fresh.join());
    }

    @Test
    void concurrentPutsAndAcknowledgementsCompleteEveryRequestOnceWithPutOk() throws Exception {
        int threads = 4;
        int perThread = 5000;
        AtomicLong offset = new AtomicLong();
        List<List<CompletableFuture<PutMessageStatus>>> futures = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            List<CompletableFuture<PutMessageStatus>> mine = new ArrayList<>();
            futures.add(mine);
            new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    mine.add(put(offset.addAndGet(100)));
                }
                done.countDown();
            }).start();
        }
        Random random = new Random(3);
        while (done.getCount() > 0) {
            // The slave acknowledges somewhat behind the puts, as a real one does.
            ReplicaAcks.notifyTransferSome(ha, Math.max(0, offset.get() - 100L * random.nextInt(50)));
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        ReplicaAcks.notifyTransferSome(ha, offset.get());
        for (List<CompletableFuture<PutMessageStatus>> mine : futures) {
            assertEquals(perThread, mine.size());
            for (CompletableFuture<PutMessageStatus> f : mine) {
                assertEquals(PutMessageStatus.PUT_OK, f.getNow(null));
            }
        }
        assertEquals(0, ReplicaAcks.waiting(ha));
    }

    // ---- 4.9.3 to 4.9.8: the variant, each request until its own deadline (System.nanoTime based) ----

    private CompletableFuture<PutMessageStatus> putUntil(long nextOffset, long deadlineNanos) {
        CommitLog.GroupCommitRequest r = new CommitLog.GroupCommitRequest(nextOffset, 200);
        ReplicaAcks.putUntil(ha, r, deadlineNanos);
        return r.future();
    }

    /** The request's own deadline counts, not syncFlushTimeout (200 ms here): 4.9.3+'s slaveTimeout. */
    @Test
    void theVariantTimesOutAtTheRequestsOwnDeadlineNotSyncFlushTimeout() throws Exception {
        CompletableFuture<PutMessageStatus> early = putUntil(500, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(40));
        CompletableFuture<PutMessageStatus> late = putUntil(600, System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
        ReplicaAcks.sweep(null);
        assertFalse(early.isDone(), "before its deadline");
        Thread.sleep(80);
        ReplicaAcks.sweep(null);
        assertEquals(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, early.getNow(null), "40 ms, well before syncFlushTimeout");
        Thread.sleep(200);
        ReplicaAcks.sweep(null);
        assertFalse(late.isDone(), "syncFlushTimeout passed, its own deadline not");
        ReplicaAcks.notifyTransferSome(ha, 599);
        assertFalse(late.isDone(), "the slave one byte short");
        ReplicaAcks.notifyTransferSome(ha, 600);
        assertEquals(PutMessageStatus.PUT_OK, late.getNow(null), "slave ack offset >= the request's next offset");
        assertEquals(0, ReplicaAcks.waiting(ha));
    }

    /** A deadline passed but acknowledged by the sweep's time: PUT_OK, as stock's last check of transferOK gives. */
    @Test
    void anExpiredRequestTheSlaveHoldsIsPutOk() {
        long now = System.nanoTime();
        CompletableFuture<PutMessageStatus> f = putUntil(100, now - 1);
        ha.getPush2SlaveMaxOffset().set(100);
        ReplicaAcks.sweepAt(0L, now);
        assertEquals(PutMessageStatus.PUT_OK, f.getNow(null));
    }

    /**
     * 4.9.0's GroupCommitRequest has no getDeadLine(): the variant's put (compiled against 4.9.7's store) does not link
     * there and queues nothing; the patch plan keeps it off 4.9.0.
     */
    @Test
    void theVariantsPutNeedsTheReleasesGetDeadLine() {
        CommitLog.GroupCommitRequest r = new CommitLog.GroupCommitRequest(100, 200);
        NoSuchMethodError e = assertThrows(NoSuchMethodError.class, () -> ReplicaDeadlines.putRequestUntilDeadline(ha, r));
        assertTrue(e.getMessage().contains("getDeadLine"), e.getMessage());
        assertEquals(0, ReplicaAcks.waiting(ha));
        assertFalse(r.future().isDone());
    }

    /**
     * Random orders of puts, acknowledgements, clock steps and transfer rounds against a plain model of 4.9.3+'s
     * GroupTransferService loop (one thread, requests in put order, each: transferOK = acked >= nextOffset, wait while
     * !transferOK and deadLine - now > 0, then PUT_OK or FLUSH_SLAVE_TIMEOUT), run at the same instants as the sweeps.
     * Every request ends with the model's status; none is answered later than the model answers it; PUT_OK never
     * before the slave holds it, FLUSH_SLAVE_TIMEOUT never before its deadline. The clock starts just below
     * Long.MAX_VALUE, so deadlines wrap as System.nanoTime() values may (stock compares by difference).
     */
    @Test
    void randomOrdersGiveStocksAnswersAtTheSameRoundsOrEarlier() {
        int[] seen = new int[PutMessageStatus.values().length];
        for (int seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            ReplicaAcks.forget(ha);
            ha.getPush2SlaveMaxOffset().set(0);
            long now = Long.MAX_VALUE - 5_000;
            long timeout = 1 + random.nextInt(2_000);
            long lastNext = 0;
            long ack = 0;
            List<long[]> requests = new ArrayList<>();                        // next, deadline
            List<CompletableFuture<PutMessageStatus>> codec = new ArrayList<>();
            List<PutMessageStatus> model = new ArrayList<>();
            Deque<Integer> modelQueue = new ArrayDeque<>();
            int events = 50 + random.nextInt(300);
            for (int i = 0; i < events; i++) {
                switch (random.nextInt(4)) {
                    case 0: {
                        // Puts reach the queue nearly, not exactly, in offset order (submitReplicaRequest runs outside the put lock).
                        long next = random.nextInt(8) == 0 ? Math.max(1, lastNext - random.nextInt(200))
                            : lastNext + 1 + random.nextInt(200);
                        lastNext = Math.max(lastNext, next);
                        long deadline = now + timeout;
                        requests.add(new long[] {next, deadline});
                        model.add(null);
                        modelQueue.add(requests.size() - 1);
                        codec.add(putUntil(next, deadline));
                        break;
                    }
                    case 1:
                        if (lastNext > ack) {
                            ack = ack + 1 + (long) (random.nextDouble() * (lastNext - ack));
                            ReplicaAcks.notifyTransferSome(ha, ack);
                        }
                        break;
                    case 2:
                        now += random.nextInt(400);
                        break;
                    default:
                        break;
                }
                ReplicaAcks.sweepAt(0L, now);
                modelRound(modelQueue, requests, model, ack, now);
                check(seed, requests, codec, model, ack, now);
            }
            now += timeout + 1;
            ReplicaAcks.sweepAt(0L, now);
            modelRound(modelQueue, requests, model, ack, now);
            check(seed, requests, codec, model, ack, now);
            for (int r = 0; r < requests.size(); r++) {
                assertEquals(model.get(r), codec.get(r).getNow(null), "seed " + seed + ", request " + r);
                seen[model.get(r).ordinal()]++;
            }
            assertEquals(0, ReplicaAcks.waiting(ha), "seed " + seed);
        }
        assertTrue(seen[PutMessageStatus.PUT_OK.ordinal()] > 1000 && seen[PutMessageStatus.FLUSH_SLAVE_TIMEOUT.ordinal()] > 1000,
            "both answers, many times: " + java.util.Arrays.toString(seen));
    }

    /** Stock 4.9.3+'s doWaitTransfer at one instant: the head waits until acknowledged or past its deadline. */
    private static void modelRound(Deque<Integer> queue, List<long[]> requests, List<PutMessageStatus> model, long acked,
                                   long now) {
        while (!queue.isEmpty()) {
            long[] req = requests.get(queue.peek());
            boolean transferOK = acked >= req[0];
            if (!transferOK && req[1] - now > 0) {
                return;
            }
            model.set(queue.poll(), transferOK ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
        }
    }

    private static void check(int seed, List<long[]> requests, List<CompletableFuture<PutMessageStatus>> codec,
                              List<PutMessageStatus> model, long acked, long now) {
        for (int r = 0; r < requests.size(); r++) {
            PutMessageStatus got = codec.get(r).getNow(null);
            String where = "seed " + seed + ", request " + r;
            if (model.get(r) != null) {
                assertEquals(model.get(r), got, where + ": answered by the model's round, so by then by the codec");
            }
            if (got == PutMessageStatus.PUT_OK) {
                assertTrue(acked >= requests.get(r)[0], where);
            } else if (got == PutMessageStatus.FLUSH_SLAVE_TIMEOUT) {
                assertTrue(requests.get(r)[1] - now <= 0, where + ": timed out before its deadline");
            } else {
                assertNull(got, where);
            }
        }
    }
}
