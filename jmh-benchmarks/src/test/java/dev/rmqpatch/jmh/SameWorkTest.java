package dev.rmqpatch.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.rmqpatch.codec.json.JsonHeaderReader;
import dev.rmqpatch.codec.json.JsonHeaderWriter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * For every benchmark and input, the stock and the patched method produce the same result (or exactly the
 * documented difference), so each pair compares equal work.
 */
class SameWorkTest {

    private static final String WAIT_ENTRY = "WAIT\u0001true\u0002";

    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void inputsAreWhatA490ProducerSends(String kind) {
        Inputs in = Inputs.of(kind);
        Map<String, String> props = MessageDecoder.string2messageProperties(in.properties);
        for (String key : new String[] {MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
            MessageConst.PROPERTY_WAIT_STORE_MSG_OK, MessageConst.PROPERTY_TAGS, MessageConst.PROPERTY_KEYS}) {
            assertNotNull(props.get(key), key);
        }
        assertEquals("true", props.get(MessageConst.PROPERTY_WAIT_STORE_MSG_OK));
        assertTrue(in.properties.endsWith("\u0002"), "4.9.0 clients end the string with a separator");
        if (kind.equals(Inputs.TYPICAL)) {
            assertEquals(8, props.size());
            assertTrue(in.properties.length() < 300, in.properties.length() + " chars");
        } else {
            assertEquals(48, props.size());
            assertTrue(in.properties.length() > 2000, in.properties.length() + " chars");
        }
        assertEquals(RequestCode.SEND_MESSAGE_V2, in.request.getCode());
        HashMap<String, String> ext = in.request.getExtFields();
        assertEquals(12, ext.size(), "a..m without l (maxReconsumeTimes is null on a first send): " + ext.keySet());
        assertEquals(in.properties, ext.get("i"));
        assertNotSame(in.properties, ext.get("i"), "decoded from the wire, not the producer's instance");
        assertEquals(props.size() + 1, in.brokerProperties.size());
        assertEquals(Inputs.CLUSTER_NAME, in.brokerProperties.get(MessageConst.PROPERTY_CLUSTER));
    }

