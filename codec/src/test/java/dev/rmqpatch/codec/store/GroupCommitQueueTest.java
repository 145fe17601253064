package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.ServiceThread;
import org.apache.rocketmq.store.CommitLog.GroupCommitRequest;
import org.apache.rocketmq.store.MappedFileQueue;
import org.apache.rocketmq.store.PutMessageStatus;
import org.junit.jupiter.api.Test;

/**
 * P22's queue against stock's GroupCommitService lists: random histories of puts, swaps and commits from one thread
 * give the same completions (which request, in which order, with which status) as a copy of stock's list logic, and
 * puts from several threads racing the flush thread's swaps and commits lose no request, complete none twice and
 * complete each thread's requests in its order. The commits run stock's flush checks against a real (empty)
 * MappedFileQueue: a request up to offset 0 is flushed (PUT_OK), one beyond is not (FLUSH_DISK_TIMEOUT). The patched
 * GroupCommitService on a real SYNC_FLUSH store is checked against stock in broker-patches' GroupCommitIT.
 */
class GroupCommitQueueTest {

    private static final int THREADS = 4;

    @Test
    void randomHistoriesCompleteAsStocksLists() throws Exception {
        long seed = Seeds.seed();
        MappedFileQueue files = emptyFiles();
        for (int h = 0; h < 200; h++) {
            Random r = new Random(seed + h);
            List<String> stock = new ArrayList<String>();
            List<String> patched = new ArrayList<String>();
            StockLists lists = new StockLists();
            List<?> queue = GroupCommitQueue.newQueue();
            Wakeups wakeups = new Wakeups();
            int n = 0;
            for (int step = 0; step < 200; step++) {
                int op = r.nextInt(4);
                if (op <= 1) {
                    long offset = r.nextInt(3) == 0 ? 1 + r.nextInt(100) : 0;
                    lists.putRequest(request(offset, n, stock));
                    GroupCommitQueue.putRequest(queue, wakeups, request(offset, n, patched));
                    n++;
                } else if (op == 2) {
                    lists.swapRequests();
                    GroupCommitQueue.swapRequests(queue);
                } else {
                    lists.doCommit(files);
                    GroupCommitQueue.doCommit(queue, files, null);
                }
                assertEquals(stock, patched, Seeds.replay(seed, h) + " step " + step);
            }
            assertEquals(n, wakeups.count, "one wakeup per put");
        }
    }

    @Test
    void concurrentPutsRacingSwapsAndCommitsLoseNothingAndKeepEachThreadsOrder() throws Exception {
        long seed = Seeds.seed();
        MappedFileQueue files = emptyFiles();
        List<?> queue = GroupCommitQueue.newQueue();
        Wakeups wakeups = new Wakeups();
        int perThread = 50_000;
        List<String> completed = new ArrayList<String>(); // only the flush thread adds (completions run on it)
        AtomicBoolean putting = new AtomicBoolean(true);
        CountDownLatch start = new CountDownLatch(1);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<Throwable>());
        List<Thread> putters = new ArrayList<Thread>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Random r = new Random(seed + t);
            Thread p = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        long offset = r.nextInt(5) == 0 ? 1 : 0;
                        GroupCommitRequest req = new GroupCommitRequest(offset);
                        String name = id + ":" + i + ":" + (offset == 0 ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT);
                        req.future().thenAccept(status -> completed.add(name.startsWith(id + ":") && name.endsWith(":" + status)
                            ? name : "WRONG STATUS " + name + " " + status));
                        GroupCommitQueue.putRequest(queue, wakeups, req);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            p.start();
            putters.add(p);
        }
        Thread flusher = new Thread(() -> {
            try {
                start.await();
                while (putting.get()) {
                    GroupCommitQueue.swapRequests(queue);
                    GroupCommitQueue.doCommit(queue, files, null);
                }
                // As stock's run() after the loop: one more swap and commit (here two, for requests queued meanwhile).
                for (int i = 0; i < 2; i++) {
                    GroupCommitQueue.swapRequests(queue);
                    GroupCommitQueue.doCommit(queue, files, null);
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        flusher.start();
        start.countDown();
        for (Thread p : putters) {
            p.join();
        }
        putting.set(false);
        flusher.join();
        assertTrue(failures.isEmpty(), failures::toString);
        assertEquals(THREADS * perThread, completed.size(), "every request completed exactly once, " + Seeds.replay(seed, -1));
        int[] next = new int[THREADS];
        for (String c : completed) {
            assertTrue(!c.startsWith("WRONG"), c);
            String[] parts = c.split(":");
            int t = Integer.parseInt(parts[0]);
            assertEquals(next[t], Integer.parseInt(parts[1]), "thread " + t + " in its order, " + Seeds.replay(seed, -1));
            next[t]++;
        }
        assertEquals(THREADS * perThread, wakeups.count);
    }

    private static GroupCommitRequest request(long offset, int n, List<String> completions) {
        GroupCommitRequest req = new GroupCommitRequest(offset);
        req.future().thenAccept(status -> completions.add(n + " " + status));
        return req;
    }

    private static MappedFileQueue emptyFiles() throws Exception {
        File dir = Files.createTempDirectory("group-commit-queue").toFile();
        dir.deleteOnExit();
        return new MappedFileQueue(dir.getPath(), 1024 * 1024, null);
    }

    /** 4.9.0's GroupCommitService list logic (putRequest, swapRequests, doCommit), for the histories. */
    private static final class StockLists {
        private volatile List<GroupCommitRequest> requestsWrite = new ArrayList<GroupCommitRequest>();
        private volatile List<GroupCommitRequest> requestsRead = new ArrayList<GroupCommitRequest>();

        synchronized void putRequest(GroupCommitRequest request) {
            synchronized (this.requestsWrite) {
                this.requestsWrite.add(request);
            }
        }

        void swapRequests() {
            List<GroupCommitRequest> tmp = this.requestsWrite;
            this.requestsWrite = this.requestsRead;
            this.requestsRead = tmp;
        }

        void doCommit(MappedFileQueue mappedFileQueue) {
            synchronized (this.requestsRead) {
                if (!this.requestsRead.isEmpty()) {
                    for (GroupCommitRequest req : this.requestsRead) {
                        boolean flushOK = mappedFileQueue.getFlushedWhere() >= req.getNextOffset();
                        for (int i = 0; i < 2 && !flushOK; i++) {
                            mappedFileQueue.flush(0);
                            flushOK = mappedFileQueue.getFlushedWhere() >= req.getNextOffset();
                        }
                        req.wakeupCustomer(flushOK ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT);
                    }
                    this.requestsRead.clear();
                } else {
                    mappedFileQueue.flush(0);
                }
            }
        }
    }

    /** A flush thread that is never started: counts the wakeups a put makes. */
    private static final class Wakeups extends ServiceThread {
        volatile int count;

        @Override
        public synchronized void wakeup() {
            count++;
        }

        @Override
        public String getServiceName() {
            return "wakeups";
        }

        @Override
        public void run() {
        }
    }
}
