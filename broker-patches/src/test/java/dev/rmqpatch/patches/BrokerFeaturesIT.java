package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The broker features whose paths re-encode or re-read message properties, on the patched broker with stock
 * clients: consumer retry and dead-letter queue, delayed delivery, and transactional half messages (the second
 * properties parse that P3 removes is the one that tells a transactional send from a normal one). One cluster for
 * the class, delay levels of one second, transaction checks every second.
 */
class BrokerFeaturesIT {

    private static final long WAIT_MS = 90_000;
    private static TestCluster cluster;
    private static DefaultMQProducer producer;

    @BeforeAll
    static void start() throws Exception {
        cluster = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf",
            "transactionTimeOut=1000", "transactionCheckInterval=1000").start();
        producer = new DefaultMQProducer("features-it-producer");
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setPollNameServerInterval(1000);
        producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
        producer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (producer != null) {
                producer.shutdown();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void failedConsumptionIsRetriedThenDeadLettered() throws Exception {
        String topic = "FeaturesRetry";
        String group = "features-retry-group";
        Message m = message(topic, "retry-1");
        assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
        List<MessageExt> deliveries = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = consumer(group, topic, (msgs, ctx) -> {
            deliveries.addAll(msgs);
            return ConsumeConcurrentlyStatus.RECONSUME_LATER;
        });
        consumer.setMaxReconsumeTimes(2);
        consumer.start();
        try {
            await(() -> deliveries.size() >= 3, "original delivery and 2 retries");
            for (int i = 0; i < 3; i++) {
                MessageExt d = deliveries.get(i);
                assertEquals(i, d.getReconsumeTimes(), "delivery " + i);
                assertSame(m, d);
            }
            String dlq = MixAll.getDLQTopic(group);
            QueryResult[] found = new QueryResult[1];
            await(() -> {
                try {
                    found[0] = consumer.queryMessage(dlq, "retry-1", 8, 0, Long.MAX_VALUE);
                    return !found[0].getMessageList().isEmpty();
                } catch (Exception notYet) {
                    return false;
                }
            }, "the message in " + dlq);
            assertSame(m, found[0].getMessageList().get(0));
        } finally {
            consumer.shutdown();
        }
    }

    @Test
    void delayedMessageArrivesAfterItsDelayWithItsProperties() throws Exception {
        String topic = "FeaturesDelay";
        Message m = message(topic, "delay-1");
        m.setDelayTimeLevel(2);
        assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
        List<MessageExt> got = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = consumer("features-delay-group", topic, (msgs, ctx) -> {
            got.addAll(msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            await(() -> !got.isEmpty(), "the delayed message");
            MessageExt d = got.get(0);
            assertSame(m, d);
            // Stored again by the schedule service when due: it cannot have been stored before its delay (1 s).
            assertTrue(d.getStoreTimestamp() - d.getBornTimestamp() >= 1000,
                "delivered " + (d.getStoreTimestamp() - d.getBornTimestamp()) + " ms after it was sent");
            assertEquals(topic, d.getProperty("REAL_TOPIC"), "went through SCHEDULE_TOPIC_XXXX");
        } finally {
            consumer.shutdown();
        }
    }

    @Test
    void transactionalMessagesAreHeldUntilCommittedAndRollbacksNeverDelivered() throws Exception {
        String topic = "FeaturesTx";
        Map<String, MessageExt> got = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = consumer("features-tx-group", topic, (msgs, ctx) -> {
            msgs.forEach(x -> got.put(x.getKeys(), x));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        TransactionMQProducer tx = new TransactionMQProducer("features-tx-producer");
        tx.setNamesrvAddr(cluster.namesrvAddr());
        Map<String, Integer> checks = new ConcurrentHashMap<>();
        tx.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                switch (msg.getKeys()) {
                    case "tx-commit":
                        return LocalTransactionState.COMMIT_MESSAGE;
                    case "tx-rollback":
                        return LocalTransactionState.ROLLBACK_MESSAGE;
                    default:
                        // Undecided: the broker holds the half message and asks back later.
                        return LocalTransactionState.UNKNOW;
                }
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                checks.merge(msg.getKeys(), 1, Integer::sum);
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        tx.start();
        try {
            Message commit = message(topic, "tx-commit");
            Message rollback = message(topic, "tx-rollback");
            Message checked = message(topic, "tx-check");
            for (Message m : new Message[] {commit, rollback, checked}) {
                assertEquals(SendStatus.SEND_OK, tx.sendMessageInTransaction(m, null).getSendStatus());
            }
            await(() -> got.containsKey("tx-commit") && got.containsKey("tx-check"), "committed and checked messages");
            assertNotNull(checks.get("tx-check"), "the undecided message was committed through the check-back");
            assertSame(commit, got.get("tx-commit"));
            assertSame(checked, got.get("tx-check"));
            assertFalse(got.containsKey("tx-rollback"), "a rolled-back message is never delivered");
            assertEquals(null, checks.get("tx-commit"), "a committed message is not checked back");
        } finally {
            tx.shutdown();
            consumer.shutdown();
        }
    }

    private static Message message(String topic, String key) {
        Message m = new Message(topic, "tag-" + key, key, ("body of " + key + " ✓ 消息").getBytes(StandardCharsets.UTF_8));
        m.putUserProperty("origin", key);
        m.putUserProperty("city", "Zürich-東京");
        return m;
    }

    private static void assertSame(Message sent, MessageExt got) {
        assertEquals(sent.getKeys(), got.getKeys());
        assertEquals(sent.getTags(), got.getTags());
        assertEquals(new String(sent.getBody(), StandardCharsets.UTF_8), new String(got.getBody(), StandardCharsets.UTF_8));
        assertEquals(sent.getUserProperty("origin"), got.getUserProperty("origin"));
        assertEquals(sent.getUserProperty("city"), got.getUserProperty("city"));
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, MessageListenerConcurrently listener)
        throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(cluster.namesrvAddr());
        // Topics here are created by the first send, possibly after the consumer started: learn routes quickly.
        c.setPollNameServerInterval(1000);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        c.registerMessageListener(listener);
        return c;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("gave up waiting for " + what);
            }
            Thread.sleep(200);
        }
    }
}
