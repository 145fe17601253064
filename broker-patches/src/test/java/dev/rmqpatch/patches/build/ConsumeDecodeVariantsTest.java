package dev.rmqpatch.patches.build;

import static dev.rmqpatch.patches.build.ReleaseArtifacts.artifact;
import static dev.rmqpatch.patches.LibLoaders.switches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.DeflaterOutputStream;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * P28 (consume-decode) as its variants on 4.9.3 ({@code MessageDecodes493}) and 4.9.4, 4.9.7, 4.9.8
 * ({@code MessageDecodes494}), against each release's own stock decode, in one JVM: the release's rocketmq-common jar
 * patched with the variant by {@code JarPatcher} (the witnesses run as in patch-lib), in a class loader with the codec,
 * beside a loader over the stock jar; a third loader holds the patched jar with {@code -Drmqpatch.disable=P28}.
 *
 * <p>Records: built byte by byte (every field random: sysFlag bits, IPv4, IPv6 and IPv4-mapped hosts, ports out of
 * range, topics of 0 to 127 bytes or a negative length, properties with empty names, empty values, separators inside
 * values, non-ASCII, a negative length), bodies compressed by the release's own compressors (4.9.4+: zlib as type 0 and
 * 3, LZ4, ZSTD; a type of 4 to 7; a body of another type than its flag; garbage), every fourth made by the release's
 * own {@code MessageDecoder.encode}; then truncated at random, or with a huge body length. Each decoded by
 * {@code decode(buffer, readBody, deCompressBody, isClient)} (all eight) and, several at a time, by {@code decodes}, from
 * heap buffers, slices with an array offset, direct and read-only buffers: the same null, or the same object field by
 * field (every public getter, and toString), and the buffer at the same position.
 */
class ConsumeDecodeVariantsTest {

    private static final String DECODER = "org.apache.rocketmq.common.message.MessageDecoder";
    private static final int RECORDS = 300;

    @TempDir
    Path tmp;

