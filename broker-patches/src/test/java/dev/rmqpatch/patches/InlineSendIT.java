package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

/**
 * P30 on a patched broker from the distribution (stock's broker.conf: one send thread, as 4.9.0's default).
 * <ul>
 * <li>Sends one after another all run on the thread that read them: the broker never starts a send-executor thread
 * (its pool creates workers on demand, and /proc names them); with {@code -Drmqpatch.disable=P30} it does.</li>
 * <li>A connection's asynchronous sends to one queue are stored in the order it sent them (queue offsets follow the
 * sequence) while another connection's concurrent senders keep the broker's send executor busy, so sends go both
 * ways.</li>
 * </ul>
 */
class InlineSendIT {

    private static final String SEND_THREAD = "SendMessageThre"; // SendMessageThread_N, cut to 15 characters by Linux

    @Test
    void sendsOneAfterAnotherNeverWakeASendThreadAndTheSwitchRestoresIt() throws Exception {
        for (boolean on : new boolean[] {true, false}) {
            TestCluster cluster = new TestCluster(TestCluster.dist("patched"), "broker.conf");
            // What is checked here is where sends run, not P30's stall guard (StoreStallIT): a hiccup of this busy
            // machine over the guard's 50 ms must not send the rest through the executor.
            cluster.javaOpt("-Drmqpatch.inlineSend.slowMillis=60000");
            if (!on) {
                cluster.javaOpt("-Drmqpatch.disable=P30");
            }
            try (TestCluster c = cluster.start()) {
                DefaultMQProducer producer = producer(c, "inline-send-it-" + on);
                try {
                    for (int i = 0; i < 200; i++) {
                        Message m = new Message("InlineSendIT", "t", "k" + i, ("message " + i).getBytes(StandardCharsets.UTF_8));
                        assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus(), "send " + i);
                    }
                } finally {
                    producer.shutdown();
                }
                long sendThreads = threadsNamed(c.cluster().brokerPid(), SEND_THREAD);
                System.out.println("[InlineSendIT] P30 " + (on ? "on" : "off") + ": " + sendThreads
                    + " send-executor thread(s) after 200 sends one after another");
                if (on) {
                    assertEquals(0, sendThreads, "P30 on: every send ran on the thread that read it");
                } else {
                    assertEquals(1, sendThreads, "P30 off: stock's send thread ran them");
                }
            }
        }
    }

    @Test
    void aConnectionsSendsAreStoredInTheOrderItSentThemWhileOthersQueue() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker.conf").start()) {
            // One thread issues the asynchronous sends (stock's default pool would issue them from several).
            ExecutorService issuer = Executors.newSingleThreadExecutor();
            DefaultMQProducer ordered = new DefaultMQProducer("inline-send-ordered");
            ordered.setNamesrvAddr(c.namesrvAddr());
            ordered.setAsyncSenderExecutor(issuer);
            ordered.start();
            DefaultMQProducer others = producer(c, "inline-send-others");
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> othersFailed = new AtomicReference<>();
            List<Thread> load = new ArrayList<>();
            try {
                // Create the topic (and its route) first, then keep the send executor busy from another connection.
                ordered.send(new Message("InlineSendOrder", "t", "first", new byte[] {1}));
                for (int t = 0; t < 8; t++) {
                    Thread th = new Thread(() -> {
                        try {
                            while (!stop.get()) {
                                others.send(new Message("InlineSendLoad", "t", new byte[300]));
                            }
                        } catch (Throwable e) {
                            othersFailed.compareAndSet(null, e);
                        }
                    }, "others-" + t);
                    load.add(th);
                    th.start();
                }
                MessageQueue queue = ordered.fetchPublishMessageQueues("InlineSendOrder").get(0);
                int count = 3000;
                long[] offsets = new long[count];
                ConcurrentHashMap<Integer, String> failures = new ConcurrentHashMap<>();
                CountDownLatch done = new CountDownLatch(count);
                // At most 64 in flight: a flood would wait in the send queue past the broker's fast-failure limit
                // (waitTimeMillsInSendQueue, 200 ms) and be answered SYSTEM_BUSY, as stock answers it.
                Semaphore inFlight = new Semaphore(64);
                for (int i = 0; i < count; i++) {
                    int seq = i;
                    inFlight.acquire();
                    Message m = new Message("InlineSendOrder", "t", "s" + i, ("seq " + i).getBytes(StandardCharsets.UTF_8));
                    ordered.send(m, queue, new SendCallback() {
                        @Override
                        public void onSuccess(SendResult r) {
                            if (r.getSendStatus() != SendStatus.SEND_OK) {
                                failures.put(seq, r.getSendStatus().toString());
                            }
                            offsets[seq] = r.getQueueOffset();
                            inFlight.release();
                            done.countDown();
                        }

                        @Override
                        public void onException(Throwable e) {
                            failures.put(seq, e.toString());
                            inFlight.release();
                            done.countDown();
                        }
                    }, StockClientRoundTrip.SEND_TIMEOUT_MS);
                }
                assertTrue(done.await(120, TimeUnit.SECONDS), "every send answered");
                stop.set(true);
                for (Thread th : load) {
                    th.join(30_000);
                }
                assertTrue(failures.isEmpty(), "failed sends: " + failures);
                assertNull(othersFailed.get(), "the other connection's sends");
                for (int i = 1; i < count; i++) {
                    assertEquals(offsets[i - 1] + 1, offsets[i], "send " + i + " stored right after send " + (i - 1));
                }
                System.out.println("[InlineSendIT] " + count + " asynchronous sends of one connection stored in order; "
                    + threadsNamed(c.cluster().brokerPid(), SEND_THREAD) + " send-executor thread(s) started");
            } finally {
                stop.set(true);
                ordered.shutdown();
                others.shutdown();
                issuer.shutdownNow();
            }
        }
    }

    private static DefaultMQProducer producer(TestCluster c, String group) throws Exception {
        DefaultMQProducer p = new DefaultMQProducer(group);
        p.setNamesrvAddr(c.namesrvAddr());
        p.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
        p.start();
        return p;
    }

    /** Threads of process {@code pid} whose name (as Linux keeps it, 15 characters) starts with {@code prefix}. */
    private static long threadsNamed(long pid, String prefix) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).trim().startsWith(prefix);
                } catch (IOException e) {
                    return false; // the thread ended
                }
            }).count();
        }
    }
}
