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
 * are the same command except opaque, born timestamp, queue id and unique key; and the header text is the stock
 * producer's with those four values replaced, byte for byte (no padding, same field and property order).
 */
@Timeout(120)
class WireFramesMatchStockTest {
    private static final String RUN_ID = "eq1";
    private static final String GROUP = "rmqpatch-bench-" + RUN_ID;
    private static final String TOPIC = "bench-eq1-0";
    private static final int SIZE = 300;
    private static final int QUEUES = 4;

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

    private void compare(List<byte[]> stock, List<byte[]> wire) {
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
            assertArrayEquals(reference.getBody(), c.getBody(), "body");
            Map<String, String> refExt = new HashMap<>(reference.getExtFields());
            Map<String, String> ext = new HashMap<>(c.getExtFields());
            for (String perMessage : List.of("e", "g", "i")) {
                refExt.remove(perMessage);
                ext.remove(perMessage);
            }
            assertEquals(refExt, ext, "header fields other than queue id, born timestamp and properties");
            Map<String, String> props = MessageDecoder.string2messageProperties(c.getExtFields().get("i"));
            String key = props.remove(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            Map<String, String> expected = new HashMap<>(refProps);
            String refKey = expected.remove(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            assertEquals(expected, props, "properties other than UNIQ_KEY");
            assertEquals(refKey.length(), key.length(), "UNIQ_KEY length");
            assertEquals(refKey.substring(0, refKey.length() - 12), key.substring(0, key.length() - 12), "UNIQ_KEY fixed part");
            assertTrue(key.matches("[0-9A-F]+"), key);
            long born = Long.parseLong(c.getExtFields().get("g"));
            assertTrue(Math.abs(System.currentTimeMillis() - born) < 60_000, "born timestamp is the send time: " + born);
            wireQueues.add(Integer.parseInt(c.getExtFields().get("e")));
            keys.add(key);

            // Byte for byte: the stock header with the wire frame's four values put in is the wire header.
            String expectedHeader = substitute(header(stock.get(0)), c.getOpaque(), c.getExtFields().get("e"), c.getExtFields().get("g"), key);
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

    private static String substitute(String header, int opaque, String queue, String born, String key) {
        String h = replaceOnce(header, "\"opaque\":-?\\d+", "\"opaque\":" + opaque);
        h = replaceOnce(h, "\"e\":\"\\d+\"", "\"e\":\"" + queue + "\"");
        h = replaceOnce(h, "\"g\":\"\\d+\"", "\"g\":\"" + born + "\"");
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
        captured.clear();
        DefaultMQProducer producer = new DefaultMQProducer(GROUP);
        producer.setNamesrvAddr("127.0.0.1:" + sink.port());
        producer.setInstanceName("stock-eq-" + System.nanoTime());
        producer.setVipChannelEnabled(false);
        producer.start();
        try {
            for (int i = 0; i < n; i++) {
                Message m = new Message(TOPIC, tags == null ? "" : tags, keys == null ? "" : keys, body());
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