    static Stream<Arguments> releases() {
        return Stream.of(
            Arguments.of(Release.V4_9_3, "MessageDecodes493"),
            Arguments.of(Release.V4_9_4, "MessageDecodes494"),
            Arguments.of(Release.V4_9_7, "MessageDecodes494"),
            Arguments.of(Release.V4_9_8, "MessageDecodes494"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theVariantDecodesWhatStockDecodes(Release release, String hook) throws Exception {
        Path common = commonJar(release);
        Path patched = patchedCommon(release, common, ReleaseVariant.of(p28(), release));
        assertTrue(describedEdits(ReleaseVariant.of(p28(), release)).contains(hook), hook);
        try (URLClassLoader stock = loader(common);
             URLClassLoader variant = loader(patched, codec());
             URLClassLoader off = loader(patched, codec())) {
            switches(variant, null);
            switches(off, "P28");
            Random random = new Random(release.ordinal() * 7919L + 17);
            boolean byType = release.atLeast(Release.V4_9_4);
            int compared = 0;
            int nulls = 0;
            int compressed = 0;
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                Record r = Record.random(random, byType);
                byte[] bytes = i % 4 == 3 && r.wellFormed() ? r.encodeByStock(stock) : r.bytes(stock, byType);
                bytes = r.damage(bytes, random);
                records.add(bytes);
                if ((r.sysFlag & 1) != 0) {
                    compressed++;
                }
                for (int flags = 0; flags < 8; flags++) {
                    boolean readBody = (flags & 1) != 0;
                    boolean deCompress = (flags & 2) != 0;
                    boolean client = (flags & 4) != 0;
                    int kind = random.nextInt(4);
                    String what = release.version() + " record " + i + " " + r + " flags " + flags + " buffer " + kind;
                    Map<String, String> s = decodeOne(stock, buffer(bytes, kind), readBody, deCompress, client);
                    assertEquals(s, decodeOne(variant, buffer(bytes, kind), readBody, deCompress, client), what);
                    assertEquals(s, decodeOne(off, buffer(bytes, kind), readBody, deCompress, client), what + " (P28 off)");
                    if (s.containsKey("null")) {
                        nulls++;
                    }
                    compared++;
                }
            }
            for (int i = 0; i < RECORDS / 4; i++) {
                ByteArrayOutputStream joined = new ByteArrayOutputStream();
                int n = 1 + random.nextInt(6);
                for (int k = 0; k < n; k++) {
                    joined.write(records.get(random.nextInt(records.size())));
                }
                byte[] bytes = joined.toByteArray();
                boolean readBody = random.nextBoolean();
                int kind = random.nextInt(4);
                List<Map<String, String>> s = decodes(stock, buffer(bytes, kind), readBody);
                assertEquals(s, decodes(variant, buffer(bytes, kind), readBody), release.version() + " decodes " + i);
                assertEquals(s, decodes(off, buffer(bytes, kind), readBody), release.version() + " decodes " + i + " (off)");
            }
            assertEquals(RECORDS * 8, compared);
            // Both outcomes and the compressed bodies were really exercised.
            assertTrue(nulls > compared / 10 && nulls < compared * 3 / 4, nulls + " of " + compared);
            assertTrue(compressed > RECORDS / 4, String.valueOf(compressed));
        }
    }

    /**
     * Why 4.9.3 needs the variant: the patch as written parses the properties with the codec's 4.9.0 parser while P2's
     * switch is on (P2 is not applied on 4.9.3, its switch is on by default), which gives another map than 4.9.3's
     * own parser for a value holding the separator or an empty name.
     */
    @Test
    void on493ThePatchAsWrittenParsesTheProperties490sWay() throws Exception {
        Path common = commonJar(Release.V4_9_3);
        Path patched = patchedCommon(Release.V4_9_3, common, p28());
        try (URLClassLoader stock = loader(common); URLClassLoader asWritten = loader(patched, codec())) {
            switches(asWritten, null);
            Record r = Record.random(new Random(3), false);
            r.sysFlag = 0;
            r.bornIp = new byte[] {10, 0, 0, 1};
            r.storeIp = new byte[] {10, 0, 0, 2};
            r.bornPort = 1234;
            r.storePort = 10911;
            r.storeSize = 0;
            r.topic = "TopicTest".getBytes(StandardCharsets.UTF_8);
            r.topicLength = r.topic.length;
            r.properties = "a\u0001b\u0001c\u0002\u0001v\u0002KEYS\u0001k".getBytes(StandardCharsets.UTF_8);
            r.propertiesLength = r.properties.length;
            byte[] bytes = r.bytes(stock, false);
            Map<String, String> s = decodeOne(stock, ByteBuffer.wrap(bytes), true, true, true);
            Map<String, String> w = decodeOne(asWritten, ByteBuffer.wrap(bytes), true, true, true);
            assertEquals("[a=b\u0001c, KEYS=k]", s.get("getProperties"));
            assertNotEquals(s.get("getProperties"), w.get("getProperties"));
        }
    }

    /** patch-lib's plan: P28 applied as its variant on 4.9.3 and 4.9.7; the 4.9.4+ variant refused on 4.9.0's jars. */
    @Test
    void theVariantsAreAppliedOnTheirReleasesAndRefusedOn490() throws Exception {
        Map<Release, Path> libs = new LinkedHashMap<>();
        // 4.9.4's MessageDecoder is 4.9.7's (javap); the differential test runs the patcher with each release's edits.
        libs.put(Release.V4_9_3, ReleaseLibs.release493());
        libs.put(Release.V4_9_7, ReleaseLibs.release497());
        for (Map.Entry<Release, Path> e : libs.entrySet()) {
            ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(e.getValue().toFile()), Patches.all(),
                StartupReport.edits());
            assertEquals(e.getKey(), s.release());
            ReleaseSelection.Row row = s.rows().stream().filter(r -> r.id.equals("P28")).findFirst().orElseThrow();
            assertEquals(ReleaseSelection.Outcome.APPLIED, row.outcome, row.witnessKind + ": " + row.reason);
            assertTrue(s.applied().stream().anyMatch(p -> p.id().equals("P28") && p instanceof ReleaseVariant));
        }
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "needs 4.9.0's jars");
        Path lib490 = TestJars.stockLib(tmp.resolve("lib490"));
        for (Release declaredOn : new Release[] {Release.V4_9_4, Release.V4_9_3}) {
            ReleaseFit variant = p28().on(declaredOn);
            Patch real = p28();
            Patch standIn = (Patch) java.lang.reflect.Proxy.newProxyInstance(Patch.class.getClassLoader(),
                new Class<?>[] {Patch.class}, (proxy, m, args) -> m.getName().equals("on") ? variant : m.invoke(real, args));
            ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(lib490.toFile()), List.of(standIn),
                StartupReport.edits());
            ReleaseSelection.Row row = s.rows().get(0);
            if (declaredOn == Release.V4_9_4) {
                // 4.9.0's decode refers to no compressor by type: the witness refuses the 4.9.4+ variant.
                assertEquals(ReleaseSelection.Outcome.REFUSED, row.outcome);
                assertEquals(ReleasePlan.MIRRORED_MEMBER, row.witnessKind, row.reason);
                assertTrue(row.reason.contains("getCompressionType"), row.reason);
            } else {
                // 4.9.3's variant fits 4.9.0's code (its decode is 4.9.0's; the release's parser is stock's or P2's).
                assertEquals(ReleaseSelection.Outcome.APPLIED, row.outcome, row.reason);
            }
        }
    }

    // ---- decoding through a loader, described by the getters --------------------------------------------------

    private static final Map<ClassLoader, Method> DECODE = new java.util.concurrent.ConcurrentHashMap<>();

    private static Map<String, String> decodeOne(ClassLoader loader, ByteBuffer buffer, boolean readBody,
                                                 boolean deCompress, boolean client) throws Exception {
        Method decode = DECODE.computeIfAbsent(loader, l -> {
            try {
                return l.loadClass(DECODER).getMethod("decode", ByteBuffer.class, boolean.class, boolean.class,
                    boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        });
        Map<String, String> view;
        try {
            Object msg = decode.invoke(null, buffer, readBody, deCompress, client);
            view = msg == null ? new TreeMap<>(Map.of("null", "")) : view(msg);
        } catch (InvocationTargetException e) {
            view = new TreeMap<>(Map.of("threw", e.getCause().getClass().getName()));
        }
        view.put("position", Integer.toString(buffer.position()));
        return view;
    }

    private static List<Map<String, String>> decodes(ClassLoader loader, ByteBuffer buffer, boolean readBody)
        throws Exception {
        Method decodes = loader.loadClass(DECODER).getMethod("decodes", ByteBuffer.class, boolean.class);
        List<?> list = (List<?>) decodes.invoke(null, buffer, readBody);
        List<Map<String, String>> views = new ArrayList<>();
        for (Object msg : list) {
            views.add(view(msg));
        }
        views.add(Map.of("position", Integer.toString(buffer.position()), "size", Integer.toString(list.size())));
        return views;
    }

    /**
     * Every public no-argument getter of the message's class (and toString): its value, as text. Left out:
     * getBornHostNameString (4.9.3's asks DNS; it is derived from getBornHost, which is compared).
     */
    private static final Map<Class<?>, List<Method>> GETTERS = new java.util.concurrent.ConcurrentHashMap<>();

    private static Map<String, String> view(Object msg) throws Exception {
        Map<String, String> view = new TreeMap<>();
        view.put("class", msg.getClass().getName());
        List<Method> getters = GETTERS.computeIfAbsent(msg.getClass(), c -> Arrays.stream(c.getMethods())
            .filter(m -> m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()))
            .filter(m -> m.getName().startsWith("get") || m.getName().startsWith("is") || m.getName().equals("toString"))
            .filter(m -> !m.getName().equals("getClass") && !m.getName().equals("getBornHostNameString"))
            .sorted(Comparator.comparing(Method::getName))
            .collect(Collectors.toList()));
        for (Method m : getters) {
            String value;
            try {
                value = text(m.invoke(msg));
            } catch (InvocationTargetException e) {
                value = "threw " + e.getCause().getClass().getName();
            }
            view.put(m.getName(), value);
        }
        return view;
    }

    private static String text(Object v) {
        if (v instanceof byte[]) {
            return "bytes " + Arrays.toString((byte[]) v);
        }
        if (v instanceof ByteBuffer) {
            ByteBuffer b = ((ByteBuffer) v).duplicate();
            byte[] a = new byte[b.remaining()];
            b.get(a);
            return "buffer " + Arrays.toString(a);
        }
        if (v instanceof Map) {
            // Entries in iteration order: the same insertion order gives the same HashMap order.
            return ((Map<?, ?>) v).entrySet().stream().map(String::valueOf).collect(Collectors.toList()).toString();
        }
        return String.valueOf(v);
    }

    /** The record in one of four kinds of buffer: heap, a slice with an array offset, direct, read-only. */
    private static ByteBuffer buffer(byte[] bytes, int kind) {
        switch (kind) {
            case 0:
                return ByteBuffer.wrap(bytes);
            case 1: {
                byte[] bigger = new byte[bytes.length + 7];
                System.arraycopy(bytes, 0, bigger, 5, bytes.length);
                ByteBuffer b = ByteBuffer.wrap(bigger);
                b.position(5).limit(5 + bytes.length);
                return b.slice();
            }
            case 2: {
                ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
                b.put(bytes).flip();
                return b;
            }
            default:
                return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        }
    }

    // ---- records ----------------------------------------------------------------------------------------------

    /** One stored record's fields, random; what went wrong with it (if anything) in {@link #damage}. */
    private static final class Record {
        int storeSize;
        int bodyCrc;
        int queueId;
        int flag;
        long queueOffset;
        long physicOffset;
        int sysFlag;
        long bornTimestamp;
        byte[] bornIp;
        int bornPort;
        long storeTimestamp;
        byte[] storeIp;
        int storePort;
        int reconsumeTimes;
        long preparedOffset;
        byte[] body;
        /** 0: as the flag says; 1: another type's bytes; 2: garbage. */
        int bodyKind;
        byte[] topic;
        int topicLength;
        byte[] properties;
        int propertiesLength;
        String damage = "";

        static Record random(Random r, boolean byType) {
            Record m = new Record();
            m.bodyCrc = r.nextInt();
            m.queueId = r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(16);
            m.flag = r.nextInt(3) == 0 ? r.nextInt() : 0;
            m.queueOffset = r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(100000);
            m.physicOffset = r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(Integer.MAX_VALUE);
            int sys = 0;
            if (r.nextInt(3) == 0) {
                sys |= 0x1; // COMPRESSED
            }
            sys |= r.nextInt(4) == 0 ? 0x2 : 0; // MULTI_TAGS
            sys |= r.nextInt(4) == 0 ? (r.nextInt(3) << 2) : 0; // transaction bits
            sys |= r.nextInt(4) == 0 ? 0x10 : 0; // BORNHOST_V6
            sys |= r.nextInt(4) == 0 ? 0x20 : 0; // STOREHOST_V6
            int type = r.nextInt(10) == 0 ? 4 + r.nextInt(4) : r.nextInt(4); // compression type, 4-7 unknown
            sys |= type << 8;
            if (r.nextInt(20) == 0) {
                sys |= r.nextInt() & 0xFFFF0000; // bits nobody reads
            }
            m.sysFlag = sys;
            m.bornTimestamp = r.nextLong();
            m.bornIp = ip(r, (sys & 0x10) != 0);
            m.bornPort = port(r);
            m.storeTimestamp = r.nextLong();
            m.storeIp = ip(r, (sys & 0x20) != 0);
            m.storePort = port(r);
            m.reconsumeTimes = r.nextInt(5) == 0 ? r.nextInt() : r.nextInt(16);
            m.preparedOffset = r.nextInt(5) == 0 ? r.nextLong() : 0;
            int bodyLength = r.nextInt(8) == 0 ? 0 : r.nextInt(8) == 0 ? 2000 + r.nextInt(3000) : r.nextInt(300);
            m.body = text(r, bodyLength).getBytes(StandardCharsets.UTF_8);
            m.bodyKind = r.nextInt(12) == 0 ? 1 + r.nextInt(2) : 0;
            m.topic = text(r, r.nextInt(4) == 0 ? r.nextInt(40) : 10).getBytes(StandardCharsets.UTF_8);
            if (m.topic.length > 127) {
                m.topic = Arrays.copyOf(m.topic, 127); // may cut a character: the decoder's replacement char
            }
            m.topicLength = r.nextInt(40) == 0 ? -1 - r.nextInt(128) : m.topic.length;
            m.properties = properties(r).getBytes(StandardCharsets.UTF_8);
            m.propertiesLength = r.nextInt(40) == 0 ? -1 - r.nextInt(100) : m.properties.length;
            m.storeSize = r.nextInt(10) == 0 ? r.nextInt() : 0; // 0: the real size
            return m;
        }

        boolean wellFormed() {
            return (sysFlag >>> 8 & 7) < 4 && storeSize == 0 && bornPort >= 0 && bornPort <= 0xFFFF
                && storePort >= 0 && storePort <= 0xFFFF;
        }

        private static byte[] ip(Random r, boolean v6) {
            byte[] ip = new byte[v6 ? 16 : 4];
            r.nextBytes(ip);
            if (v6 && r.nextInt(4) == 0) { // IPv4-mapped: getByAddress gives an Inet4Address
                Arrays.fill(ip, 0, 10, (byte) 0);
                ip[10] = (byte) 0xFF;
                ip[11] = (byte) 0xFF;
            }
            return ip;
        }

        private static int port(Random r) {
            switch (r.nextInt(30)) {
                case 0:
                    return -1 - r.nextInt(10);
                case 1:
                    return 65536 + r.nextInt(10);
                default:
                    return r.nextInt(65536);
            }
        }

        private static final String[] PIECES = {"a", "KEYS", "TAGS", "UNIQ_KEY", "k", "v", "", "é", "主题", "\uD83D\uDE00",
            "\u0001", "\u0002", "\u0001\u0001", "\u0002\u0002", "x y", "0", "DELAY", "TRAN_MSG", "true"};

        /** Well-formed maps as the stock string (name 1 value 2 ...), or pieces with separators anywhere. */
        private static String properties(Random r) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(6);
            boolean wellFormed = r.nextBoolean();
            for (int i = 0; i < n; i++) {
                if (wellFormed) {
                    sb.append(word(r)).append('\u0001').append(word(r)).append('\u0002');
                } else {
                    int k = 1 + r.nextInt(5);
                    for (int j = 0; j < k; j++) {
                        sb.append(PIECES[r.nextInt(PIECES.length)]);
                    }
                }
            }
            if (wellFormed && sb.length() > 0 && r.nextBoolean()) {
                sb.setLength(sb.length() - 1); // 4.9.3+ writes no trailing separator
            }
            if (r.nextInt(30) == 0) {
                sb.append(text(r, 3000)); // long
            }
            return sb.toString();
        }

        private static String word(Random r) {
            String w = PIECES[r.nextInt(PIECES.length)];
            while (w.indexOf('\u0001') >= 0 || w.indexOf('\u0002') >= 0) {
                w = PIECES[r.nextInt(PIECES.length)];
            }
            return r.nextInt(5) == 0 ? w + text(r, r.nextInt(12)) : w;
        }

        private static String text(Random r, int n) {
            StringBuilder sb = new StringBuilder(n);
            boolean ascii = r.nextInt(4) != 0;
            for (int i = 0; i < n; i++) {
                sb.append((char) (ascii ? 32 + r.nextInt(95) : 32 + r.nextInt(0xD000)));
            }
            return sb.toString();
        }

        /** The body as stored: compressed by the flag's type (the release's own compressors) when the flag says so. */
        private byte[] storedBody(ClassLoader stock, boolean byType) throws Exception {
            if ((sysFlag & 1) == 0 || body.length == 0) {
                return body;
            }
            if (bodyKind == 2) {
                byte[] junk = body.clone();
                for (int i = 0; i < junk.length; i += 3) {
                    junk[i] ^= 0x5A;
                }
                return junk;
            }
            int type = sysFlag >>> 8 & 7;
            if (!byType || type == 0 || type > 3) {
                type = 3; // zlib
            }
            if (bodyKind == 1) {
                type = type % 3 + 1; // another type's bytes
            }
            return compress(stock, byType, type, body);
        }

        byte[] bytes(ClassLoader stock, boolean byType) throws Exception {
            byte[] stored = storedBody(stock, byType);
            int size = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornIp.length + 4 + 8 + storeIp.length + 4 + 4 + 8
                + 4 + stored.length + 1 + topic.length + 2 + properties.length;
            ByteBuffer b = ByteBuffer.allocate(size);
            b.putInt(storeSize == 0 ? size : storeSize);
            b.putInt(0xdaa320a7);
            b.putInt(bodyCrc);
            b.putInt(queueId);
            b.putInt(flag);
            b.putLong(queueOffset);
            b.putLong(physicOffset);
            b.putInt(sysFlag);
            b.putLong(bornTimestamp);
            b.put(bornIp).putInt(bornPort);
            b.putLong(storeTimestamp);
            b.put(storeIp).putInt(storePort);
            b.putInt(reconsumeTimes);
            b.putLong(preparedOffset);
            b.putInt(stored.length).put(stored);
            b.put((byte) topicLength).put(topic);
            b.putShort((short) propertiesLength).put(properties);
            return b.array();
        }

        /** The release's own {@code MessageDecoder.encode(MessageExt, needCompress)} of the same message. */
        byte[] encodeByStock(ClassLoader stock) throws Exception {
            Class<?> ext = stock.loadClass("org.apache.rocketmq.common.message.MessageExt");
            Class<?> decoder = stock.loadClass(DECODER);
            Object m = ext.getConstructor().newInstance();
            set(ext, m, "setQueueId", int.class, queueId);
            set(ext, m, "setFlag", int.class, flag);
            set(ext, m, "setQueueOffset", long.class, queueOffset);
            set(ext, m, "setCommitLogOffset", long.class, physicOffset);
            set(ext, m, "setSysFlag", int.class, sysFlag);
            set(ext, m, "setBornTimestamp", long.class, bornTimestamp);
            set(ext, m, "setBornHost", java.net.SocketAddress.class,
                new java.net.InetSocketAddress(java.net.InetAddress.getByAddress(bornIp), bornPort));
            set(ext, m, "setStoreTimestamp", long.class, storeTimestamp);
            set(ext, m, "setStoreHost", java.net.SocketAddress.class,
                new java.net.InetSocketAddress(java.net.InetAddress.getByAddress(storeIp), storePort));
            set(ext, m, "setReconsumeTimes", int.class, reconsumeTimes);
            set(ext, m, "setPreparedTransactionOffset", long.class, preparedOffset);
            set(ext, m, "setBodyCRC", int.class, bodyCrc);
            set(ext, m, "setTopic", String.class, new String(topic, StandardCharsets.UTF_8));
            set(ext, m, "setBody", byte[].class, body);
            Map<?, ?> props = (Map<?, ?>) decoder.getMethod("string2messageProperties", String.class)
                .invoke(null, new String(properties, StandardCharsets.UTF_8));
            Method setProperties = stock.loadClass("org.apache.rocketmq.common.message.MessageAccessor")
                .getMethod("setProperties", stock.loadClass("org.apache.rocketmq.common.message.Message"), Map.class);
            setProperties.invoke(null, m, props);
            // An IPv4-mapped address under a V6 flag is written as 4 bytes (its InetAddress is an Inet4Address): a
            // record no store writes, kept as one more malformed input.
            return (byte[]) decoder.getMethod("encode", ext, boolean.class).invoke(null, m, true);
        }

        private static void set(Class<?> c, Object o, String name, Class<?> type, Object value) throws Exception {
            c.getMethod(name, type).invoke(o, value);
        }

        /** Truncated (a third of them), a body length past the end, or intact. */
        byte[] damage(byte[] bytes, Random r) {
            switch (r.nextInt(12)) {
                case 0:
                case 1:
                case 2: {
                    int at = r.nextInt(bytes.length);
                    damage = "cut at " + at + " of " + bytes.length;
                    return Arrays.copyOf(bytes, at);
                }
                case 3: {
                    int bodyAt = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornIp.length + 4 + 8 + storeIp.length + 4 + 4 + 8;
                    if (bodyAt + 4 <= bytes.length) {
                        // Not beyond what a JVM allocates: for a length near Integer.MAX_VALUE stock throws
                        // OutOfMemoryError where the codec gives null (MessageDecodes' Javadoc, as on 4.9.0).
                        ByteBuffer.wrap(bytes).putInt(bodyAt, r.nextBoolean() ? 1 << 20 : bytes.length);
                        damage = "body length past the end";
                    }
                    return bytes;
                }
                default:
                    return bytes;
            }
        }

        @Override
        public String toString() {
            return "sysFlag 0x" + Integer.toHexString(sysFlag) + " body " + body.length + " kind " + bodyKind
                + " topic " + topicLength + " properties " + propertiesLength + " " + damage;
        }
    }

    /** zlib as UtilAll.compress (4.9.3) writes it; 4.9.4+: the release's CompressorFactory compressor of the type. */
    private static byte[] compress(ClassLoader stock, boolean byType, int type, byte[] body) throws Exception {
        if (!byType) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (DeflaterOutputStream d = new DeflaterOutputStream(out, new java.util.zip.Deflater(5))) {
                d.write(body);
            }
            return out.toByteArray();
        }
        Class<?> typeClass = stock.loadClass("org.apache.rocketmq.common.compression.CompressionType");
        Object t = typeClass.getMethod("findByValue", int.class).invoke(null, type);
        Object compressor = stock.loadClass("org.apache.rocketmq.common.compression.CompressorFactory")
            .getMethod("getCompressor", typeClass).invoke(null, t);
        Method compress = stock.loadClass("org.apache.rocketmq.common.compression.Compressor")
            .getMethod("compress", byte[].class, int.class);
        return (byte[]) compress.invoke(compressor, body, 5);
    }

    // ---- jars and loaders -------------------------------------------------------------------------------------

    private static Patch p28() {
        return Patches.all().stream().filter(p -> p.id().equals("P28")).findFirst().orElseThrow();
    }

    private static String describedEdits(Patch p) {
        return p.edits().stream().map(e -> e.describe()).collect(Collectors.joining("; "));
    }

    /** The release's rocketmq-common (the pom's release copies; 4.9.8's from the local repository). */
    private static Path commonJar(Release release) {
        switch (release) {
            case V4_9_3:
                return ReleaseLibs.release493().resolve("rocketmq-common-4.9.3.jar");
            case V4_9_4:
                return ReleaseLibs.release494().resolve("rocketmq-common-4.9.4.jar");
            case V4_9_7:
                return ReleaseLibs.release497().resolve("rocketmq-common-4.9.7.jar");
            default:
                return artifact("org.apache.rocketmq", "rocketmq-common", release.version());
        }
    }

    /** The common jar rewritten with {@code patch} by the patcher (its witnesses run), alone in a lib/. */
    private Path patchedCommon(Release release, Path common, Patch patch) throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in-" + release.version() + "-" + patch.getClass().getSimpleName()));
        Files.copy(common, in.resolve(common.getFileName()));
        Files.copy(artifact("org.apache.rocketmq", "rocketmq-logging", release.version()),
            in.resolve("rocketmq-logging-" + release.version() + ".jar"));
        Path out = Files.createDirectories(tmp.resolve("out-" + release.version() + "-" + patch.getClass().getSimpleName()));
        Map<String, List<String>> byJar = JarPatcher.patch(in.toFile(), TestJars.codecJar(tmp), List.of(patch),
            Collections.emptyList(), out.toFile());
        assertEquals(List.of("P28 consume-decode"), byJar.get(common.getFileName().toString()), byJar.toString());
        return out.resolve(common.getFileName());
    }

    /** The common jar, then its logging, lz4-java and zstd-jni (4.9.4+'s compressors), commons-lang3, then extra. */
    private static URLClassLoader loader(Path common, URL... extra) throws Exception {
        String version = common.getFileName().toString().replace("rocketmq-common-", "").replace(".jar", "");
        List<URL> urls = new ArrayList<>();
        urls.add(common.toUri().toURL());
        urls.add(artifact("org.apache.rocketmq", "rocketmq-logging", version).toUri().toURL());
        urls.add(artifact("org.lz4", "lz4-java", "1.8.0").toUri().toURL());
        urls.add(artifact("com.github.luben", "zstd-jni", "1.5.2-2").toUri().toURL());
        urls.add(codeSource("org.apache.commons.lang3.StringUtils"));
        urls.addAll(List.of(extra));
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static URL codec() throws Exception {
        return codeSource("dev.rmqpatch.codec.message.MessageDecodes");
    }

    private static URL codeSource(String className) throws ClassNotFoundException {
        return Class.forName(className, false, ConsumeDecodeVariantsTest.class.getClassLoader())
            .getProtectionDomain().getCodeSource().getLocation();
    }

}
