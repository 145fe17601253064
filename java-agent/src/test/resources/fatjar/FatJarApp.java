package app;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The application of AgentBrokerIT's fat-jar check, which FatJarApplication packages as a Spring Boot executable
 * jar (stock rocketmq-client 4.9.0 and its dependencies nested under BOOT-INF/lib/): sends COUNT messages to TOPIC with a stock DefaultMQProducer, then
 * consumes them with a DefaultMQPushConsumer, and says what it saw. Arguments: NAMESRV TOPIC COUNT LOG_DIR. Prints the
 * lines the test reads (APP-LOADER, ROCKETMQ-FROM, PROPERTIES, CODEC, SENT, CONSUMED, WRONG); exits 0 when every
 * message sent was consumed with its key and property, 1 otherwise.
 */
public final class FatJarApp {

    public static void main(String[] args) throws Exception {
        String namesrv = args[0];
        String topic = args[1];
        int count = Integer.parseInt(args[2]);
        // The client's own log file under the test's folder (stock writes to ~/logs/rocketmqlogs), set before any
        // RocketMQ class loads; a quicker rebalance retry than stock's 20 s, should the first one find no route.
        System.setProperty("rocketmq.client.logRoot", args[3]);
        System.setProperty("rocketmq.client.logUseSlf4j", "false");
        System.setProperty("rocketmq.client.rebalance.waitInterval", "1000");

        ClassLoader loader = FatJarApp.class.getClassLoader();
        System.out.println("APP-LOADER " + loader.getClass().getName());
        System.out.println("ROCKETMQ-FROM " + MessageDecoder.class.getProtectionDomain().getCodeSource().getLocation());
        // P2's marker: the class that walks the map's entries (P2 gives stock's very string, so the string is no marker).
        final String[] by = new String[1];
        Map<String, String> props = new LinkedHashMap<String, String>() {
            @Override
            public Set<Map.Entry<String, String>> entrySet() {
                if (by[0] == null) {
                    by[0] = new Throwable().getStackTrace()[1].getClassName();
                }
                return super.entrySet();
            }
        };
        props.put("a", "1");
        props.put("b", "2");
        System.out.println("PROPERTIES " + MessageDecoder.messageProperties2String(props).replace('\u0001', '=')
            .replace('\u0002', ';') + " BY " + by[0]);
        String codec;
        try {
            Class<?> c = Class.forName("dev.rmqpatch.codec.properties.MessageProperties", false, loader);
            codec = c.getClassLoader() == MessageDecoder.class.getClassLoader() ? "same-loader" : "other-loader " + c.getClassLoader();
        } catch (ClassNotFoundException e) {
            codec = "absent";
        }
        System.out.println("CODEC " + codec);

        Map<String, String> sent = new ConcurrentHashMap<>();
        DefaultMQProducer producer = new DefaultMQProducer("fatjar-producer-" + topic);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("fatjar-" + topic);
        producer.start();
        try {
            for (int i = 0; i < count; i++) {
                String body = topic + " " + i + " \u2713";
                Message m = new Message(topic, "tag-" + (i % 3), "key-" + i, body.getBytes(StandardCharsets.UTF_8));
                m.putUserProperty("seq", Integer.toString(i));
                SendResult r = producer.send(m);
                if (r.getSendStatus() != SendStatus.SEND_OK) {
                    System.out.println("SEND-FAILED " + i + " " + r);
                    System.exit(1);
                }
                sent.put(body, "key-" + i);
            }
        } finally {
            producer.shutdown();
        }
        System.out.println("SENT " + sent.size());

        Set<String> got = ConcurrentHashMap.newKeySet();
        List<String> wrong = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("fatjar-consumer-" + topic);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName("fatjar-" + topic);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                String key = sent.get(body);
                if (key == null || !key.equals(m.getKeys()) || !key.equals("key-" + m.getUserProperty("seq"))) {
                    wrong.add(body + " keys=" + m.getKeys() + " seq=" + m.getUserProperty("seq"));
                }
                got.add(body);
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (got.size() < sent.size() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        consumer.shutdown();
        System.out.println("CONSUMED " + got.size() + " of " + sent.size());
        if (!wrong.isEmpty()) {
            System.out.println("WRONG " + wrong);
        }
        System.out.flush();
        System.exit(got.equals(sent.keySet()) && wrong.isEmpty() ? 0 : 1);
    }
}
