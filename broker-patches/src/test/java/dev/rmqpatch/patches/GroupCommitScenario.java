package dev.rmqpatch.patches;

import java.io.File;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;

/**
 * GroupCommitIT's scenario, loaded by {@link GroupCommitIT} into a class loader over a distribution's lib/ (so the
 * RocketMQ classes it links against are that distribution's, stock or patched): a SYNC_FLUSH store on a fresh folder
 * gets the seed's puts (sync and async, some with WAIT=false) from {@code threads} threads, each on its own queue.
 * It uses no JUnit (the loader sees only lib/ and this folder); it returns one line per put, in each thread's order,
 * and whether each thread's async results completed in the order it put them.
 */
public final class GroupCommitScenario {

    private GroupCommitScenario() {
    }

    public static List<String> run(String dir, long seed, int threads, int perThread) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir);
        config.setStorePathCommitLog(dir + File.separator + "commitlog");
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        config.setMappedFileSizeCommitLog(256 * 1024);
        config.setMappedFileSizeConsumeQueue(300_000 * 20);
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager("GroupCommitIT"), null,
            new BrokerConfig());
        if (!store.load()) {
            throw new IllegalStateException("store did not load");
        }
        store.start();
        try {
            List<List<String>> lines = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<String> mine = new ArrayList<>();
                lines.add(mine);
                int queue = t;
                Random r = new Random(seed + t);
                Thread w = new Thread(() -> {
                    try {
                        start.await();
                        putAll(store, queue, r, perThread, mine);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                w.start();
                workers.add(w);
            }
            start.countDown();
            for (Thread w : workers) {
                w.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException(failures.toString(), failures.get(0));
            }
            List<String> all = new ArrayList<>();
            all.add("requestsWrite: " + requestsWriteClass(store));
            for (List<String> l : lines) {
                all.addAll(l);
            }
            return all;
        } finally {
            store.shutdown();
            store.destroy();
        }
    }

    /** The class of the SYNC_FLUSH service's write list: stock's ArrayList or, patched, the codec's queue. */
    private static String requestsWriteClass(DefaultMessageStore store) throws Exception {
        Object commitLog = store.getCommitLog();
        java.lang.reflect.Field service = commitLog.getClass().getDeclaredField("flushCommitLogService");
        service.setAccessible(true);
        Object gcs = service.get(commitLog);
        java.lang.reflect.Field write = gcs.getClass().getDeclaredField("requestsWrite");
        write.setAccessible(true);
        return write.get(gcs).getClass().getName();
    }

    private static void putAll(DefaultMessageStore store, int queue, Random r, int n, List<String> out) throws Exception {
        List<CompletableFuture<PutMessageResult>> inFlight = new ArrayList<>();
        List<Integer> completed = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < n; i++) {
            boolean wait = r.nextInt(8) != 0;
            MessageExtBrokerInner msg = message(queue, i, wait, r);
            if (r.nextBoolean()) {
                PutMessageResult result = store.putMessage(msg);
                out.add(line(queue, i, wait, result));
            } else {
                int seq = i;
                CompletableFuture<PutMessageResult> f = store.asyncPutMessage(msg);
                if (wait) {
                    // WAIT=false answers at once, without a flush request: only the flushed ones are ordered.
                    f.thenRun(() -> completed.add(seq));
                }
                inFlight.add(f);
                if (inFlight.size() >= 1 + r.nextInt(16)) {
                    drain(queue, inFlight, out);
                }
            }
        }
        drain(queue, inFlight, out);
        // A thread's flush requests are appended and queued in its order; group commit completes them in that order.
        List<Integer> order = new ArrayList<>(completed);
        List<Integer> sorted = new ArrayList<>(order);
        Collections.sort(sorted);
        out.add("queue " + queue + " async completed in put order: " + order.equals(sorted) + ", " + order.size());
    }

    private static void drain(int queue, List<CompletableFuture<PutMessageResult>> inFlight, List<String> out)
        throws Exception {
        for (CompletableFuture<PutMessageResult> f : inFlight) {
            PutMessageResult result = f.get(30, TimeUnit.SECONDS);
            out.add(line(queue, -1, true, result));
        }
        inFlight.clear();
    }

    private static String line(int queue, int i, boolean wait, PutMessageResult result) {
        return "queue " + queue + " " + (i < 0 ? "async" : "sync " + i) + " " + result.getPutMessageStatus()
            + " logics " + result.getAppendMessageResult().getLogicsOffset();
    }

    private static MessageExtBrokerInner message(int queue, int i, boolean wait, Random r) {
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic("GroupCommitIT");
        msg.setQueueId(queue);
        msg.setTags("t");
        msg.setKeys("k" + i);
        msg.setWaitStoreMsgOK(wait);
        byte[] body = new byte[1 + r.nextInt(2_000)];
        r.nextBytes(body);
        msg.setBody(body);
        msg.setSysFlag(0);
        msg.setBornTimestamp(1_700_000_000_000L + i);
        msg.setBornHost(new InetSocketAddress("127.0.0.1", 10_000 + queue));
        msg.setStoreHost(new InetSocketAddress("127.0.0.1", 10_911));
        Map<String, String> props = new HashMap<>(msg.getProperties());
        msg.setPropertiesString(MessageDecoder.messageProperties2String(props));
        return msg;
    }
}
