package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The patched classes as the JVM sees them: stock lib/ and patched lib/ are loaded side by side in isolated class
 * loaders (so the JVM's verifier checks every rewritten method on loading), and the patched methods are called
 * with the same inputs as the stock ones. Differences allowed are exactly the documented ones.
 */
class PatchedClassesIT {

    /** Every class the patcher rewrites, with the jar (name prefix) it lives in. */
    private static final String[][] REWRITTEN = {
        {"rocketmq-broker-", "org/apache/rocketmq/broker/processor/SendMessageProcessor"},
        {"rocketmq-broker-", "org/apache/rocketmq/broker/processor/AdminBrokerProcessor"},
        {"rocketmq-broker-", "org/apache/rocketmq/broker/filtersrv/FilterServerManager"},
        {"rocketmq-broker-", "org/apache/rocketmq/broker/BrokerStartup"},
        {"rocketmq-broker-", "org/apache/rocketmq/broker/BrokerController"},
        {"rocketmq-broker-", "org/apache/rocketmq/broker/subscription/SubscriptionGroupManager"},
        {"rocketmq-namesrv-", "org/apache/rocketmq/namesrv/processor/DefaultRequestProcessor"},
        {"rocketmq-namesrv-", "org/apache/rocketmq/namesrv/NamesrvStartup"},
        {"rocketmq-namesrv-", "org/apache/rocketmq/namesrv/NamesrvController"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/protocol/RemotingCommand"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/protocol/RemotingSerializable"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/protocol/RocketMQSerializable"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/netty/NettyRemotingServer$7"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/netty/NettyRemotingServer$HandshakeHandler"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/common/RemotingHelper"},
        {"rocketmq-common-", "org/apache/rocketmq/common/message/MessageDecoder"},
        {"rocketmq-common-", "org/apache/rocketmq/common/protocol/body/RegisterBrokerBody"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/netty/NettyRemotingServer"},
        {"rocketmq-store-", "org/apache/rocketmq/store/ha/HAService$AcceptSocketService"},
        {"rocketmq-store-", "org/apache/rocketmq/store/ConsumeQueue"},
        {"rocketmq-store-", "org/apache/rocketmq/store/DefaultMessageStore"},
        {"rocketmq-store-", "org/apache/rocketmq/store/CommitLog"},
        {"rocketmq-store-", "org/apache/rocketmq/store/CommitLog$DefaultAppendMessageCallback"},
        {"rocketmq-common-", "org/apache/rocketmq/common/stats/StatsItem"},
        {"rocketmq-common-", "org/apache/rocketmq/common/stats/StatsItemSet"},
        {"rocketmq-store-", "org/apache/rocketmq/store/stats/BrokerStatsManager"},
        {"rocketmq-store-", "org/apache/rocketmq/store/StoreStatsService"},
        {"rocketmq-store-", "org/apache/rocketmq/store/CommitLog$GroupCommitService"},
        {"rocketmq-store-", "org/apache/rocketmq/store/ha/HAConnection$WriteSocketService"},
        {"rocketmq-store-", "org/apache/rocketmq/store/ha/HAConnection$ReadSocketService"},
        {"rocketmq-store-", "org/apache/rocketmq/store/ha/HAService$HAClient"},
        {"rocketmq-remoting-", "org/apache/rocketmq/remoting/netty/NettyRemotingClient$4"},
        {"rocketmq-common-", "org/apache/rocketmq/common/message/MessageClientIDSetter"},
        {"rocketmq-common-", "org/apache/rocketmq/common/topic/TopicValidator"},
        {"rocketmq-client-", "org/apache/rocketmq/client/Validators"},
        {"rocketmq-client-", "org/apache/rocketmq/client/ClientConfig"},
    };

    private static URLClassLoader stock;
    private static URLClassLoader patched;
    /** The patched lib/ with every patch switched off (-Drmqpatch.disable=all ids while its switches load). */
    private static URLClassLoader switchedOff;

    @BeforeAll
    static void loaders() throws Exception {
        stock = LibLoaders.of(TestCluster.dist("stock").resolve("lib"));
        patched = LibLoaders.of(TestCluster.dist("patched").resolve("lib"));
        switchedOff = LibLoaders.of(TestCluster.dist("patched").resolve("lib"));
        Class<?> switches = LibLoaders.switches(switchedOff, String.join(",", dev.rmqpatch.codec.switches.PatchSwitches.IDS));
        for (String id : new String[] {"P2", "P5", "P6", "P10", "P11", "P12", "P28"}) {
            assertEquals(false, switches.getField(id).getBoolean(null), id + " in the switched-off loader");
        }
    }

    @AfterAll
    static void close() throws IOException {
        stock.close();
        patched.close();
        switchedOff.close();
    }

    @Test
    void everyRewrittenClassVerifiesAndLinks() throws Exception {
        for (String[] c : REWRITTEN) {
            String name = c[1].replace('/', '.');
            for (URLClassLoader l : new URLClassLoader[] {patched, switchedOff}) {
                Class<?> cls = Class.forName(name, true, l);
                assertTrue(cls.getClassLoader() == l, name + " comes from the patched lib/");
            }
        }
    }

    @Test
    void switchedOffPatchesGiveExactlyStockResults() throws Exception {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("TAGS", "tag-1");
        props.put("WAIT", "true");
        String stockString = (String) call(stock, "org.apache.rocketmq.common.message.MessageDecoder",
            "messageProperties2String", new Class<?>[] {Map.class}, props);
        assertEquals(stockString, call(switchedOff, "org.apache.rocketmq.common.message.MessageDecoder",
            "messageProperties2String", new Class<?>[] {Map.class}, props), "P2 off: stock encoding");
        HashMap<String, String> ext = sendV2Fields();
        ext.put("e", "three");
        assertEquals(fields(decode(stock, "SendMessageRequestHeaderV2", ext)),
            fields(decode(switchedOff, "SendMessageRequestHeaderV2", ext)), "P1 off: stock reflection, half a header");
        assertEquals(encodeResponse(stock), encodeResponse(switchedOff), "P4 off");
        HashMap<String, String> pull = pullFields();
        pull.put("queueOffset", "x");
        assertEquals(fields(decode(stock, "PullMessageRequestHeader", pull)),
            fields(decode(switchedOff, "PullMessageRequestHeader", pull)), "P10 off: stock reflection, half a header");
    }

    @Test
    void patchedLibDiffersOnlyByTheRewrittenJarsPlusTheCodec() throws Exception {
        Path stockLib = TestCluster.dist("stock").resolve("lib");
        Path patchedLib = TestCluster.dist("patched").resolve("lib");
        String v = System.getProperty("rmqpatch.rocketmq.version", "4.9.0");
        java.util.Set<String> stockNames = names(stockLib);
        java.util.Set<String> extra = names(patchedLib);
        extra.removeAll(stockNames);
        assertEquals(1, extra.size(), "only the codec jar is added: " + extra);
        assertTrue(extra.iterator().next().startsWith("rmqpatch-codec-"), extra.toString());
        java.util.Set<String> changed = new java.util.TreeSet<>();
        for (String name : stockNames) {
            assertTrue(Files.exists(patchedLib.resolve(name)), name + " kept its file name");
            if (!java.util.Arrays.equals(Files.readAllBytes(stockLib.resolve(name)), Files.readAllBytes(patchedLib.resolve(name)))) {
                changed.add(name);
            }
        }
        assertEquals(new java.util.TreeSet<>(List.of("rocketmq-broker-" + v + ".jar", "rocketmq-client-" + v + ".jar",
            "rocketmq-common-" + v + ".jar", "rocketmq-namesrv-" + v + ".jar", "rocketmq-remoting-" + v + ".jar",
            "rocketmq-store-" + v + ".jar")), changed);
    }

    private static java.util.Set<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    @Test
    void rewrittenClassesKeepTheirClassFileVersionAndCodecIsJava8() throws Exception {
        Path stockLib = TestCluster.dist("stock").resolve("lib");
        Path patchedLib = TestCluster.dist("patched").resolve("lib");
        String v = System.getProperty("rmqpatch.rocketmq.version", "4.9.0");
        for (String[] c : REWRITTEN) {
            String jar = c[0] + v + ".jar";
            assertEquals(major(stockLib.resolve(jar), c[1]), major(patchedLib.resolve(jar), c[1]), c[1]);
        }
        try (Stream<Path> jars = Files.list(patchedLib)) {
            Path codec = jars.filter(p -> p.getFileName().toString().startsWith("rmqpatch-codec")).findFirst().orElseThrow();
            try (JarFile jf = new JarFile(codec.toFile())) {
                for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class")) {
                        assertTrue(major(jf, entry) <= 52, entry.getName() + " is newer than Java 8");
                    }
                }
            }
        }
    }

    /**
     * P27 in the rewritten class (the codec's key and stock's month roll-over behind it) against stock's: the private
     * statics of MessageClientIDSetter are set to the same state in the stock, patched and switched-off loaders, each
     * makes a key, and the keys must be each loader's own prefix followed by the same 12 digits (the prefix holds the
     * class loader's hash, so it differs by loader). Each round is bracketed by clock readings and repeated when the
     * millisecond changed under it. Then the month's roll-over: every loader moves its start time to the same month start.
     */
    @Test
    void uniqueKeysAreStocksForTheSameState() throws Exception {
        URLClassLoader[] loaders = {stock, patched, switchedOff};
        java.util.Random rnd = new java.util.Random();
        long[] spans = {0, 1, 0xFFFF, 0x10000, 0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL, 0x100000000L, -1};
        int[] counts = {0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x10000, -1, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int round = 0; round < 200; round++) {
            long span = round < spans.length ? spans[round] : rnd.nextInt(Integer.MAX_VALUE);
            int count = round < counts.length ? counts[round] : rnd.nextInt();
            String[] suffixes = new String[loaders.length];
            for (int attempt = 0; ; attempt++) {
                long t0 = System.currentTimeMillis();
                for (int i = 0; i < loaders.length; i++) {
                    Class<?> c = Class.forName("org.apache.rocketmq.common.message.MessageClientIDSetter", true, loaders[i]);
                    staticField(c, "startTime").setLong(null, t0 - span);
                    staticField(c, "nextStartTime").setLong(null, Long.MAX_VALUE);
                    ((java.util.concurrent.atomic.AtomicInteger) staticField(c, "COUNTER").get(null)).set(count);
                    String key = (String) c.getMethod("createUniqID").invoke(null);
                    String fix = (String) staticField(c, "FIX_STRING").get(null);
                    assertTrue(key.startsWith(fix) && key.length() == fix.length() + 12, key);
                    assertEquals(count + 1, ((java.util.concurrent.atomic.AtomicInteger) staticField(c, "COUNTER").get(null)).get());
                    suffixes[i] = key.substring(fix.length());
                }
                if (System.currentTimeMillis() == t0 || attempt == 20) {
                    break;
                }
            }
            assertEquals(suffixes[0], suffixes[1], "P27 on, counter " + count + ", " + span + " ms since start");
            assertEquals(suffixes[0], suffixes[2], "P27 off, counter " + count + ", " + span + " ms since start");
        }
        long[][] rolled = new long[loaders.length][];
        String[] suffixes = new String[loaders.length];
        for (int i = 0; i < loaders.length; i++) {
            Class<?> c = Class.forName("org.apache.rocketmq.common.message.MessageClientIDSetter", true, loaders[i]);
            staticField(c, "startTime").setLong(null, 0);
            staticField(c, "nextStartTime").setLong(null, System.currentTimeMillis() - 1);
            ((java.util.concurrent.atomic.AtomicInteger) staticField(c, "COUNTER").get(null)).set(7);
            String key = (String) c.getMethod("createUniqID").invoke(null);
            rolled[i] = new long[] {staticField(c, "startTime").getLong(null), staticField(c, "nextStartTime").getLong(null)};
            suffixes[i] = key.substring(key.length() - 4);
            assertTrue(rolled[i][0] > 0 && rolled[i][1] > System.currentTimeMillis(), "rolled over to this month");
        }
        assertEquals(List.of(rolled[0][0], rolled[0][1]), List.of(rolled[1][0], rolled[1][1]), "the patched class rolls over as stock");
        assertEquals(List.of(rolled[0][0], rolled[0][1]), List.of(rolled[2][0], rolled[2][1]));
        assertEquals(List.of("0007", "0007", "0007"), List.of(suffixes), "the counter value drawn once, by stock's body");
        assertTrue(classCalls("rocketmq-common-", "org/apache/rocketmq/common/message/MessageClientIDSetter",
            "dev/rmqpatch/codec/client/UniqueKeys"), "the patched class calls the codec (so the equal keys above came from it)");
    }

    /**
     * P34 in the rewritten classes: the broker's {@code TopicValidator.validateTopic} (its answer, the response's code and
     * remark) and the client's {@code Validators.checkTopic} (its exception's message) give stock's results for random
     * topics, legal and not, in the patched and switched-off loaders.
     */
    @Test
    void topicChecksGiveStockResults() throws Exception {
        long seed = new java.util.Random().nextLong();
        java.util.Random r = new java.util.Random(seed);
        String alphabet = "aZ09%|_-aZ09%|_-./ :\n\u00e9\u4e00";
        URLClassLoader[] loaders = {stock, patched, switchedOff};
        for (int n = 0; n < 2_000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = r.nextInt(10) == 0 ? 120 + r.nextInt(16) : r.nextInt(12);
            for (int i = 0; i < len; i++) {
                sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            String topic = sb.toString();
            List<String> results = new ArrayList<>();
            for (URLClassLoader l : loaders) {
                Class<?> cmd = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, l);
                Object response = cmd.getMethod("createResponseCommand", int.class, String.class).invoke(null, 0, null);
                Object ok = call(l, "org.apache.rocketmq.common.topic.TopicValidator", "validateTopic",
                    new Class<?>[] {String.class, cmd}, topic, response);
                String client;
                try {
                    call(l, "org.apache.rocketmq.client.Validators", "checkTopic", new Class<?>[] {String.class}, topic);
                    client = "accepted";
                } catch (InvocationTargetException e) {
                    client = e.getCause().getClass().getName() + ": " + e.getCause().getMessage();
                }
                results.add(ok + " " + cmd.getMethod("getCode").invoke(response) + " "
                    + cmd.getMethod("getRemark").invoke(response) + " / " + client);
            }
            String at = "seed " + seed + ", case " + n + " [" + topic + "]";
            assertEquals(results.get(0), results.get(1), "patched: " + at);
            assertEquals(results.get(0), results.get(2), "switched off: " + at);
        }
        assertTrue(classCalls("rocketmq-common-", "org/apache/rocketmq/common/topic/TopicValidator", "dev/rmqpatch/codec/names/ValidNames"));
        assertTrue(classCalls("rocketmq-client-", "org/apache/rocketmq/client/Validators", "dev/rmqpatch/codec/names/ValidNames"));
    }

    /**
     * P35 in the rewritten {@code ClientConfig}: {@code getNamespace} gives stock's answer for a sequence of addresses set
     * on one config (repeated, changed, equal copies, instance endpoints or not), with and without a namespace set.
     */
    @Test
    void namespaceIsStocksForChangingAddresses() throws Exception {
        String[] addresses = {"127.0.0.1:9876", "http://MQ_INST_1_ab.example.com:80", "127.0.0.1:9876",
            new String("http://MQ_INST_1_ab.example.com:80".toCharArray()), "MQ_INST_22_x.y", "MQ_INST_22_x", "",
            "10.0.0.1:9876;10.0.0.2:9876", "MQ_INST_22_x.y"};
        URLClassLoader[] loaders = {stock, patched, switchedOff};
        List<List<String>> seen = new ArrayList<>();
        for (URLClassLoader l : loaders) {
            Class<?> c = Class.forName("org.apache.rocketmq.client.ClientConfig", true, l);
            Object config = c.getConstructor().newInstance();
            Object other = c.getConstructor().newInstance();
            List<String> answers = new ArrayList<>();
            for (String a : addresses) {
                c.getMethod("setNamesrvAddr", String.class).invoke(config, a);
                c.getMethod("setNamesrvAddr", String.class).invoke(other, "MQ_INST_9_z.w");
                for (int i = 0; i < 3; i++) {
                    answers.add(a + " -> " + c.getMethod("getNamespace").invoke(config) + ", other "
                        + c.getMethod("getNamespace").invoke(other));
                }
            }
            c.getMethod("setNamespace", String.class).invoke(config, "ns1");
            answers.add("set: " + c.getMethod("getNamespace").invoke(config));
            seen.add(answers);
        }
        assertEquals(seen.get(0), seen.get(1), "patched");
        assertEquals(seen.get(0), seen.get(2), "switched off");
        assertTrue(seen.get(0).contains("http://MQ_INST_1_ab.example.com:80 -> MQ_INST_1_ab, other MQ_INST_9_z"), seen.get(0).toString());
        assertTrue(classCalls("rocketmq-client-", "org/apache/rocketmq/client/ClientConfig", "dev/rmqpatch/codec/client/InstanceEndpoints"));
    }

    /** Whether the patched lib's class file names {@code codecClass} (so results equal to stock's came through it). */
    private static boolean classCalls(String jarPrefix, String internalName, String codecClass) throws IOException {
        try (JarFile jar = new JarFile(TestCluster.dist("patched").resolve("lib").resolve(jarPrefix
            + System.getProperty("rmqpatch.rocketmq.version", "4.9.0") + ".jar").toFile());
             InputStream in = jar.getInputStream(jar.getJarEntry(internalName + ".class"))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).contains(codecClass);
        }
    }

    private static Field staticField(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    @Test
    void propertiesDecodeGivesStockResults() throws Exception {
        String[] inputs = {"", "WAIT\u0001true\u0002TAGS\u0001a\u0002", "KEYS\u0001k1 k2\u0002UNIQ_KEY\u0001AC1\u0002city\u0001Zürich-東京",
            "garbage without separators", "\u0001\u0001\u0002\u0002", "a\u0001\u0002b\u0001c", "a\u0001b\u0001\u0001", "=\u0001x\u0002\u0001y",
            "dup\u00011\u0002dup\u00012", "\uD83D\uDE80\u0001\uD83D\uDE80\u0002"};
        for (String in : inputs) {
            Object want = call(stock, "org.apache.rocketmq.common.message.MessageDecoder", "string2messageProperties",
                new Class<?>[] {String.class}, in);
            Object got = call(patched, "org.apache.rocketmq.common.message.MessageDecoder", "string2messageProperties",
                new Class<?>[] {String.class}, in);
            assertEquals(want, got, "decode of " + in.replace('\u0001', '=').replace('\u0002', ';'));
        }
    }

    @Test
    void propertiesEncodeIsStocksStringByteForByte() throws Exception {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("TAGS", "tag-1");
        props.put("KEYS", "key-1 key-2");
        props.put("WAIT", "true");
        props.put("city", "Zürich-東京 ✓");
        String stockString = (String) call(stock, "org.apache.rocketmq.common.message.MessageDecoder",
            "messageProperties2String", new Class<?>[] {Map.class}, props);
        String patchedString = (String) call(patched, "org.apache.rocketmq.common.message.MessageDecoder",
            "messageProperties2String", new Class<?>[] {Map.class}, props);
        assertEquals(stockString, patchedString, "stock's very string, trailing separator included (a batch appends to it)");
        Object decodedByStock = call(stock, "org.apache.rocketmq.common.message.MessageDecoder", "string2messageProperties",
            new Class<?>[] {String.class}, patchedString);
        assertEquals(new HashMap<>(props), decodedByStock, "stock decodes the patched encoding to the same map");
    }

    @Test
    void sendHeaderDecodeGivesStockResults() throws Exception {
        HashMap<String, String> ext = sendV2Fields();
        assertEquals(fields(decode(stock, "SendMessageRequestHeaderV2", ext)),
            fields(decode(patched, "SendMessageRequestHeaderV2", ext)));
        HashMap<String, String> v1 = new HashMap<>();
        v1.put("producerGroup", "pg");
        v1.put("topic", "T");
        v1.put("defaultTopic", "TBW102");
        v1.put("defaultTopicQueueNums", "4");
        v1.put("queueId", "-1");
        v1.put("sysFlag", "0");
        v1.put("bornTimestamp", "1700000000000");
        v1.put("flag", "0");
        v1.put("properties", "KEYS\u0001x");
        v1.put("unitMode", "false");
        assertEquals(fields(decode(stock, "SendMessageRequestHeader", v1)), fields(decode(patched, "SendMessageRequestHeader", v1)));
    }

    @Test
    void headersWithoutCodecKeepStockReflection() throws Exception {
        HashMap<String, String> ext = new HashMap<>();
        ext.put("consumerGroup", "cg");
        ext.put("topic", "T");
        ext.put("queueId", "3");
        assertEquals(fields(decode(stock, "QueryConsumerOffsetRequestHeader", ext)),
            fields(decode(patched, "QueryConsumerOffsetRequestHeader", ext)));
        ext.put("queueId", "three");
        assertEquals(fields(decode(stock, "QueryConsumerOffsetRequestHeader", ext)),
            fields(decode(patched, "QueryConsumerOffsetRequestHeader", ext)), "stock's half header, as stock");
    }

    @Test
    void pullHeaderDecodeGivesStockResults() throws Exception {
        HashMap<String, String> ext = pullFields();
        Map<String, Object> want = fields(decode(stock, "PullMessageRequestHeader", ext));
        assertEquals(15000L, want.get("suspendTimeoutMillis"));
        assertEquals(want, fields(decode(patched, "PullMessageRequestHeader", ext)), "P10 on");
        assertEquals(want, fields(decode(switchedOff, "PullMessageRequestHeader", ext)), "P10 off");
        ext.put("subscription", "TagA || TagB");
        ext.put("expressionType", "TAG");
        assertEquals(fields(decode(stock, "PullMessageRequestHeader", ext)),
            fields(decode(patched, "PullMessageRequestHeader", ext)), "with the optional fields");
    }

    @Test
    void malformedPullHeaderDecodesAsStockHalfAHeader() throws Exception {
        for (String[] bad : new String[][] {{"queueId", null}, {"queueOffset", "12x"}, {"maxMsgNums", "99999999999"},
            {"suspendTimeoutMillis", null}, {"subVersion", " 1"}}) {
            HashMap<String, String> ext = pullFields();
            if (bad[1] == null) {
                ext.remove(bad[0]);
            } else {
                ext.put(bad[0], bad[1]);
            }
            Map<String, Object> half = fields(decode(stock, "PullMessageRequestHeader", ext));
            assertNull(half.get(bad[0]), "stock 4.9.0 logs the bad " + bad[0] + " and leaves it null");
            assertEquals("T", half.get("topic"), "and fills the rest");
            assertEquals(half, fields(decode(patched, "PullMessageRequestHeader", ext)), "P10 returns stock's header");
        }
        assertEquals(fields(decodeWithoutExtFields(stock, "PullMessageRequestHeader")),
            fields(decodeWithoutExtFields(patched, "PullMessageRequestHeader")), "no ext fields: stock's empty header");
    }

    /** A pull response as PullMessageProcessor leaves it, encoded in a loader: the whole frame. */
    private static byte[] encodePullResponseFrame(ClassLoader cl, long next, long min, long max) throws Exception {
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        Class<?> headerClass = Class.forName("org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader", true, cl);
        Object cmd = cmdClass.getMethod("createResponseCommand", Class.class).invoke(null, headerClass);
        Object header = cmdClass.getMethod("readCustomHeader").invoke(cmd);
        headerClass.getMethod("setNextBeginOffset", Long.class).invoke(header, next);
        headerClass.getMethod("setMinOffset", Long.class).invoke(header, min);
        headerClass.getMethod("setMaxOffset", Long.class).invoke(header, max);
        headerClass.getMethod("setSuggestWhichBrokerId", Long.class).invoke(header, 0L);
        cmdClass.getMethod("setCode", int.class).invoke(cmd, 0);
        cmdClass.getMethod("setOpaque", int.class).invoke(cmd, 4243);
        cmdClass.getMethod("setBody", byte[].class).invoke(cmd, (Object) utf8("messages"));
        ByteBuffer frame = (ByteBuffer) cmdClass.getMethod("encode").invoke(cmd);
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        return bytes;
    }

    @Test
    void pullResponseFramesAreByteIdenticalToStock() throws Exception {
        for (long[] c : new long[][] {{32, 0, 32}, {1234599, 1000, 987654321012L}, {Long.MAX_VALUE, -1, Long.MIN_VALUE}}) {
            byte[] want = encodePullResponseFrame(stock, c[0], c[1], c[2]);
            assertArrayEquals(want, encodePullResponseFrame(patched, c[0], c[1], c[2]), "P11 on");
            assertArrayEquals(want, encodePullResponseFrame(switchedOff, c[0], c[1], c[2]), "P11 off");
            assertTrue(new String(want, StandardCharsets.UTF_8).contains("\"nextBeginOffset\":\"" + c[0] + "\""));
        }
    }

    private static HashMap<String, String> pullFields() {
        HashMap<String, String> ext = new HashMap<>();
        ext.put("consumerGroup", "cg");
        ext.put("topic", "T");
        ext.put("queueId", "3");
        ext.put("queueOffset", "42");
        ext.put("maxMsgNums", "32");
        ext.put("sysFlag", "3");
        ext.put("commitOffset", "40");
        ext.put("suspendTimeoutMillis", "15000");
        ext.put("subVersion", "1718000000123");
        return ext;
    }

    @Test
    void malformedSendHeaderDecodesAsStockHalfAHeader() throws Exception {
        HashMap<String, String> ext = sendV2Fields();
        ext.put("e", "three");
        ext.remove("b");
        Map<String, Object> half = fields(decode(stock, "SendMessageRequestHeaderV2", ext));
        assertNull(half.get("e"), "stock 4.9.0 logs the bad queueId and leaves it null");
        assertEquals(half, fields(decode(patched, "SendMessageRequestHeaderV2", ext)), "P1 returns stock's header");
        assertEquals(fields(decodeWithoutExtFields(stock, "SendMessageRequestHeaderV2")),
            fields(decodeWithoutExtFields(patched, "SendMessageRequestHeaderV2")), "no ext fields: stock's empty header");
    }

    @Test
    void responseHeaderEncodeGivesStockExtFields() throws Exception {
        assertEquals(encodeResponse(stock), encodeResponse(patched));
        assertEquals("7", encodeResponse(patched).get("queueId"));
    }

    /** Whole frames (after the 4-byte frame length) as the broker's NettyDecoder hands them to RemotingCommand.decode. */
    private static Map<String, byte[]> jsonFrames() {
        Map<String, byte[]> frames = new LinkedHashMap<>();
        String props = "WAIT\\u0001true\\u0002TAGS\\u0001x\\u0002city\\u0001Zürich-東京\\u0002";
        frames.put("4.9.0 client SEND_MESSAGE_V2", frame("{\"code\":310,\"extFields\":{\"a\":\"pg\",\"b\":\"T\","
            + "\"c\":\"TBW102\",\"d\":\"4\",\"e\":\"3\",\"f\":\"0\",\"g\":\"1700000000000\",\"h\":\"0\",\"i\":\""
            + props + "\",\"j\":\"0\",\"k\":\"false\",\"m\":\"false\"},\"flag\":0,\"language\":\"JAVA\",\"opaque\":42,"
            + "\"serializeTypeCurrentRPC\":\"JSON\",\"version\":373}", "body"));
        frames.put("other client: order, spaces, escapes, unknown key", frame(" { \"opaque\" : 7 ,\n \"code\":310,"
            + "\t\"language\" : \"GO\", \"extFields\" : { \"b\" : \"T\" , \"i\":\"K\\u0001v\\u0002\\\"q\\\"\\/\\n\\ud83d\\ude00\","
            + " \"a\":\"\\u00e9t\\u00E9\" }, \"remark\":null, \"traceId\":\"x\", \"version\":0 } ", ""));
        frames.put("response with remark", frame("{\"code\":1,\"flag\":1,\"language\":\"JAVA\",\"opaque\":-2147483648,"
            + "\"remark\":\"no \\\"route\\\" ✓\",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":2147483647}", ""));
        frames.put("smart-matched key (fastjson decides)", frame("{\"CODE\":9,\"opaque\":1}", ""));
        frames.put("truncated header", frame("{\"code\":310,\"extFields\":{\"a\":\"p", ""));
        frames.put("empty header", frame("", ""));
        frames.put("invalid UTF-8 in a value", frameBytes(concat(utf8("{\"code\":1,\"opaque\":1,\"remark\":\"a"),
            new byte[] {(byte) 0xC3, 0x28, (byte) 0xED, (byte) 0xA0, (byte) 0x80}, utf8("b\"}")), new byte[0]));
        frames.put("nesting bomb", frame("{\"code\":1,\"opaque\":1,\"extFields\":{\"a\":" + "[".repeat(100_000)
            + "]".repeat(100_000) + "}}", ""));
        frames.put("huge number", frame("{\"code\":" + "9".repeat(100_000) + ",\"opaque\":1}", ""));
        frames.put("int overflow", frame("{\"code\":2147483648,\"opaque\":1}", ""));
        byte[] past = frame("{\"code\":1,\"opaque\":1}", "");
        ByteBuffer.wrap(past).putInt(0, past.length + 100);
        frames.put("header length past the frame", past);
        return frames;
    }

    private static byte[] frame(String header, String body) {
        return frameBytes(utf8(header), utf8(body));
    }

    private static byte[] frameBytes(byte[] header, byte[] body) {
        return ByteBuffer.allocate(4 + header.length + body.length).putInt(header.length).put(header).put(body).array();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** RemotingCommand.decode(frame) in a loader: every field of the command, or the exception's class and message. */
    private static String decodeFrame(ClassLoader cl, byte[] frame) throws Exception {
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        try {
            Object cmd = cmdClass.getMethod("decode", byte[].class).invoke(null, (Object) frame);
            Map<String, Object> f = fields(cmd);
            f.put("body", f.get("body") == null ? null : new String((byte[]) f.get("body"), StandardCharsets.UTF_8));
            f.put("extFields", f.get("extFields") == null ? null : new ArrayList<>(((Map<?, ?>) f.get("extFields")).entrySet()).toString());
            return f.toString();
        } catch (InvocationTargetException e) {
            return e.getCause().getClass().getName() + ": " + e.getCause().getMessage();
        }
    }

    @Test
    void jsonFrameDecodeGivesStockResultsForGoodAndMalformedFrames() throws Exception {
        for (Map.Entry<String, byte[]> f : jsonFrames().entrySet()) {
            String stockResult = decodeFrame(stock, f.getValue());
            String patchedResult = decodeFrame(patched, f.getValue());
            if (stockResult.startsWith("java.nio.BufferUnderflowException")
                && patchedResult.startsWith("dev.rmqpatch.codec.security.FrameBounds$ClaimExceedsFrame: rmqpatch S6: ")) {
                // S6: the same exception type (a subclass, with a message), thrown before stock allocates the claim.
                patchedResult = stockResult;
            }
            assertEquals(stockResult, patchedResult, "P5 on: " + f.getKey());
            assertEquals(stockResult, decodeFrame(switchedOff, f.getValue()), "P5 off: " + f.getKey());
            boolean byHand = f.getKey().startsWith("4.9.0") || f.getKey().startsWith("other") || f.getKey().startsWith("response");
            int headerLength = ByteBuffer.wrap(f.getValue()).getInt(0) & 0xFFFFFF;
            if (4 + headerLength <= f.getValue().length) {
                byte[] header = java.util.Arrays.copyOfRange(f.getValue(), 4, 4 + headerLength);
                Object read = Class.forName("dev.rmqpatch.codec.json.JsonHeaderReader", true, patched)
                    .getMethod("read", byte[].class).invoke(null, (Object) header);
                assertEquals(byHand, read != null, f.getKey() + ": read by the patched lib's reader, not left to fastjson");
            }
            if (f.getKey().startsWith("4.9.0") || f.getKey().startsWith("other")) {
                assertTrue(stockResult.contains("code=310") && (stockResult.contains("i=K") || stockResult.contains("i=WAIT")),
                    f.getKey() + ": " + stockResult);
            }
            if (f.getKey().startsWith("truncated") || f.getKey().startsWith("nesting") || f.getKey().startsWith("huge")) {
                assertTrue(stockResult.startsWith("com.alibaba.fastjson.JSONException"), f.getKey() + ": " + stockResult);
            }
        }
    }

    /** A command built in a loader and encoded there: the whole frame, header length and JSON header included. */
    private static byte[] encodeFrame(ClassLoader cl, boolean sendResponse, String remark, Map<String, String> ext)
        throws Exception {
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        Object cmd;
        if (sendResponse) {
            Class<?> headerClass = Class.forName("org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader", true, cl);
            cmd = cmdClass.getMethod("createResponseCommand", Class.class).invoke(null, headerClass);
            Object header = cmdClass.getMethod("readCustomHeader").invoke(cmd);
            headerClass.getMethod("setMsgId", String.class).invoke(header, "7F00000100002A9F0000000000000F00");
            headerClass.getMethod("setQueueId", Integer.class).invoke(header, 7);
            headerClass.getMethod("setQueueOffset", Long.class).invoke(header, 123456789012L);
            cmdClass.getMethod("setCode", int.class).invoke(cmd, 0);
        } else {
            cmd = cmdClass.getMethod("createRequestCommand", int.class,
                Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, cl)).invoke(null, 310, null);
        }
        cmdClass.getMethod("setOpaque", int.class).invoke(cmd, 4242);
        cmdClass.getMethod("setRemark", String.class).invoke(cmd, remark);
        if (ext != null) {
            cmdClass.getMethod("setExtFields", HashMap.class).invoke(cmd, new HashMap<>(ext));
        }
        cmdClass.getMethod("setBody", byte[].class).invoke(cmd, (Object) utf8("body"));
        ByteBuffer frame = (ByteBuffer) cmdClass.getMethod("encode").invoke(cmd);
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        return bytes;
    }

    @Test
    void jsonFrameEncodeIsByteIdenticalToStock() throws Exception {
        Map<String, String> ext = new LinkedHashMap<>();
        ext.put("MSG_REGION", "DefaultRegion");
        ext.put("TRACE_ON", "true");
        ext.put("k\u0001", "v\u0002\"\\/\t\u007f\u2028 Z\u00fcrich-\u6771\u4eac \ud83d\ude00 \ud800");
        Object[][] cases = {
            {true, null, null, "send response, no ext fields yet (P4's map must iterate like stock's)"},
            {true, null, ext, "send response after preSend's ext fields"},
            {false, "remark \"quoted\" \u0001 \u00e9", ext, "request with remark and escapes"},
            {false, null, new HashMap<String, String>(), "request with empty ext fields"},
        };
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Map<String, String> e = (Map<String, String>) c[2];
            byte[] want = encodeFrame(stock, (Boolean) c[0], (String) c[1], e);
            assertArrayEquals(want, encodeFrame(patched, (Boolean) c[0], (String) c[1], e), "P6 on: " + c[3]);
            assertArrayEquals(want, encodeFrame(switchedOff, (Boolean) c[0], (String) c[1], e), "P6 off: " + c[3]);
            assertEquals(decodeFrame(stock, java.util.Arrays.copyOfRange(want, 4, want.length)),
                decodeFrame(patched, java.util.Arrays.copyOfRange(want, 4, want.length)), "decoded back: " + c[3]);
        }
        String json = new String(encodeFrame(patched, true, null, null), StandardCharsets.UTF_8);
        assertTrue(json.indexOf("queueId") < json.indexOf("msgId"), "stock's key order: " + json);
    }

    private static Map<String, String> encodeResponse(ClassLoader cl) throws Exception {
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        Class<?> headerClass = Class.forName("org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader", true, cl);
        Object cmd = cmdClass.getMethod("createResponseCommand", Class.class).invoke(null, headerClass);
        Object header = cmdClass.getMethod("readCustomHeader").invoke(cmd);
        headerClass.getMethod("setMsgId", String.class).invoke(header, "7F00000100002A9F0000000000000F00");
        headerClass.getMethod("setQueueId", Integer.class).invoke(header, 7);
        headerClass.getMethod("setQueueOffset", Long.class).invoke(header, 123456789012L);
        cmdClass.getMethod("makeCustomHeaderToNet").invoke(cmd);
        @SuppressWarnings("unchecked")
        Map<String, String> ext = (Map<String, String>) cmdClass.getMethod("getExtFields").invoke(cmd);
        return new TreeMap<>(ext);
    }

    private static HashMap<String, String> sendV2Fields() {
        HashMap<String, String> ext = new HashMap<>();
        ext.put("a", "pg");
        ext.put("b", "T");
        ext.put("c", "TBW102");
        ext.put("d", "4");
        ext.put("e", "3");
        ext.put("f", "0");
        ext.put("g", "1700000000000");
        ext.put("h", "0");
        ext.put("i", "WAIT\u0001true\u0002TAGS\u0001x\u0002");
        ext.put("j", "0");
        ext.put("k", "false");
        ext.put("l", "16");
        ext.put("m", "false");
        return ext;
    }

    private static Object decodeWithoutExtFields(ClassLoader cl, String header) throws Exception {
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        Class<?> headerClass = Class.forName("org.apache.rocketmq.common.protocol.header." + header, true, cl);
        Object cmd = cmdClass.getMethod("createRequestCommand", int.class,
            Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, cl)).invoke(null, 310, null);
        Object h = cmdClass.getMethod("decodeCommandCustomHeader", Class.class).invoke(cmd, headerClass);
        assertInstanceOf(headerClass, h);
        return h;
    }

    private static Object decode(ClassLoader cl, String header, HashMap<String, String> ext) throws Exception {
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        Class<?> headerClass = Class.forName("org.apache.rocketmq.common.protocol.header." + header, true, cl);
        Object cmd = cmdClass.getMethod("createRequestCommand", int.class,
            Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, cl)).invoke(null, 310, null);
        cmdClass.getMethod("setExtFields", HashMap.class).invoke(cmd, new HashMap<>(ext));
        Object h = cmdClass.getMethod("decodeCommandCustomHeader", Class.class).invoke(cmd, headerClass);
        assertInstanceOf(headerClass, h);
        return h;
    }

    /**
     * P28: MessageDecoder.decodes of pull bodies (IPv4, IPv6 and IPv4-mapped hosts, compressed bodies and a compressed
     * flag on bodies that are not, ports out of range, non-ASCII topics, odd properties; a third cut short) gives
     * stock's messages, field by field, and leaves the buffer where stock does, with P28 on and switched off.
     */
    @Test
    void consumeDecodeGivesStockMessages() throws Exception {
        java.util.Random r = new java.util.Random(28);
        int messages = 0;
        for (int i = 0; i < 300; i++) {
            byte[] body = pullBody(r);
            if (i % 3 == 0) {
                body = java.util.Arrays.copyOf(body, r.nextInt(body.length + 1));
            }
            List<Map<String, Object>> want = decodes(stock, body);
            assertEquals(want, decodes(patched, body), "case " + i);
            assertEquals(want, decodes(switchedOff, body), "case " + i + ", P28 off");
            messages += want.size() - 1;
        }
        assertTrue(messages > 300, "messages stock could read: " + messages);
    }

    /** The messages of a body, each as its fields (bodies in hex) and class name, then the buffer's position. */
    private static List<Map<String, Object>> decodes(ClassLoader cl, byte[] body) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(body);
        List<?> msgs = (List<?>) call(cl, "org.apache.rocketmq.common.message.MessageDecoder", "decodes",
            new Class<?>[] {ByteBuffer.class, boolean.class}, b, true);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object m : msgs) {
            Map<String, Object> f = fields(m);
            f.replaceAll((k, v) -> v instanceof byte[] ? java.util.HexFormat.of().formatHex((byte[]) v) : v);
            f.put("class", m.getClass().getName());
            out.add(f);
        }
        out.add(Map.<String, Object>of("position", b.position()));
        return out;
    }

    /** Up to six stored records in 4.9.0's CommitLog layout, as a pull response carries them. */
    private static byte[] pullBody(java.util.Random r) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int n = r.nextInt(6); n >= 0; n--) {
            int sysFlag = r.nextInt(4) == 0 ? r.nextInt(64) : 0;
            byte[] body = ("body " + r.nextInt() + " Zürich-東京".repeat(r.nextInt(20))).getBytes(StandardCharsets.UTF_8);
            if ((sysFlag & 1) != 0 && r.nextBoolean()) {
                java.util.zip.Deflater d = new java.util.zip.Deflater(5);
                d.setInput(body);
                d.finish();
                byte[] buf = new byte[body.length + 64];
                int len = d.deflate(buf);
                d.end();
                body = java.util.Arrays.copyOf(buf, len);
            }
            byte[] topic = (r.nextBoolean() ? "PullPathIT" : "主题-" + r.nextInt(100)).getBytes(StandardCharsets.UTF_8);
            byte[] props = ("UNIQ_KEY\u0001" + Long.toHexString(r.nextLong()) + "\u0002TAGS\u0001tag-" + r.nextInt(3)
                + "\u0002KEYS\u0001key " + r.nextInt() + (r.nextBoolean() ? "\u0002" : "")
                + (r.nextInt(5) == 0 ? "empty\u0001\u0002\u0001x\u0002" : "")).getBytes(StandardCharsets.UTF_8);
            boolean bornV6 = (sysFlag & 16) != 0;
            boolean storeV6 = (sysFlag & 32) != 0;
            ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + (bornV6 ? 20 : 8) + 8 + (storeV6 ? 20 : 8)
                + 4 + 8 + 4 + body.length + 1 + topic.length + 2 + props.length);
            b.putInt(b.capacity()).putInt(-626843481).putInt(r.nextInt()).putInt(r.nextInt(4)).putInt(0)
                .putLong(r.nextInt(1000)).putLong(r.nextInt(1 << 30)).putInt(sysFlag).putLong(1_700_000_000_000L);
            host(r, b, bornV6);
            b.putLong(1_700_000_000_001L);
            host(r, b, storeV6);
            b.putInt(0).putLong(0).putInt(body.length).put(body).put((byte) topic.length).put(topic)
                .putShort((short) props.length).put(props);
            out.write(b.array());
        }
        return out.toByteArray();
    }

    private static void host(java.util.Random r, ByteBuffer b, boolean v6) {
        byte[] ip = new byte[v6 ? 16 : 4];
        r.nextBytes(ip);
        if (v6 && r.nextBoolean()) {
            // IPv4-mapped: an Inet4Address, and an offset message id with 12 zero bytes at its end.
            java.util.Arrays.fill(ip, 0, 10, (byte) 0);
            ip[10] = (byte) 0xff;
            ip[11] = (byte) 0xff;
        }
        // Now and then above 65535: InetSocketAddress refuses it, so the record cannot be read.
        b.put(ip).putInt(r.nextInt(70_000));
    }

    /** Every instance field by name, read reflectively: what a stock decode would have set. */
    private static Map<String, Object> fields(Object header) throws IllegalAccessException {
        Map<String, Object> values = new TreeMap<>();
        for (Class<?> c = header.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    values.put(f.getName(), f.get(header));
                }
            }
        }
        return values;
    }

    private static Object call(ClassLoader cl, String cls, String method, Class<?>[] types, Object... args) throws Exception {
        Method m = Class.forName(cls, true, cl).getMethod(method, types);
        return m.invoke(null, args);
    }


    private static int major(Path jar, String internalName) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            return major(jf, jf.getJarEntry(internalName + ".class"));
        }
    }

    private static int major(JarFile jf, JarEntry entry) throws IOException {
        try (InputStream in = jf.getInputStream(entry)) {
            byte[] head = in.readNBytes(8);
            return ((head[6] & 0xff) << 8) | (head[7] & 0xff);
        }
    }
}
