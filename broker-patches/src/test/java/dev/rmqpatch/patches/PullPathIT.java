package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;

/**
 * The pull path of the patched broker with P10-P12 on, and with them switched off: the same sends, each run on a fresh
 * broker, must leave the same consume-queue files byte for byte (P12 writes them through the mapping, stock through
 * the file channel), after a clean stop and again after a restart (recovery reads the files, then appends continue
 * where it left them); a stock 4.9.0 push consumer (DefaultMQPushConsumer: PULL_MESSAGE requests decoded by P10, pull
 * responses encoded by P11) then reads every message, with its body and properties, and a pull request without its
 * queueId gets an error response naming the field with P10 on. With the patches on, the consumer side too (P28, and
 * P2 and P10/P11's codecs in the client's jars): a push consumer on the patched distribution's jars, in a class loader
 * of its own, receives every message with every field equal to what the stock consumer received (but the consume
 * start time each consumer stamps), and a real pull response's body decodes in the patched jars to the messages stock's
 * decoder gives, field by field.
 */
class PullPathIT {

    private static final String TOPIC = "PullPathIT";
    /** Messages per round; two rounds, the second after a restart. */
    private static final int PER_ROUND = 200;
    private static final String OFF = "-Drmqpatch.disable=P10,P11,P12";

    @Test
    void consumeQueuesMatchWithThePatchesOnAndOffAndAPushConsumerReadsEverything() throws Exception {
        Run on = run(null);
        Run off = run(OFF);
        for (int round = 0; round < 2; round++) {
            Map<String, byte[]> a = on.queues.get(round);
            Map<String, byte[]> b = off.queues.get(round);
            assertEquals(b.keySet(), a.keySet(), "queue files after round " + (round + 1));
            int entries = 0;
            for (String file : a.keySet()) {
                assertArrayEquals(b.get(file), a.get(file), file + " after round " + (round + 1) + ", P12 on vs off");
                entries += entries(a.get(file), file);
            }
            assertEquals(PER_ROUND * (round + 1), entries, "one consume-queue entry per message after round " + (round + 1));
        }
    }

    /** What one broker left: the consume-queue files after each round, by path below the topic's folder. */
    private record Run(List<Map<String, byte[]>> queues) {
    }

    private static Run run(String flags) throws Exception {
        String label = flags == null ? "P10-P12 on" : flags;
        TestCluster cluster = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf");
        if (flags != null) {
            cluster.javaOpt(flags);
        }
        try (TestCluster c = cluster.start()) {
            List<Map<String, byte[]>> queues = new ArrayList<>();
            send(c, 0);
            c.stopBroker();
            queues.add(consumeQueueFiles(c));
            c.startBroker();
            send(c, PER_ROUND);
            c.stopBroker();
            queues.add(consumeQueueFiles(c));
            c.startBroker();
            assertActive(c, flags == null);
            long lap = System.nanoTime();
            Map<String, Map<String, String>> stockConsumer = pushConsumeAll(c, label);
            System.out.printf("PullPathIT %s: stock push consumer %.1f s%n", label, (System.nanoTime() - lap) / 1e9);
            pullWithoutQueueId(c, flags == null);
            if (flags == null) {
                lap = System.nanoTime();
                pullBodyDecodesInThePatchedJarsAsStock(c);
                Map<String, Map<String, String>> patchedConsumer = patchedClientConsumeAll(c);
                System.out.printf("PullPathIT %s: pull body decoded both ways, patched-jar push consumer %.1f s%n", label,
                    (System.nanoTime() - lap) / 1e9);
                assertEquals(stockConsumer, patchedConsumer,
                    "what a push consumer on the patched jars received, against the stock consumer's");
            }
            return new Run(queues);
        }
    }

