package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
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
}
