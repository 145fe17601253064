package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/**
 * What RocketMQ itself sends keeps working with S5 (fastjson safe mode) and S6 on: a producer and a push consumer
 * (heartbeats with subscriptions, offsets, rebalancing, pulls), the broker's registration at the name server, and the
 * distribution's own mqadmin, whose JVM loads the patched remoting jar too, so its own parse of every answer body runs
 * in safe mode: cluster, topic, route, status, consumer progress and message queries, and a topic created and updated.
 */
class SafeModeCompatibilityIT {

    private static final String TOPIC = "SafeModeIT";
    private static final String GROUP = "safe-mode-it-consumer";

    @Test
    void clientsBrokerNameServerAndAdminToolsWork() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker.conf").start()) {
            String created = c.mqadmin("updateTopic", "-n", c.namesrvAddr(), "-b", c.brokerAddr(), "-t", TOPIC, "-r", "4",
                "-w", "4");
            assertTrue(created.contains("create topic to " + c.brokerAddr() + " success"), created);

            Set<String> received = ConcurrentHashMap.newKeySet();
            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(GROUP);
            consumer.setNamesrvAddr(c.namesrvAddr());
            consumer.subscribe(TOPIC, "a || b");
            consumer.registerMessageListener((org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently)
                (msgs, ctx) -> {
                    msgs.forEach(m -> received.add(m.getKeys()));
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
            consumer.start();
            DefaultMQProducer producer = new DefaultMQProducer("safe-mode-it-producer");
            producer.setNamesrvAddr(c.namesrvAddr());
            producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
            producer.start();
            try {
                for (int i = 0; i < 40; i++) {
                    Message m = new Message(TOPIC, i % 2 == 0 ? "a" : "b", "key-" + i, ("body " + i).getBytes(StandardCharsets.UTF_8));
                    m.putUserProperty("json-looking", "{\"@type\":\"not.a.Class\"}");
                    assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus());
                }
                long deadline = System.currentTimeMillis() + 60_000;
                while (received.size() < 40 && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                assertEquals(40, received.size(), "every message consumed: " + received);
            } finally {
                producer.shutdown();
            }

            List<String[]> commands = List.of(
                new String[] {"clusterList", "-n", c.namesrvAddr()},
                new String[] {"topicList", "-n", c.namesrvAddr()},
                new String[] {"topicRoute", "-n", c.namesrvAddr(), "-t", TOPIC},
                new String[] {"topicStatus", "-n", c.namesrvAddr(), "-t", TOPIC},
                new String[] {"brokerStatus", "-n", c.namesrvAddr(), "-b", c.brokerAddr()},
                new String[] {"getBrokerConfig", "-n", c.namesrvAddr(), "-b", c.brokerAddr()},
                new String[] {"consumerProgress", "-n", c.namesrvAddr(), "-g", GROUP},
                new String[] {"consumerConnection", "-n", c.namesrvAddr(), "-g", GROUP},
                new String[] {"queryMsgByKey", "-n", c.namesrvAddr(), "-t", TOPIC, "-k", "key-7"},
                new String[] {"updateTopic", "-n", c.namesrvAddr(), "-b", c.brokerAddr(), "-t", TOPIC, "-r", "4", "-w", "4",
                    "-p", "6"});
            for (String[] command : commands) {
                String out = c.mqadmin(command);
                assertFalse(out.contains("Exception") || out.contains("safeMode") || out.trim().isEmpty(),
                    "mqadmin " + String.join(" ", command) + ":\n" + out);
            }
            assertTrue(c.mqadmin("topicRoute", "-n", c.namesrvAddr(), "-t", TOPIC).contains("\"perm\":6"),
                "the updated topic's route, parsed by mqadmin in safe mode");
            consumer.shutdown();
            String brokerLog = Files.readString(c.brokerLog());
            assertTrue(brokerLog.contains("rmqpatch: fastjson safe mode (S5): on"), "broker reports safe mode");
            assertTrue(Files.readString(c.namesrvLog()).contains("rmqpatch: fastjson safe mode (S5): on"),
                "name server reports safe mode");
            assertFalse(brokerLog.contains("safeMode not support autoType"), "nothing RocketMQ sent was refused");
        }
    }
}
