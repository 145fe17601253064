package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.StartRequest;
import dev.rmqpatch.bench.sink.RawSinkServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The wire client's frames against a stock 4.9.0 DefaultMQProducer's, both captured at the raw sink for the same
 * workload (group, topic, body, tags, keys, user properties): decoded with stock {@link RemotingCommand#decode}, they
 * are the same command except opaque, born timestamp, queue id and unique key (and, in keyed runs, the KEYS value; in
 * runs with a payload pool, the body); and the header text is the stock producer's with those values replaced, byte for
 * byte (no padding, same field and property order). Keyed and pooled runs are also checked frame by frame, whole
 * frames byte for byte, against what stock code encodes for each frame's own values, over many keys.
 */
@Timeout(120)
class WireFramesMatchStockTest {
    private static final String RUN_ID = "eq1";
    private static final String GROUP = "rmqpatch-bench-" + RUN_ID;
    private static final String TOPIC = "bench-eq1-0";
    private static final int SIZE = 300;
    private static final int QUEUES = 4;
    /** A default-configured producer's settings (never started). */
    private static final DefaultMQProducer DEFAULTS = new DefaultMQProducer();

    private final List<byte[]> captured = new CopyOnWriteArrayList<>();
    private RawSinkServer sink;

    @BeforeEach
    void setUp() {
        sink = new RawSinkServer("127.0.0.1", 0, QUEUES, 1, captured::add);
    }

    @AfterEach
    void tearDown() {
        sink.close();
    }

    private static Map<String, String> userProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("color", "blue");
        p.put("shape", "round:\"quoted\"");
        return p;
    }

    private static byte[] body() {
        byte[] b = new byte[SIZE];
        new Random(SIZE).nextBytes(b);
        return b;
    }

    @Test
    void wireFramesDecodeToTheStockProducersCommandExceptThePerMessageFields() throws Exception {
        List<byte[]> stock = stockFrames(6, "TagA", "key-1 key-2");
        List<byte[]> wire = wireFrames(6, "TagA", "key-1 key-2");
        compare(stock, wire);
    }

    @Test
    void withoutTagsAndKeysToo() throws Exception {
        List<byte[]> stock = stockFrames(3, null, null);
        List<byte[]> wire = wireFrames(3, null, null);
        compare(stock, wire);
    }

    @Test
    void keyedRunsCarryEachMessagesKeyWhereTheStockClientPutsIt() throws Exception {
        String[] keySet = MessageKeys.keySet(0);
        List<String> stockKeys = List.of(keySet[0], keySet[1], keySet[2]);
        List<byte[]> stock = stockFrames(stockKeys, "TagA", null);
        List<byte[]> wire = wireFrames(6, "TagA", null, r -> r.keyDistributor = "KEY_ROUND_ROBIN");
        compareKeyed(stock, wire);
        // One sender: the agent's key set in turn, from its first key.
        for (int i = 0; i < wire.size(); i++) {
            assertEquals(keySet[i], properties(wire.get(i)).get(MessageConst.PROPERTY_KEYS), "key of message " + i);
        }
    }

    @Test
    void keyedRunsWithUserPropertiesAndWithoutTags() throws Exception {
        String[] keySet = MessageKeys.keySet(0);
        List<byte[]> stock = stockFrames(List.of(keySet[5], keySet[6]), null, null);
        List<byte[]> wire = wireFrames(4, null, "ignored-when-a-distributor-sets-keys", r -> r.keyDistributor = "RANDOM_NANO");
        compareKeyed(stock, wire);
    }

    @Test
    void manyKeysManySendersEveryFrameIsStockEncodingOfItsValues() throws Exception {
        String[] keySet = MessageKeys.keySet(0);
        List<byte[]> stock = stockFrames(List.of(keySet[9]), "TagB", null);
        // The test's stock encoder reproduces the stock producer's frame for its values.
        assertStockEncodingOfItsValues(stock.get(0), "TagB");
        // 8 senders: the answers of one read release several requests, written in one batch.
        List<byte[]> wire = wireFrames(3000, "TagB", null, r -> {
            r.keyDistributor = "RANDOM_NANO";
            r.threads = 8;
        });
        java.util.Set<String> keys = new java.util.HashSet<>();
        java.util.Set<String> set = java.util.Set.of(keySet);
        for (byte[] w : wire) {
            assertStockEncodingOfItsValues(w, "TagB");
            String key = properties(w).get(MessageConst.PROPERTY_KEYS);
            assertTrue(set.contains(key), key);
            keys.add(key);
        }
        assertTrue(keys.size() > 500, "many keys were checked: " + keys.size());
    }

    @Test
    void randomizedPayloadPoolsSendEachMessageOneBodyOfThePool() throws Exception {
        PrepareRequest pool = new PrepareRequest();
        pool.messageSize = SIZE;
        pool.randomizedPayloadPoolSize = 20;
        pool.randomBytesRatio = 0.5;
        List<byte[]> bodies = Bodies.of(pool).all();
        List<byte[]> stock = stockFrames(List.of("", ""), "TagA", "k1", bodies.get(3));
        List<byte[]> wire = wireFrames(400, "TagA", "k1", r -> {
            r.randomizedPayloadPoolSize = 20;
            r.randomBytesRatio = 0.5;
            r.threads = 4;
        });
        compareExceptBody(stock, wire);
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.Set<String> poolBodies = new java.util.HashSet<>();
        bodies.forEach(b -> poolBodies.add(java.util.Base64.getEncoder().encodeToString(b)));
        for (byte[] w : wire) {
            String b = java.util.Base64.getEncoder().encodeToString(RemotingCommand.decode(w).getBody());
            assertTrue(poolBodies.contains(b), "the body is one of the pool's");
            seen.add(b);
            assertStockEncodingOfItsValues(w, "TagA");
        }
        assertTrue(seen.size() > 15, "bodies are picked from the whole pool: " + seen.size());
    }

    @Test
    void keyedRunsWithAPoolOfCompressedBodies() throws Exception {
        // 5,000-byte bodies: at or above the client's 4 KiB threshold each body is sent compressed, as the client does.
        List<byte[]> wire = wireFrames(200, null, null, r -> {
            r.messageSize = 5000;
            r.randomizedPayloadPoolSize = 8;
            r.randomBytesRatio = 0.2;
            r.keyDistributor = "KEY_ROUND_ROBIN";
            r.threads = 2;
        });
        PrepareRequest pool = new PrepareRequest();
        pool.messageSize = 5000;
        pool.randomizedPayloadPoolSize = 8;
        pool.randomBytesRatio = 0.2;
        java.util.Set<String> poolBodies = new java.util.HashSet<>();
        Bodies.of(pool).all().forEach(b -> poolBodies.add(java.util.Base64.getEncoder().encodeToString(b)));
        for (byte[] w : wire) {
            RemotingCommand c = RemotingCommand.decode(w);
            int sysFlag = Integer.parseInt(c.getExtFields().get("f"));
            assertEquals(org.apache.rocketmq.common.sysflag.MessageSysFlag.COMPRESSED_FLAG, sysFlag & org.apache.rocketmq.common.sysflag.MessageSysFlag.COMPRESSED_FLAG);
            byte[] plain = org.apache.rocketmq.common.UtilAll.uncompress(c.getBody());
            assertTrue(poolBodies.contains(java.util.Base64.getEncoder().encodeToString(plain)), "a pool body");
            assertStockEncodingOfItsValues(w, null);
        }
    }

    private static Map<String, String> properties(byte[] frame) {
        return MessageDecoder.string2messageProperties(RemotingCommand.decode(frame).getExtFields().get("i"));
    }

    /**
     * The frame is, byte for byte, what stock code writes for a message with the frame's own values (opaque, queue,
     * born timestamp, unique key, KEYS, body): the path of the stock producer's sendKernelImpl, as in
     * {@link #stockFrames}: {@code new Message(topic, tags, keys, 0, body, true)}, the user properties, UNIQ_KEY, the V2
     * header, stock {@code encodeHeader}. A compressed body is taken as sent (the client compresses before encoding).
     */
    private static void assertStockEncodingOfItsValues(byte[] frame, String tags) {
        RemotingCommand c = RemotingCommand.decode(frame);
        Map<String, String> ext = c.getExtFields();
        Map<String, String> props = MessageDecoder.string2messageProperties(ext.get("i"));
        Message m = new Message(TOPIC, tags == null ? "" : tags, props.getOrDefault(MessageConst.PROPERTY_KEYS, ""), 0, c.getBody(), true);
        userProperties().forEach(m::putUserProperty);
        org.apache.rocketmq.common.message.MessageAccessor.putProperty(m, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
            props.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
        org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader h = new org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader();
        h.setProducerGroup(GROUP);
        h.setTopic(TOPIC);
        h.setDefaultTopic(DEFAULTS.getCreateTopicKey());
        h.setDefaultTopicQueueNums(DEFAULTS.getDefaultTopicQueueNums());
        h.setQueueId(Integer.parseInt(ext.get("e")));
        h.setSysFlag(Integer.parseInt(ext.get("f")));
        h.setBornTimestamp(Long.parseLong(ext.get("g")));
        h.setFlag(0);
        h.setProperties(MessageDecoder.messageProperties2String(m.getProperties()));
        h.setReconsumeTimes(0);
        h.setUnitMode(false);
        h.setBatch(false);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(org.apache.rocketmq.common.protocol.RequestCode.SEND_MESSAGE_V2,
            org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(h));
        cmd.setOpaque(c.getOpaque());
        cmd.setBody(c.getBody());
        java.nio.ByteBuffer header = cmd.encodeHeader(c.getBody().length);
        header.getInt();  // the frame's length field: the tap gives frames from the header-length field on
        byte[] expected = new byte[header.remaining() + c.getBody().length];
        header.get(expected, 0, header.remaining());
        System.arraycopy(c.getBody(), 0, expected, expected.length - c.getBody().length, c.getBody().length);
        assertArrayEquals(expected, frame, () -> "stock encoding of the frame's values:\n" + new String(expected, StandardCharsets.ISO_8859_1)
            + "\nwire frame:\n" + new String(frame, StandardCharsets.ISO_8859_1));
    }

    private void compare(List<byte[]> stock, List<byte[]> wire) {
        compare(stock, wire, true, true);
    }

    /** Keyed runs: KEYS differs from message to message (and from the stock producer's). */
    private void compareKeyed(List<byte[]> stock, List<byte[]> wire) {
        compare(stock, wire, true, false);
    }

    private void compareExceptBody(List<byte[]> stock, List<byte[]> wire) {
        compare(stock, wire, false, true);
    }

    private void compare(List<byte[]> stock, List<byte[]> wire, boolean sameBody, boolean sameKeys) {
        RemotingCommand reference = RemotingCommand.decode(stock.get(0));
        Map<String, String> refProps = MessageDecoder.string2messageProperties(reference.getExtFields().get("i"));
        List<Integer> wireQueues = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (byte[] w : wire) {
            RemotingCommand c = RemotingCommand.decode(w);
            assertEquals(reference.getCode(), c.getCode());
            assertEquals(reference.getLanguage(), c.getLanguage());
            assertEquals(reference.getVersion(), c.getVersion());
            assertEquals(reference.getFlag(), c.getFlag());
            assertEquals(reference.getRemark(), c.getRemark());
            assertEquals(reference.getSerializeTypeCurrentRPC(), c.getSerializeTypeCurrentRPC());
            if (sameBody) {
                assertArrayEquals(reference.getBody(), c.getBody(), "body");
            } else {
                assertEquals(reference.getBody().length, c.getBody().length, "body length");
            }
            Map<String, String> refExt = new HashMap<>(reference.getExtFields());
            Map<String, String> ext = new HashMap<>(c.getExtFields());
            for (String perMessage : List.of("e", "g", "i")) {
                refExt.remove(perMessage);
                ext.remove(perMessage);
            }
            assertEquals(refExt, ext, "header fields other than queue id, born timestamp and properties");
            Map<String, String> props = MessageDecoder.string2messageProperties(c.getExtFields().get("i"));
            String key = props.remove(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            String messageKeys = props.remove(MessageConst.PROPERTY_KEYS);
            Map<String, String> expected = new HashMap<>(refProps);
            String refKey = expected.remove(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            String refMessageKeys = expected.remove(MessageConst.PROPERTY_KEYS);
            assertEquals(refMessageKeys == null, messageKeys == null, "KEYS present in both or neither");
            if (sameKeys) {
                assertEquals(refMessageKeys, messageKeys, "KEYS");
            }
            assertEquals(expected, props, "properties other than UNIQ_KEY");
            assertEquals(refKey.length(), key.length(), "UNIQ_KEY length");
            assertEquals(refKey.substring(0, refKey.length() - 12), key.substring(0, key.length() - 12), "UNIQ_KEY fixed part");
            assertTrue(key.matches("[0-9A-F]+"), key);
            long born = Long.parseLong(c.getExtFields().get("g"));
            assertTrue(Math.abs(System.currentTimeMillis() - born) < 60_000, "born timestamp is the send time: " + born);
            wireQueues.add(Integer.parseInt(c.getExtFields().get("e")));
            keys.add(key);

            // Byte for byte: the stock header with the wire frame's four values put in is the wire header.
            String expectedHeader = substitute(header(stock.get(0)), c.getOpaque(), c.getExtFields().get("e"), c.getExtFields().get("g"), key,
                messageKeys);
            assertEquals(expectedHeader, header(w));
        }
        assertEquals(keys.size(), keys.stream().distinct().count(), "unique keys are unique");
        // Round robin over the route's queues.
        for (int i = 1; i < wireQueues.size(); i++) {
            assertEquals((wireQueues.get(i - 1) + 1) % QUEUES, (int) wireQueues.get(i), "queues " + wireQueues);
        }
        assertNotEquals(0, RemotingCommand.decode(wire.get(0)).getVersion(), "the client's remoting version is set");
    }

    private static String header(byte[] frame) {
        int length = ((frame[1] & 0xFF) << 16) | ((frame[2] & 0xFF) << 8) | (frame[3] & 0xFF);
        return new String(frame, 4, length, StandardCharsets.ISO_8859_1);
    }

    private static String substitute(String header, int opaque, String queue, String born, String key, String messageKeys) {
        String h = replaceOnce(header, "\"opaque\":-?\\d+", "\"opaque\":" + opaque);
        h = replaceOnce(h, "\"e\":\"\\d+\"", "\"e\":\"" + queue + "\"");
        h = replaceOnce(h, "\"g\":\"\\d+\"", "\"g\":\"" + born + "\"");
        if (messageKeys != null) {
            // OMB's keys are URL-safe base64: nothing in them is escaped, and they contain no backslash.
            h = replaceOnce(h, "KEYS\\\\u0001[^\\\\\"]*", "KEYS\\\\u0001" + messageKeys);
        }
        return replaceOnce(h, "UNIQ_KEY\\\\u0001[0-9A-F]+", "UNIQ_KEY\\\\u0001" + key);
    }

    private static String replaceOnce(String text, String regex, String replacement) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        String out = text.substring(0, m.start()) + replacement.replace("\\\\", "\\") + text.substring(m.end());
        assertTrue(!m.find(), regex + " occurs once");
        return out;
    }

    private List<byte[]> stockFrames(int n, String tags, String keys) throws Exception {
        List<String> each = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            each.add(keys);
        }
        return stockFrames(each, tags, null);
    }

    /** One message per entry of {@code keys} (its KEYS, or {@code fixedKeys} where the entry is empty). */
    private List<byte[]> stockFrames(List<String> keys, String tags, String fixedKeys) throws Exception {
        return stockFrames(keys, tags, fixedKeys, body());
    }

    private List<byte[]> stockFrames(List<String> perMessageKeys, String tags, String fixedKeys, byte[] body) throws Exception {
        int n = perMessageKeys.size();
        captured.clear();
        DefaultMQProducer producer = new DefaultMQProducer(GROUP);
        producer.setNamesrvAddr("127.0.0.1:" + sink.port());
        producer.setInstanceName("stock-eq-" + System.nanoTime());
        producer.setVipChannelEnabled(false);
        producer.start();
        try {
            for (int i = 0; i < n; i++) {
                String keys = perMessageKeys.get(i) == null || perMessageKeys.get(i).isEmpty() ? fixedKeys : perMessageKeys.get(i);
                Message m = new Message(TOPIC, tags == null ? "" : tags, keys == null ? "" : keys, body);
                userProperties().forEach(m::putUserProperty);
                SendResult r = producer.send(m);
                assertEquals(SendStatus.SEND_OK, r.getSendStatus());
            }
        } finally {
            producer.shutdown();
        }
        assertEquals(n, captured.size());
        return new ArrayList<>(captured);
    }

    private List<byte[]> wireFrames(int n, String tags, String keys) throws Exception {
        return wireFrames(n, tags, keys, r -> { });
    }

    private List<byte[]> wireFrames(int n, String tags, String keys, java.util.function.Consumer<PrepareRequest> adjust) throws Exception {
        captured.clear();
        Agent agent = new Agent("wire-eq");
        PrepareRequest r = new PrepareRequest();
        r.client = "wire";
        r.runId = RUN_ID;
        r.namesrv = "127.0.0.1:" + sink.port();
        r.topics = List.of(TOPIC);
        r.partitionsPerTopic = QUEUES;
        r.messageSize = SIZE;
        r.producersPerTopic = 1;
        r.threads = 1;
        r.mode = "sync";
        r.sendTimeoutMs = 3000;
        r.tags = tags;
        r.keys = keys;
        r.userProperties = userProperties();
        adjust.accept(r);
        agent.prepare(r);
        StartRequest start = new StartRequest();
        start.delayMs = 0;
        agent.start(start);
        long deadline = System.currentTimeMillis() + 20_000;
        while (captured.size() < n && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
        agent.measure();
        AgentResult result = agent.stop();
        assertEquals("wire", result.client);
        assertTrue(result.total.balanced(), "sent = acked + failed + ...");
        assertEquals(0, result.total.failed);
        assertTrue(captured.size() >= n, "the wire agent sent " + captured.size());
        return new ArrayList<>(captured.subList(0, n));
    }
}