    @Test
    void unknownInputKindIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Inputs.of("huge"));
        assertTrue(e.getMessage().contains("huge"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void propertiesPairs(String kind) {
        Inputs in = Inputs.of(kind);
        PropertiesBenchmark b = new PropertiesBenchmark();

        Map<String, String> stockMap = b.parseStock(in);
        Map<String, String> patchedMap = b.parsePatched(in);
        assertEquals(stockMap, patchedMap);
        assertEquals(HashMap.class, patchedMap.getClass());

        String stockEncoded = b.encodeStock(in);
        String patchedEncoded = b.encodePatched(in);
        assertEquals(stockEncoded, patchedEncoded, "stock's very string");
        assertEquals(in.brokerProperties, MessageDecoder.string2messageProperties(patchedEncoded));

        String stockStored = b.storeEncodeStock(in);
        String patchedStored = b.storeEncodePatched(in);
        assertEquals(stockEncoded, stockStored);
        assertEquals(withoutWait(MessageDecoder.string2messageProperties(stockStored)),
            MessageDecoder.string2messageProperties(patchedStored));
        assertEquals(stockStored.length() - WAIT_ENTRY.length() - 1, patchedStored.length());
        assertFalse(patchedStored.contains("WAIT"));
    }

    /** P2's 4.9.3+ pair: stock 4.9.3's MessageDecoder (local repository) and the variant give equal results. */
    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void properties493Pairs(String kind) throws Throwable {
        java.nio.file.Path jar = java.nio.file.Path.of(System.getProperty("maven.repo.local",
            System.getProperty("user.home") + "/.m2/repository"), "org/apache/rocketmq/rocketmq-common/4.9.3/rocketmq-common-4.9.3.jar");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isRegularFile(jar), "no " + jar);
        Inputs in = Inputs.of(kind);
        Properties493Benchmark b = new Properties493Benchmark();
        b.release = "4.9.3";
        b.setup(in);
        assertFalse(b.properties.endsWith("\u0002"), "4.9.3's format: no trailing separator");
        assertEquals(in.properties.substring(0, in.properties.length() - 1), b.properties);
        Map<String, String> stockMap = b.parseStock();
        assertEquals(List.of(stockMap.entrySet().toArray()), List.of(b.parsePatched().entrySet().toArray()),
            "the same entries in the same order");
        assertEquals(MessageDecoder.string2messageProperties(in.properties), stockMap);
        assertEquals(b.encodeStock(in), b.encodePatched(in), "stock 4.9.3's very string");
        assertEquals(MessageDecoder.messageProperties2String(in.brokerProperties), b.encodeStock(in) + "\u0002");
    }

    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void sendHeaderDecodePair(String kind) throws Exception {
        Inputs in = Inputs.of(kind);
        SendHeaderDecodeBenchmark b = new SendHeaderDecodeBenchmark();
        CommandCustomHeader stock = b.stock(in);
        CommandCustomHeader patched = b.patched(in);
        assertFieldsEqual(stock, patched);
        SendMessageRequestHeaderV2 h = (SendMessageRequestHeaderV2) patched;
        assertEquals("order-events", h.getB());
        assertEquals(1_718_000_000_123L, h.getG());
        assertEquals(in.properties, h.getI());
        assertEquals(0, h.getJ());
    }

    @Test
    void responseHeaderEncodePair() {
        ResponseHeaderEncodeBenchmark b = new ResponseHeaderEncodeBenchmark();
        ResponseHeaderEncodeBenchmark.Response r = new ResponseHeaderEncodeBenchmark.Response();
        r.setup();
        HashMap<String, String> stock = new HashMap<>(b.stock(r));
        HashMap<String, String> patched = b.patched(r);
        assertEquals(Map.of("msgId", Inputs.MSG_ID, "queueId", String.valueOf(Inputs.QUEUE_ID),
            "queueOffset", String.valueOf(Inputs.QUEUE_OFFSET)), stock);
        assertEquals(stock, patched);
        assertNotSame(patched, b.patched(r), "every call starts from a fresh ext-fields map");
    }

    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void jsonHeaderDecodePair(String kind) throws Exception {
        Inputs in = Inputs.of(kind);
        String json = new String(in.requestHeader, StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"code\":310,\"extFields\":{") && json.contains("\\u0001"), json);
        JsonHeaderDecodeBenchmark b = new JsonHeaderDecodeBenchmark();
        RemotingCommand stock = b.stock(in);
        RemotingCommand patched = b.patched(in);
        assertNotNull(JsonHeaderReader.read(in.requestHeader), "read by hand, not left to fastjson");
        assertFieldsEqual(stock, patched);
        assertEquals(new ArrayList<>(stock.getExtFields().entrySet()), new ArrayList<>(patched.getExtFields().entrySet()),
            "same entries in the same iteration order");
        assertEquals(in.request.getExtFields(), patched.getExtFields());
        assertEquals(in.properties, patched.getExtFields().get("i"));
    }

    /** The floor builds the same command as stock (its opaque aside, which carries the scan's count). */
    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void jsonHeaderDecodeFloorBuildsStocksResult(String kind) throws Exception {
        Inputs in = Inputs.of(kind);
        JsonHeaderDecodeFloorBenchmark.Parts parts = new JsonHeaderDecodeFloorBenchmark.Parts();
        parts.setup(in);
        RemotingCommand floor = new JsonHeaderDecodeFloorBenchmark().floor(parts);
        RemotingCommand stock = new JsonHeaderDecodeBenchmark().stock(in);
        long special = new String(in.requestHeader, StandardCharsets.ISO_8859_1).chars()
            .filter(c -> c < 0x20 || c >= 0x80 || c == '"' || c == '\\').count();
        assertEquals(stock.getOpaque() + special, floor.getOpaque(), "every byte looked at");
        floor.setOpaque(stock.getOpaque());
        assertFieldsEqual(stock, floor);
        assertEquals(stock.getExtFields(), floor.getExtFields());
    }

    @Test
    void jsonHeaderEncodePair() {
        JsonHeaderEncodeBenchmark b = new JsonHeaderEncodeBenchmark();
        JsonHeaderEncodeBenchmark.Response r = new JsonHeaderEncodeBenchmark.Response();
        r.setup();
        byte[] stock = b.stock(r);
        assertNotNull(JsonHeaderWriter.write(r.command), "written by hand, not left to fastjson");
        assertArrayEquals(stock, b.patched(r));
        String json = new String(stock, StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"code\":0,\"extFields\":{") && json.contains("\"msgId\":\"" + Inputs.MSG_ID + "\"")
            && json.contains("\"MSG_REGION\":\"DefaultRegion\"") && !json.contains("remark"), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void sendPathPair(String kind) throws Exception {
        Inputs in = Inputs.of(kind);
        SendPathBenchmark b = new SendPathBenchmark();
        SendPathResult stock = b.stock(in);
        SendPathResult patched = b.patched(in);

        assertFieldsEqual(stock.header, patched.header);
        assertEquals(in.properties, patched.header.getProperties());
        assertEquals(in.brokerProperties, stock.properties);
        assertEquals(stock.properties, patched.properties, "the message keeps WAIT while the request is handled");
        assertEquals(stock.transactional, patched.transactional);
        assertFalse(patched.transactional);
        assertEquals(stock.responseExtFields, patched.responseExtFields);
        assertEquals(3, patched.responseExtFields.size());

        String stockStored = new String(stock.storedProperties, StandardCharsets.UTF_8);
        String patchedStored = new String(patched.storedProperties, StandardCharsets.UTF_8);
        assertEquals(MessageDecoder.messageProperties2String(stock.properties), stockStored);
        assertEquals(withoutWait(MessageDecoder.string2messageProperties(stockStored)),
            MessageDecoder.string2messageProperties(patchedStored), "stored: stock minus WAIT");
        assertEquals(stock.storedProperties.length - WAIT_ENTRY.length() - 1, patched.storedProperties.length,
            "11 bytes fewer per message: WAIT=true and the trailing separator");
    }

    @Test
    void sendPathSeesTransactionalFlagOnBothSides() throws Exception {
        Inputs in = Inputs.of(Inputs.TYPICAL);
        Map<String, String> props = MessageDecoder.string2messageProperties(in.properties);
        props.put(MessageConst.PROPERTY_TRANSACTION_PREPARED, "true");
        in.properties = MessageDecoder.messageProperties2String(props);
        in.request = Inputs.sendRequest(in.properties);
        SendPathBenchmark b = new SendPathBenchmark();
        assertTrue(b.stock(in).transactional);
        assertTrue(b.patched(in).transactional);
    }

    @Test
    void pullHeaderDecodePair() throws Exception {
        PullHeaderDecodeBenchmark.Request r = new PullHeaderDecodeBenchmark.Request();
        r.setup();
        assertEquals(RequestCode.PULL_MESSAGE, r.command.getCode());
        assertEquals(10, r.command.getExtFields().size(), "every field but the null subscription: "
            + r.command.getExtFields().keySet());
        PullHeaderDecodeBenchmark b = new PullHeaderDecodeBenchmark();
        CommandCustomHeader stock = b.stock(r);
        CommandCustomHeader patched = b.patched(r);
        assertFieldsEqual(stock, patched);
        PullMessageRequestHeader h = (PullMessageRequestHeader) patched;
        assertEquals(PullInputs.TOPIC, h.getTopic());
        assertEquals(PullInputs.QUEUE_OFFSET, h.getQueueOffset());
        assertEquals(3, h.getSysFlag(), "commit offset and long polling");
        assertEquals("TAG", h.getExpressionType());
    }

    @Test
    void pullHeaderEncodePair() {
        PullHeaderEncodeBenchmark b = new PullHeaderEncodeBenchmark();
        PullHeaderEncodeBenchmark.Response r = new PullHeaderEncodeBenchmark.Response();
        r.setup();
        HashMap<String, String> stock = new HashMap<>(b.stock(r));
        ArrayList<Map.Entry<String, String>> stockOrder = new ArrayList<>(b.stock(r).entrySet());
        HashMap<String, String> patched = b.patched(r);
        assertEquals(Map.of("nextBeginOffset", String.valueOf(PullInputs.QUEUE_OFFSET + PullInputs.PULL_BATCH_SIZE),
            "minOffset", "0", "maxOffset", String.valueOf(PullInputs.QUEUE_OFFSET + 5_000), "suggestWhichBrokerId", "0"), stock);
        assertEquals(stock, patched);
        assertEquals(stockOrder, new ArrayList<>(patched.entrySet()), "same iteration order, so the same JSON");
        assertNotSame(patched, b.patched(r), "every call starts from a fresh ext-fields map");
    }

    /** Both sides write the same entries into their files, across the wrap at the end of a file. */
    @Test
    void consumeQueueAppendPair() throws Exception {
        ConsumeQueueAppendBenchmark b = new ConsumeQueueAppendBenchmark();
        ConsumeQueueAppendBenchmark.Queue stockQueue = new ConsumeQueueAppendBenchmark.Queue();
        ConsumeQueueAppendBenchmark.Queue patchedQueue = new ConsumeQueueAppendBenchmark.Queue();
        stockQueue.open();
        patchedQueue.open();
        try {
            int entries = ConsumeQueueAppendBenchmark.FILE_SIZE / 20 + 1_000;
            for (int i = 0; i < entries; i++) {
                assertTrue(b.stock(stockQueue));
                assertTrue(b.patched(patchedQueue));
            }
            assertEquals(1_000 * 20, stockQueue.stockFile.getWrotePosition(), "wrapped once");
            assertEquals(stockQueue.stockFile.getWrotePosition(), patchedQueue.patchedFile.getWrotePosition());
            stockQueue.stockFile.flush(0);
            patchedQueue.patchedFile.flush(0);
            byte[] stockBytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(stockQueue.stockFile.getFileName()));
            byte[] patchedBytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(patchedQueue.patchedFile.getFileName()));
            assertArrayEquals(stockBytes, patchedBytes);
            int firstSize = java.nio.ByteBuffer.wrap(patchedBytes).getInt(8);
            assertTrue(firstSize >= 300 && firstSize < 364, "an entry, overwritten after the wrap: size " + firstSize);
        } finally {
            stockQueue.close();
            patchedQueue.close();
        }
    }

    /** Both sides of each name check give the same answer, for the benchmark's names and for refused ones. */
    @Test
    void nameChecksPairs() {
        NameChecksBenchmark b = new NameChecksBenchmark();
        NameChecksBenchmark.Names n = new NameChecksBenchmark.Names();
        assertTrue(b.topicStock(n));
        assertEquals(b.topicStock(n), b.topicPatched(n));
        assertFalse(b.namespaceStock(n));
        assertEquals(b.namespaceStock(n), b.namespacePatched(n));
        n.topic = "orders/eu";
        n.address = "http://MQ_INST_1_ab.example.com:80";
        assertFalse(b.topicStock(n));
        assertEquals(b.topicStock(n), b.topicPatched(n));
        assertTrue(b.namespaceStock(n));
        assertEquals(b.namespaceStock(n), b.namespacePatched(n));
    }

    /** The same key form from the same counter: prefix, 8 digits of time, the counter's 4 digits, one value drawn each. */
    @Test
    void uniqueKeyPair() throws Exception {
        UniqueKeyBenchmark b = new UniqueKeyBenchmark();
        UniqueKeyBenchmark.Keys k = new UniqueKeyBenchmark.Keys();
        k.read();
        int before = k.counter.get();
        String stock = b.stock();
        String patched = b.patched(k);
        assertEquals(before + 2, k.counter.get(), "one counter value each, from the same counter");
        assertEquals(k.fix.length() + 12, stock.length());
        assertEquals(stock.length(), patched.length());
        assertEquals(stock.substring(0, k.fix.length()), patched.substring(0, k.fix.length()));
        assertEquals(String.format("%04X", (before + 1) & 0xFFFF), patched.substring(patched.length() - 4));
        assertEquals(String.format("%04X", before & 0xFFFF), stock.substring(stock.length() - 4));
    }

    /** Both clients get the server's answer; the patched one's handlers run on its event loop, stock's on its group. */
    @Test
    void clientRoundTripPair() throws Exception {
        ClientRoundTripBenchmark b = new ClientRoundTripBenchmark();
        ClientRoundTripBenchmark.Rig r = new ClientRoundTripBenchmark.Rig();
        r.start();
        try {
            RemotingCommand stock = b.stock(r);
            RemotingCommand patched = b.patched(r);
            assertEquals(0, stock.getCode());
            assertEquals(stock.getCode(), patched.getCode());
            assertEquals(stock.getExtFields(), patched.getExtFields());
            assertEquals("42", patched.getExtFields().get("queueOffset"));
            assertEquals(true, handlersOnEventLoop(r.patchedClient, r.addr), "patched: no executor group");
            assertEquals(false, handlersOnEventLoop(r.stockClient, r.addr), "stock: its executor group");
        } finally {
            r.stop();
        }
    }

    private static boolean handlersOnEventLoop(org.apache.rocketmq.remoting.netty.NettyRemotingClient client, String addr)
        throws Exception {
        Field tables = client.getClass().getDeclaredField("channelTables");
        tables.setAccessible(true);
        Object wrapper = ((Map<?, ?>) tables.get(client)).get(addr);
        java.lang.reflect.Method getChannel = wrapper.getClass().getDeclaredMethod("getChannel");
        getChannel.setAccessible(true);
        io.netty.channel.Channel channel = (io.netty.channel.Channel) getChannel.invoke(wrapper);
        io.netty.channel.ChannelHandlerContext decoder = channel.pipeline()
            .context(org.apache.rocketmq.remoting.netty.NettyDecoder.class);
        return decoder.executor() == channel.eventLoop();
    }

    /**
     * Both decode the pull body to the same 32 messages, field by field (bodies by content), before and after the
     * pull-result loop; and the body is what a broker would return: 32 records of the typical or large properties.
     */
    @ParameterizedTest
    @ValueSource(strings = {Inputs.TYPICAL, Inputs.LARGE})
    void consumeDecodePairs(String kind) throws Exception {
        ConsumeDecodeBenchmark b = new ConsumeDecodeBenchmark();
        ConsumeDecodeBenchmark.PullBody in = ConsumeDecodeBenchmark.PullBody.of(kind);
        List<org.apache.rocketmq.common.message.MessageExt> stock = b.decodesStock(in);
        List<org.apache.rocketmq.common.message.MessageExt> patched = b.decodesPatched(in);
        assertEquals(ConsumeDecodeBenchmark.MESSAGES, stock.size());
        assertMessagesEqual(stock, patched);
        assertEquals(ConsumeDecodeBenchmark.BODY_SIZE, stock.get(0).getBody().length);
        assertEquals(Inputs.CLUSTER_NAME, stock.get(0).getProperty(MessageConst.PROPERTY_CLUSTER));
        assertNotEquals(stock.get(0).getMsgId(), stock.get(1).getMsgId(), "a UNIQ_KEY of its own per message");
        stock = b.pullResultStock(in);
        patched = b.pullResultPatched(in);
        assertMessagesEqual(stock, patched);
        assertEquals(Long.toString(in.maxOffset), patched.get(31).getProperty(MessageConst.PROPERTY_MAX_OFFSET));
        assertEquals(ConsumeDecodeBenchmark.BROKER_NAME, patched.get(31).getBrokerName());
    }

    private static void assertMessagesEqual(List<org.apache.rocketmq.common.message.MessageExt> stock,
                                            List<org.apache.rocketmq.common.message.MessageExt> patched)
        throws IllegalAccessException {
        assertEquals(stock.size(), patched.size());
        for (int i = 0; i < stock.size(); i++) {
            Object x = stock.get(i);
            Object y = patched.get(i);
            assertEquals(x.getClass(), y.getClass());
            for (Class<?> c = x.getClass(); c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        continue;
                    }
                    f.setAccessible(true);
                    String at = "message " + i + " " + c.getSimpleName() + "." + f.getName();
                    if (f.get(x) instanceof byte[]) {
                        assertArrayEquals((byte[]) f.get(x), (byte[]) f.get(y), at);
                    } else {
                        assertEquals(f.get(x), f.get(y), at);
                    }
                }
            }
        }
    }

    private static Map<String, String> withoutWait(Map<String, String> m) {
        Map<String, String> copy = new HashMap<>(m);
        assertEquals("true", copy.remove(MessageConst.PROPERTY_WAIT_STORE_MSG_OK), "stock stores WAIT=true");
        return copy;
    }

    /** Same class and equal values in every instance field (tests may reflect; the codec may not). */
    static void assertFieldsEqual(Object expected, Object actual) throws IllegalAccessException {
        assertNotNull(expected);
        assertNotNull(actual);
        assertEquals(expected.getClass(), actual.getClass());
        for (Class<?> c = expected.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                assertEquals(f.get(expected), f.get(actual), c.getSimpleName() + "." + f.getName());
            }
        }
    }

    /**
     * P36: for a 4.9.0 client's batch the patched method gives stock's bytes (stock's body encodes it); for a 4.9.1+
     * client's, the documented difference: the same length, and every message read back with every property the
     * client wrote and the batch's, where stock's bytes lose the last one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"4.9.0", "4.9.1"})
    void batchEncodePairs(String client) throws Exception {
        BatchEncodeBenchmark bench = new BatchEncodeBenchmark();
        BatchEncodeBenchmark.Batch b = new BatchEncodeBenchmark.Batch();
        b.client = client;
        b.setUp();
        byte[] stock = bytes(bench.stock(b));
        byte[] patched = bytes(bench.patched(b));
        assertEquals(stock.length, patched.length);
        if (client.equals("4.9.0")) {
            assertArrayEquals(stock, patched);
            return;
        }
        Map<String, String> want = new HashMap<>(MessageDecoder.string2messageProperties(Inputs.of(Inputs.TYPICAL).properties));
        want.put(MessageConst.PROPERTY_CLUSTER, Inputs.CLUSTER_NAME);
        java.nio.ByteBuffer p = java.nio.ByteBuffer.wrap(patched);
        java.nio.ByteBuffer s = java.nio.ByteBuffer.wrap(stock);
        for (int m = 0; m < BatchEncodeBenchmark.MESSAGES; m++) {
            assertEquals(want, MessageDecoder.decode(p, true, false).getProperties(), "message " + m);
            assertNotEquals(want, MessageDecoder.decode(s, true, false).getProperties(), "stock loses one, message " + m);
        }
    }

    private static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