    /** Sends keys [from, from + PER_ROUND) one by one, to queue (key mod queue count), and checks every result. */
    private static void send(TestCluster cluster, int from) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("pull-path-it-producer");
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setRetryTimesWhenSendFailed(0);
        producer.setSendMsgTimeout(10_000);
        producer.start();
        try {
            for (int i = from; i < from + PER_ROUND; i++) {
                SendResult r = producer.send(message(i), (mqs, msg, arg) -> mqs.get((Integer) arg % mqs.size()), i);
                assertEquals(SendStatus.SEND_OK, r.getSendStatus(), "send " + i);
            }
        } finally {
            producer.shutdown();
        }
    }

    private static Message message(int i) {
        Message m = new Message(TOPIC, "tag-" + (i % 3), "key-" + i, body(i));
        m.putUserProperty("seq", Integer.toString(i));
        m.putUserProperty("city", "Zürich-東京");
        return m;
    }

    private static byte[] body(int i) {
        // Lengths vary by key (and so do CommitLog offsets), the same in every run.
        return ("body " + i + " " + "x".repeat(i % 50)).getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, byte[]> consumeQueueFiles(TestCluster cluster) throws Exception {
        Path topicDir = cluster.commitLogDir().getParent().resolve("consumequeue").resolve(TOPIC);
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(topicDir)) {
            for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                files.put(topicDir.relativize(f).toString(), Files.readAllBytes(f));
            }
        }
        assertTrue(files.size() >= 2, "the topic's queues have files: " + files.keySet());
        return files;
    }

    /** Entries in a queue file: 20 bytes each (CommitLog offset, size, tags code) until the first all-zero one. */
    private static int entries(byte[] file, String name) {
        ByteBuffer buf = ByteBuffer.wrap(file);
        int n = 0;
        long lastOffset = -1;
        while (buf.remaining() >= 20) {
            long offset = buf.getLong();
            int size = buf.getInt();
            buf.getLong();
            if (offset == 0 && size == 0) {
                break;
            }
            assertTrue(size > 0 && offset > lastOffset, name + ": entry " + n + " offset " + offset + " size " + size);
            lastOffset = offset;
            n++;
        }
        return n;
    }

    /** The broker's (last) start-up line says which patches run: the "off" run must really run the stock code. */
    private static void assertActive(TestCluster cluster, boolean on) throws Exception {
        String line = Files.readAllLines(cluster.brokerLog()).stream().filter(l -> l.contains("rmqpatch: patches in the jars:"))
            .reduce((a, b) -> b).orElseThrow();
        String active = line.substring(line.indexOf("active:"), line.indexOf("; disabled"));
        for (String id : new String[] {"P10", "P11", "P12"}) {
            assertTrue(line.contains(id), "the jars carry " + id + ": " + line);
            assertEquals(on, active.contains(id), id + (on ? " runs" : " is off") + ": " + line);
        }
    }

    /**
     * A PULL_MESSAGE request without its queueId on a raw connection: the same error response with P10 on and off
     * (stock's decode logs the missing field and the processor fails later, on the null).
     */
    private static void pullWithoutQueueId(TestCluster cluster, boolean on) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, null);
            for (String[] kv : new String[][] {{"consumerGroup", "pull-path-it-push"}, {"topic", TOPIC}, {"queueOffset", "0"},
                {"maxMsgNums", "32"}, {"sysFlag", "0"}, {"commitOffset", "0"}, {"suspendTimeoutMillis", "0"},
                {"subVersion", "0"}, {"expressionType", "TAG"}}) {
                request.addExtField(kv[0], kv[1]);
            }
            RemotingCommand response = client.invokeSync(cluster.brokerAddr(), request, 10_000);
            assertEquals(ResponseCode.SYSTEM_ERROR, response.getCode(), String.valueOf(response.getRemark()));
            // As stock 4.9.0, with P10 on or off: the decode logs the missing field, leaves it null, and the
            // processor fails on the null.
            assertFalse(String.valueOf(response.getRemark()).contains("the custom field <queueId> is null"),
                response.getRemark());
        } finally {
            client.shutdown();
        }
    }

    /**
     * A stock 4.9.0 push consumer from the first offset: every key of both rounds, with its body and properties;
     * returns each key's message as {@link #fields}.
     */
    private static Map<String, Map<String, String>> pushConsumeAll(TestCluster cluster, String label) throws Exception {
        Map<String, Map<String, String>> received = new ConcurrentHashMap<>();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Set<String> wrong = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("pull-path-it-push");
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                int i = Integer.parseInt(m.getUserProperty("seq"));
                if (m.getKeys().equals("key-" + i) && m.getTags().equals("tag-" + (i % 3))
                    && "Zürich-東京".equals(m.getUserProperty("city")) && java.util.Arrays.equals(body(i), m.getBody())
                    && m.getQueueId() == i % 4) {
                    seen.add(m.getKeys());
                    received.put(m.getKeys(), fields(m));
                } else {
                    wrong.add(m.getKeys());
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            long deadline = System.currentTimeMillis() + 90_000;
            while (seen.size() < 2 * PER_ROUND && wrong.isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
        } finally {
            consumer.shutdown();
        }
        assertEquals(Set.of(), wrong, label + ": messages that came back different");
        assertEquals(2 * PER_ROUND, seen.size(), label + ": push consumer read " + seen.size() + " of " + 2 * PER_ROUND);
        return new TreeMap<>(received);
    }

    /**
     * The same push consumer, but the 4.9.0 client of the patched distribution's lib/ (its rocketmq-common rewritten:
     * P2, P28) in a class loader of its own, made and driven by reflection; returns each key's message as {@link #fields}.
     */
    private static Map<String, Map<String, String>> patchedClientConsumeAll(TestCluster cluster) throws Exception {
        Map<String, Map<String, String>> received = new ConcurrentHashMap<>();
        Set<String> failures = ConcurrentHashMap.newKeySet();
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (java.net.URLClassLoader lib = LibLoaders.of(TestCluster.dist("patched").resolve("lib"))) {
            Class<?> switches = LibLoaders.switches(lib, null);
            assertTrue(switches.getField("P28").getBoolean(null), "P28 runs in the patched client");
            Thread.currentThread().setContextClassLoader(lib);
            Class<?> consumerClass = lib.loadClass("org.apache.rocketmq.client.consumer.DefaultMQPushConsumer");
            Class<?> listenerClass = lib.loadClass("org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently");
            Class<?> whereClass = lib.loadClass("org.apache.rocketmq.common.consumer.ConsumeFromWhere");
            Class<?> statusClass = lib.loadClass("org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus");
            Object success = statusClass.getField("CONSUME_SUCCESS").get(null);
            Object listener = java.lang.reflect.Proxy.newProxyInstance(lib, new Class<?>[] {listenerClass}, (proxy, method, args) -> {
                switch (method.getName()) {
                    case "consumeMessage":
                        for (Object m : (List<?>) args[0]) {
                            try {
                                String keys = (String) m.getClass().getMethod("getKeys").invoke(m);
                                received.put(keys, fields(m));
                            } catch (ReflectiveOperationException | RuntimeException e) {
                                failures.add(e.toString());
                            }
                        }
                        return success;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == args[0];
                    default:
                        return "patched-client listener";
                }
            });
            Object consumer = consumerClass.getConstructor(String.class).newInstance("pull-path-it-patched-client");
            consumerClass.getMethod("setNamesrvAddr", String.class).invoke(consumer, cluster.namesrvAddr());
            consumerClass.getMethod("setConsumeFromWhere", whereClass).invoke(consumer,
                whereClass.getField("CONSUME_FROM_FIRST_OFFSET").get(null));
            consumerClass.getMethod("subscribe", String.class, String.class).invoke(consumer, TOPIC, "*");
            consumerClass.getMethod("registerMessageListener", listenerClass).invoke(consumer, listener);
            consumerClass.getMethod("start").invoke(consumer);
            try {
                long deadline = System.currentTimeMillis() + 90_000;
                while (received.size() < 2 * PER_ROUND && failures.isEmpty() && System.currentTimeMillis() < deadline) {
                    Thread.sleep(100);
                }
            } finally {
                consumerClass.getMethod("shutdown").invoke(consumer);
            }
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        assertEquals(Set.of(), failures, "the patched client's listener");
        assertEquals(2 * PER_ROUND, received.size(), "the patched client read " + received.size() + " of " + 2 * PER_ROUND);
        return new TreeMap<>(received);
    }

    /**
     * A real PULL_MESSAGE response of the broker (queue 0, from offset 0, 32 messages) decoded by stock's
     * MessageDecoder.decodes and by the patched jars' (P28, P2), field by field; and cut short at every tenth byte.
     */
    private static void pullBodyDecodesInThePatchedJarsAsStock(TestCluster cluster) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        byte[] body;
        try {
            RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, null);
            // The subscription flag (4) and "*": a group the broker has no heartbeat of pulls with its own subscription.
            for (String[] kv : new String[][] {{"consumerGroup", "pull-path-it-raw"}, {"topic", TOPIC}, {"queueId", "0"},
                {"queueOffset", "0"}, {"maxMsgNums", "32"}, {"sysFlag", "4"}, {"commitOffset", "0"},
                {"suspendTimeoutMillis", "0"}, {"subscription", "*"}, {"subVersion", "0"}, {"expressionType", "TAG"}}) {
                request.addExtField(kv[0], kv[1]);
            }
            RemotingCommand response = client.invokeSync(cluster.brokerAddr(), request, 10_000);
            assertEquals(ResponseCode.SUCCESS, response.getCode(), String.valueOf(response.getRemark()));
            body = response.getBody();
        } finally {
            client.shutdown();
        }
        try (java.net.URLClassLoader lib = LibLoaders.of(TestCluster.dist("patched").resolve("lib"))) {
            LibLoaders.switches(lib, null);
            java.lang.reflect.Method patchedDecodes = lib.loadClass("org.apache.rocketmq.common.message.MessageDecoder")
                .getMethod("decodes", ByteBuffer.class, boolean.class);
            for (int cut = body.length; cut >= 0; cut -= 37) {
                byte[] part = java.util.Arrays.copyOf(body, cut);
                List<MessageExt> stock = org.apache.rocketmq.common.message.MessageDecoder.decodes(ByteBuffer.wrap(part), true);
                List<?> patched = (List<?>) patchedDecodes.invoke(null, ByteBuffer.wrap(part), true);
                if (cut == body.length) {
                    assertEquals(32, stock.size(), "a full pull from the first offset of queue 0");
                }
                assertEquals(stock.size(), patched.size(), "messages in the body cut at " + cut);
                for (int i = 0; i < stock.size(); i++) {
                    assertEquals(fields(stock.get(i)), fields(patched.get(i)), "message " + i + " of the body cut at " + cut);
                }
            }
        }
    }

    /**
     * Every instance field of a message of any class loader's MessageExt, as text (bodies in hex, the properties
     * sorted by key, without the consume start time each consumer stamps on its own), and the class's name.
     */
    private static Map<String, String> fields(Object message) {
        Map<String, String> out = new TreeMap<>();
        out.put("class", message.getClass().getName());
        for (Class<?> c = message.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                Object v;
                try {
                    v = f.get(message);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
                String text;
                if (v instanceof byte[] b) {
                    text = java.util.HexFormat.of().formatHex(b);
                } else if (v instanceof Map<?, ?> m) {
                    Map<String, String> sorted = new TreeMap<>();
                    m.forEach((k, x) -> sorted.put(String.valueOf(k), String.valueOf(x)));
                    sorted.remove("CONSUME_START_TIME");
                    text = sorted.toString();
                } else {
                    text = String.valueOf(v);
                }
                out.put(c.getSimpleName() + "." + f.getName(), text);
            }
        }
        return out;
    }
}
