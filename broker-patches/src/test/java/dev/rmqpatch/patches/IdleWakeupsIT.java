package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
 * The timer threads of an idle, real patched 4.9.0 broker (JDK 8 where there is one), counted from /proc (context
 * switches over 3 s: counts, not timings), first with stock's cadences ({@code -Drmqpatch.disable=P13,P39,P40}; P38
 * ships off), then with {@code -Drmqpatch.enable=P38} and every other patch on:
 * <ul>
 * <li>P38: the store's dispatch thread (ReputMessageService) sleeps stock's 1 ms, thousands of switches, against at
 * most a few hundred;</li>
 * <li>P39: the BrokerFastFailure thread, stock's 10 ms timer (about 300), against about 30;</li>
 * <li>P13: the GroupTransferService thread, whose 10 ms round only looks for timeouts once P13 answers the sends
 * (about 300), against about 30;</li>
 * <li>P40: the schedule service's timer (4.9.0's one thread, which serves the 18 delay levels' 100 ms looks together:
 * 300-541 switches in 20 s idle, docs/results/reput-idle-2026-11-29/), against a handful (its offsets' persisting, every
 * 10 s).</li>
 * </ul>
 * Then, on the second broker, a push consumer (long polling, which the dispatch wakes) receives every message sent one
 * at a time to the idle broker by each put path: synchronous and asynchronous sends and a batch
 * (CommitLog.asyncPutMessage(s), submitFlushRequest) and delayed messages, which the schedule service puts back with
 * 4.9.0's synchronous putMessage (handleDiskFlush).
 */
class IdleWakeupsIT {

    private static final String REPUT = "ReputMessageSer";
    private static final String FAST_FAILURE = "BrokerFastFailu";
    private static final String TRANSFER = "GroupTransferSe";
    private static final String SCHEDULE = "ScheduleMessage";
    private static final List<String> TIMERS = List.of(REPUT, FAST_FAILURE, TRANSFER, SCHEDULE);
    private static final long IDLE_MS = 3_000;

    @Test
    void anIdleBrokersTimerThreadsRestAndEveryPutPathWakesTheDispatch() throws Exception {
        Map<String, Long> stock;
        try (TestCluster tc = new TestCluster(TestCluster.dist("patched"), "broker.conf")
                .javaOpt("-Drmqpatch.disable=P13,P39,P40").preferJdk8().start()) {
            stock = idleSwitches(tc.cluster().brokerPid());
        }
        try (TestCluster cluster = new TestCluster(TestCluster.dist("patched"), "broker.conf")
                .javaOpt("-Drmqpatch.enable=P38").preferJdk8().start()) {
            Map<String, Long> patched = idleSwitches(cluster.cluster().brokerPid());
            String report = "IdleWakeupsIT: idle threads' context switches in " + IDLE_MS + " ms: stock's cadences "
                + "(P38 off, -Drmqpatch.disable=P13,P39,P40) " + stock + ", patched with P38 " + patched;
            System.out.println(report);
            assertTrue(stock.get(REPUT) > 1_200, "P38 off: the 1 ms sleep: " + report);
            assertTrue(patched.get(REPUT) < 600, "P38: idle, at most about 100 wake-ups a second: " + report);
            assertTrue(stock.get(FAST_FAILURE) > 150, "P39 off: the 10 ms timer: " + report);
            assertTrue(patched.get(FAST_FAILURE) < 100, "P39: idle, about 10 wake-ups a second: " + report);
            assertTrue(stock.get(TRANSFER) > 150, "P13 off: the 10 ms round: " + report);
            assertTrue(patched.get(TRANSFER) < 100, "P13: no request waits, about 10 wake-ups a second: " + report);
            assertTrue(stock.get(SCHEDULE) > 25, "P40 off: 18 levels every 100 ms: " + report);
            assertTrue(patched.get(SCHEDULE) < 10, "P40: no delayed message stored, the levels rest: " + report);
            everyPutPathIsConsumed(cluster.namesrvAddr());
        }
    }

    private static void everyPutPathIsConsumed(String namesrv) throws Exception {
        String topic = "IdleWakeupsIT";
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

    /** Context switches of the broker's timer threads over {@link #IDLE_MS} of an idle broker, measured together. */
    private static Map<String, Long> idleSwitches(long pid) throws IOException, InterruptedException {
        Thread.sleep(2_000);
        Map<String, Long> before = new LinkedHashMap<>();
        for (String t : TIMERS) {
            before.put(t, ThreadSwitches.of(pid, t));
        }
        Thread.sleep(IDLE_MS);
        Map<String, Long> out = new LinkedHashMap<>();
        for (String t : TIMERS) {
            out.put(t, ThreadSwitches.of(pid, t) - before.get(t));
        }
        return out;
    }
}
