package dev.rmqpatch.jmh;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.rmqpatch.codec.store.GroupCommitQueue;
import org.apache.rocketmq.common.ServiceThread;
import org.apache.rocketmq.store.CommitLog.GroupCommitRequest;
import org.apache.rocketmq.store.MappedFileQueue;
import org.apache.rocketmq.store.PutMessageStatus;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P22 (group commit lock): the time a sending thread spends queueing its GroupCommitRequest under SYNC_FLUSH
 * ({@code GroupCommitService.putRequest}), from as many threads as the machine has cores, while a flush thread swaps
 * the lists and completes them as the service does, working 50 µs per round in place of the fsync. Stock: 4.9.0's
 * list logic, copied (the service is a package-private inner class of CommitLog): a synchronized putRequest that
 * adds under the write list's monitor, and a doCommit that holds the read list's monitor through the flush.
 * Patched: {@code GroupCommitQueue} (the same synchronized method, the add and swap under a spin lock, no monitor
 * during the flush). The flush thread completes every request, so the queues stay short in both.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(Threads.MAX)
public class GroupCommitBenchmark {

    /** The flush thread's work per round, in place of the fsync. */
    static final long FLUSH_NANOS = 50_000;

    /** One service of each kind with its flush thread, shared by every sending thread as in the broker. */
    @State(Scope.Benchmark)
    public static class Services {
        public StockService stock;
        public List<?> queue;
        public ServiceThread wakeups;
        volatile boolean running;
        Thread stockFlusher;
        Thread patchedFlusher;
        MappedFileQueue files;

        @Setup(Level.Trial)
        public void start() throws Exception {
            stock = new StockService();
            queue = GroupCommitQueue.newQueue();
            wakeups = new NoWakeup();
            File dir = Files.createTempDirectory("group-commit-bench").toFile();
            dir.deleteOnExit();
            files = new MappedFileQueue(dir.getPath(), 1024 * 1024, null);
            running = true;
            stockFlusher = new Thread(() -> {
                while (running) {
                    stock.swapRequests();
                    stock.doCommit();
                }
            });
            patchedFlusher = new Thread(() -> {
                while (running) {
                    GroupCommitQueue.swapRequests(queue);
                    LockSupport.parkNanos(FLUSH_NANOS);
                    GroupCommitQueue.doCommit(queue, files, null);
                }
            });
            stockFlusher.setDaemon(true);
            patchedFlusher.setDaemon(true);
            stockFlusher.start();
            patchedFlusher.start();
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            running = false;
            stockFlusher.join();
            patchedFlusher.join();
        }
    }

    @Benchmark
    public Object stock(Services s) {
        GroupCommitRequest req = new GroupCommitRequest(0);
        s.stock.putRequest(req);
        return req;
    }

    @Benchmark
    public Object patched(Services s) {
        GroupCommitRequest req = new GroupCommitRequest(0);
        GroupCommitQueue.putRequest(s.queue, s.wakeups, req);
        return req;
    }

    /** 4.9.0's GroupCommitService lists and monitors; the flush is the 50 µs park. */
    public static final class StockService {
        private volatile List<GroupCommitRequest> requestsWrite = new ArrayList<GroupCommitRequest>();
        private volatile List<GroupCommitRequest> requestsRead = new ArrayList<GroupCommitRequest>();

        public synchronized void putRequest(final GroupCommitRequest request) {
            synchronized (this.requestsWrite) {
                this.requestsWrite.add(request);
            }
        }

        void swapRequests() {
            List<GroupCommitRequest> tmp = this.requestsWrite;
            this.requestsWrite = this.requestsRead;
            this.requestsRead = tmp;
        }

        void doCommit() {
            synchronized (this.requestsRead) {
                LockSupport.parkNanos(FLUSH_NANOS);
                for (GroupCommitRequest req : this.requestsRead) {
                    req.wakeupCustomer(PutMessageStatus.PUT_OK);
                }
                this.requestsRead.clear();
            }
        }
    }

    /** The wakeup the patched putRequest makes, a no-op here as the flush thread polls (so in both variants). */
    static final class NoWakeup extends ServiceThread {
        @Override
        public void wakeup() {
        }

        @Override
        public String getServiceName() {
            return "no-wakeup";
        }

        @Override
        public void run() {
        }
    }
}
