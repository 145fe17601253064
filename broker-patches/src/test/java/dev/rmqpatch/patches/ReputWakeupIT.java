package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/**
 * P38 on a real patched 4.9.0 broker (JDK 8 where there is one). It ships off: by default the idle broker's dispatch
 * thread (ReputMessageService) sleeps stock's 1 ms and switches context thousands of times in 3 s; with
 * {@code -Drmqpatch.enable=P38} at most a few hundred (counts from /proc, not timings). Then a push consumer (long polling, which the
 * dispatch wakes) receives every message sent one at a time to the idle broker by each put path: synchronous and
 * asynchronous sends and a batch (CommitLog.asyncPutMessage(s), submitFlushRequest) and delayed messages, which the
 * schedule service puts back with 4.9.0's synchronous putMessage (handleDiskFlush).
 */
class ReputWakeupIT {

    private static final String THREAD = "ReputMessageSer";
    private static final long IDLE_MS = 3_000;

    @Test
    void anIdleBrokersDispatchThreadWaitsForAppendsAndEveryPutPathWakesIt() throws Exception {
        long stockSwitches;
        try (TestCluster stock = new TestCluster(TestCluster.dist("patched"), "broker.conf").preferJdk8().start()) {
            stockSwitches = idleSwitches(stock.cluster().brokerPid());
        }
        try (TestCluster cluster = new TestCluster(TestCluster.dist("patched"), "broker.conf")
                .javaOpt("-Drmqpatch.enable=P38").preferJdk8().start()) {
            long patchedSwitches = idleSwitches(cluster.cluster().brokerPid());
            System.out.println("ReputWakeupIT: idle dispatch thread, context switches in " + IDLE_MS + " ms: "
                + "-Drmqpatch.enable=P38 " + patchedSwitches + ", by default (off) " + stockSwitches);
            assertTrue(stockSwitches > 1_200, "off by default: the 1 ms sleep: " + stockSwitches);
            assertTrue(patchedSwitches < 600, "idle, at most about 100 wake-ups a second: " + patchedSwitches);
            everyPutPathIsConsumed(cluster.namesrvAddr());
        }
    }

    private static void everyPutPathIsConsumed(String namesrv) throws Exception {
        String topic = "ReputWakeupIT";
        int each = 10;
        int expected = 4 * each;
        Set<String> received = ConcurrentHashMap.newKeySet();
        CountDownLatch all = new CountDownLatch(expected);
        DefaultMQProducer producer = new DefaultMQProducer("reput-it-producer");
        producer.setNamesrvAddr(namesrv);
        producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
        producer.start();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("reput-it-consumer");
        try {
            // Creates the topic (auto-create) before the consumer subscribes.
            assertEquals(SendStatus.SEND_OK, producer.send(message(topic, "warm-up")).getSendStatus());
            consumer.setNamesrvAddr(namesrv);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe(topic, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    String body = new String(m.getBody(), StandardCharsets.UTF_8);
                    if (!body.equals("warm-up") && received.add(body)) {
                        all.countDown();
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            for (int i = 0; i < each; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(message(topic, "sync-" + i)).getSendStatus());
                Thread.sleep(30);
                CountDownLatch sent = new CountDownLatch(1);
                producer.send(message(topic, "async-" + i), new SendCallback() {
                    @Override
                    public void onSuccess(SendResult r) {
                        sent.countDown();
                    }

                    @Override
                    public void onException(Throwable e) {
                        e.printStackTrace();
                    }
                });
                assertTrue(sent.await(30, TimeUnit.SECONDS), "async send " + i);
                Thread.sleep(30);
                Message delayed = message(topic, "delayed-" + i);
                delayed.setDelayTimeLevel(1);
                assertEquals(SendStatus.SEND_OK, producer.send(delayed).getSendStatus());
                Thread.sleep(30);
            }
            List<Message> batch = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                batch.add(message(topic, "batch-" + i));
            }
            assertEquals(SendStatus.SEND_OK, producer.send(batch).getSendStatus());
            assertTrue(all.await(60, TimeUnit.SECONDS), "received " + received.size() + " of " + expected + ": "
                + received);
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
    }

    private static Message message(String topic, String body) {
        return new Message(topic, "t", body.getBytes(StandardCharsets.UTF_8));
    }

    /** Context switches of the broker's dispatch thread over {@link #IDLE_MS} of an idle broker. */
    private static long idleSwitches(long pid) throws IOException, InterruptedException {
        Thread.sleep(2_000);
        long before = switches(pid);
        Thread.sleep(IDLE_MS);
        return switches(pid) - before;
    }

    private static long switches(long pid) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            long total = -1;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (!Files.readString(task.resolve("comm")).trim().equals(THREAD)) {
                    continue;
                }
                total = 0;
                for (String line : Files.readAllLines(task.resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                        total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            }
            assertTrue(total >= 0, "no thread " + THREAD + " in broker " + pid);
            return total;
        }
    }
}
