package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.rmqpatch.codec.properties.MessageProperties493;
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
 * P2's 4.9.3+ variant ({@code MessageProperties493}) against the stock {@code MessageDecoder.messageProperties2String}
 * and {@code string2messageProperties} of each release it is declared for, in one JVM: a class loader over that
 * release's rocketmq-common jar (the local Maven repository, as the pom's release copies take them), its methods
 * called on the same inputs as the codec's. Compared: the strings (equal), the maps (same class, the same entries in
 * the same iteration order: a broker re-encodes the parsed map), the exception class where stock throws. Inputs:
 * random maps (unicode, surrogate pairs, both separators inside names and values, empty names and values, null values,
 * the null name, RocketMQ's own names, up to 40 entries so the map resizes), the strings stock writes for them, random
 * separator-heavy strings, every string of up to 8 chars over {@code \u0001 \u0002 a}, named corner cases. Then the
 * same through the patched jar itself (JarPatcher with the variant, on that release's common jar; with
 * {@code -Drmqpatch.disable=P2} stock's code), and the variant refused on 4.9.0's jars. (The declarations and the
 * witnesses applying it on the later releases' lib/: StoreVariantsTest, with P13's and P15's.)
 */
class Properties493DifferentialTest {

    private static final String DECODER = "org.apache.rocketmq.common.message.MessageDecoder";
    private static final char NV = 1;
    private static final char PS = 2;
    private static final int RANDOM_CASES = 3_000;
    private static final String[] REAL_KEYS = {"WAIT", "UNIQ_KEY", "KEYS", "TAGS", "CLUSTER", "DELAY", "TRAN_MSG",
        "MIN_OFFSET", "MAX_OFFSET", "REAL_TOPIC", "RETRY_TOPIC", "PGROUP"};
    private static final String[] PIECES = {"a", "b", "k", "v", "\u00e9", "\u4e2d", "\ud83d\ude00", "\ud800", "\udfff",
        "\u0000", " ", "=", ";", "null", String.valueOf(NV), String.valueOf(PS), NV + "" + NV, PS + "" + PS};

    @TempDir
    Path tmp;

    static Stream<Arguments> releases() {
        return Stream.of(Arguments.of("4.9.3", Release.V4_9_3), Arguments.of("4.9.4", Release.V4_9_4),
            Arguments.of("4.9.7", Release.V4_9_7), Arguments.of("4.9.8", Release.V4_9_8));
    }

    /** Stock's two methods of one release, called through reflection. */
    private static final class Stock {
        final Method encode;
        final Method decode;

        Stock(ClassLoader loader) throws Exception {
            Class<?> decoder = Class.forName(DECODER, true, loader);
            encode = decoder.getMethod("messageProperties2String", Map.class);
            decode = decoder.getMethod("string2messageProperties", String.class);
        }

        Object encode(Object m) {
            return unchecked(() -> call(encode, m));
        }

        Object decode(Object s) {
            return unchecked(() -> call(decode, s));
        }
    }

    /** The result of a call, or the exception's class when it threw. */
    private static Object call(Method m, Object arg) throws Exception {
        try {
            return m.invoke(null, arg);
        } catch (InvocationTargetException e) {
            return e.getCause().getClass();
        }
    }

    private static Object call(Function<Object, Object> f, Object arg) {
        try {
            return f.apply(arg);
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    @SuppressWarnings("unchecked")
    private static final Function<Object, Object> CODEC_ENCODE = m -> MessageProperties493.encode((Map<String, String>) m);
    private static final Function<Object, Object> CODEC_DECODE = s -> MessageProperties493.decode((String) s);

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theVariantEncodesAndDecodesAsTheRelease(String version, Release release) throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {commonJar(version).toUri().toURL()},
            ClassLoader.getPlatformClassLoader())) {
            assertEquals("V" + version.replace('.', '_'), versionDesc(loader));
            Stock stock = new Stock(loader);
            int compared = compareAll(version, stock::encode, stock::decode, CODEC_ENCODE, CODEC_DECODE, RANDOM_CASES);
            assertTrue(compared > 15_000, compared + " comparisons");
        }
    }

    /**
     * The variant applied by the patcher to the release's common jar: the patched MessageDecoder gives stock's results
     * (the same comparisons, fewer random cases); with {@code -Drmqpatch.disable=P2} it runs stock's body.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void thePatchedJarGivesStocksResults(String version, Release release) throws Exception {
        Patch p2 = p2();
        assertEquals(ReleaseFit.Kind.VARIANT, p2.on(release).kind());
        Path lib = Files.createDirectories(tmp.resolve("lib"));
        Files.copy(commonJar(version), lib.resolve("rocketmq-common-" + version + ".jar"));
        File codec = TestJars.codecJar(tmp);
        Path out = tmp.resolve("out");
        Map<String, List<String>> applied = JarPatcher.patch(lib.toFile(), codec, List.of(ReleaseVariant.of(p2, release)),
            List.of(), out.toFile());
        assertEquals(Map.of("rocketmq-common-" + version + ".jar", List.of("P2 properties-codec")), applied);
        URL[] patched = {out.resolve("rocketmq-common-" + version + ".jar").toUri().toURL(),
            out.resolve(codec.getName()).toUri().toURL()};
        try (URLClassLoader stockLoader = new URLClassLoader(new URL[] {commonJar(version).toUri().toURL()},
                 ClassLoader.getPlatformClassLoader());
             URLClassLoader on = new URLClassLoader(patched, ClassLoader.getPlatformClassLoader());
             URLClassLoader off = new URLClassLoader(patched, ClassLoader.getPlatformClassLoader())) {
            Stock stock = new Stock(stockLoader);
            switches(on, null);
            Stock variant = new Stock(on);
            compareAll(version + " patched", stock::encode, stock::decode, variant::encode, variant::decode, 300);
            // Where the patched method goes: the variant's codec class is on the stack of an encode while P2 is on.
            assertEquals(List.of(true, false), List.of(runsCodec(on), runsCodec(off(off))));
            Stock disabled = new Stock(off);
            compareAll(version + " patched, P2 disabled", stock::encode, stock::decode, disabled::encode,
                disabled::decode, 100);
        }
    }

    /** On 4.9.0's jars (declared there by a stand-in) the variant's witnesses refuse it: no deleteCharAt, a split. */
    @Test
    void theVariantIsRefusedOn490() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "needs 4.9.0's jars");
        Patch real = p2();
        ReleaseFit variant = real.on(Release.V4_9_3);
        Patch standIn = (Patch) Proxy.newProxyInstance(Patch.class.getClassLoader(), new Class<?>[] {Patch.class},
            (proxy, m, args) -> m.getName().equals("on") ? variant : m.invoke(real, args));
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile()),
            List.of(standIn), StartupReport.edits());
        assertEquals(Release.V4_9_0, s.release());
        assertTrue(s.applied().isEmpty(), s.applied().toString());
        ReleaseSelection.Row row = s.rows().get(0);
        assertEquals(ReleaseSelection.Outcome.REFUSED, row.outcome);
        assertEquals(ReleasePlan.MIRRORED_MEMBER, row.witnessKind, row.reason);
        assertTrue(row.reason.contains("deleteCharAt"), row.reason);
        // And as declared on 4.9.0: the patch as written, unchanged.
        assertSame(ReleaseFit.APPLIES, real.on(Release.V4_9_0));
        assertSame(real, ReleaseVariant.of(real, Release.V4_9_0));
    }

    /** Every comparison for one release; returns how many were made. */
    private int compareAll(String where, Function<Object, Object> stockEncode, Function<Object, Object> stockDecode,
                           Function<Object, Object> encode, Function<Object, Object> decode, int randomCases) {
        int n = 0;
        Random r = new Random(where.hashCode() * 31L + randomCases);
        List<String> strings = new ArrayList<>();
        for (Map<?, ?> m : namedMaps()) {
            n += compareEncode(where, m, stockEncode, encode, strings);
        }
        for (int i = 0; i < randomCases; i++) {
            n += compareEncode(where + " random map " + i, randomMap(r), stockEncode, encode, strings);
        }
        for (int i = 0; i < randomCases; i++) {
            strings.add(garbage(r, 1 + r.nextInt(40)));
        }
        strings.addAll(namedStrings());
        for (String s : strings) {
            n += compareDecode(where, s, stockDecode, decode);
        }
        if (randomCases >= 1000) {
            n += everyShortString(where, stockDecode, decode);
        }
        return n;
    }

    private static int compareEncode(String where, Map<?, ?> m, Function<Object, Object> stockEncode,
                                     Function<Object, Object> encode, List<String> encoded) {
        Map<Object, Object> before = m == null ? null : new LinkedHashMap<>(m);
        Object want = call(stockEncode, m);
        Object got = call(encode, m);
        assertEquals(want, got, () -> where + ": encode of " + brief(m));
        if (want instanceof String) {
            encoded.add((String) want);
        }
        if (m != null) {
            assertEquals(before, new LinkedHashMap<>(m), where + ": encode must not touch the map");
        }
        return 1;
    }

    private static int compareDecode(String where, String s, Function<Object, Object> stockDecode,
                                     Function<Object, Object> decode) {
        Object want = call(stockDecode, s);
        Object got = call(decode, s);
        assertEquals(shape(want), shape(got), () -> where + ": decode of " + brief(s));
        return 1;
    }

    /** Every string of up to 8 chars over {NV, PS, 'a'}: each arrangement of the separators. */
    private static int everyShortString(String where, Function<Object, Object> stockDecode, Function<Object, Object> decode) {
        char[] alphabet = {NV, PS, 'a'};
        int n = 0;
        for (int len = 0; len <= 8; len++) {
            int combos = (int) Math.pow(alphabet.length, len);
            char[] chars = new char[len];
            for (int c = 0; c < combos; c++) {
                int x = c;
                for (int p = 0; p < len; p++) {
                    chars[p] = alphabet[x % alphabet.length];
                    x /= alphabet.length;
                }
                n += compareDecode(where + " exhaustive", new String(chars), stockDecode, decode);
            }
        }
        assertEquals(9_841, n);
        return n;
    }

    /** A map's class and its entries in iteration order; anything else (an exception's class) as it is. */
    private static Object shape(Object result) {
        if (!(result instanceof Map)) {
            return result;
        }
        List<Object> shape = new ArrayList<>();
        shape.add(result.getClass());
        for (Map.Entry<?, ?> e : ((Map<?, ?>) result).entrySet()) {
            shape.add(Arrays.asList(e.getKey(), e.getValue()));
        }
        return shape;
    }

    private static List<Map<?, ?>> namedMaps() {
        List<Map<?, ?>> maps = new ArrayList<>();
        maps.add(null);
        maps.add(new HashMap<>());
        maps.add(map("WAIT", "true"));
        maps.add(map("", "value of the empty name"));
        maps.add(map("k", ""));
        maps.add(map("k", null));
        maps.add(map("a", null, "b", null));
        maps.add(map("", ""));
        maps.add(map("a", null, "b", "", "c", "3"));
        maps.add(map("k", "v" + NV + "w", "x" + NV + "y", "z"));
        maps.add(map("k", "v" + PS + "w", PS + "x", PS + ""));
        maps.add(map("k", NV + "", NV + "", NV + ""));
        maps.add(map("\ud83d\ude00", "\ud83d\ude80\u4e2d\u6587", "\u00e9", "\u00df", "lone", "\ud800"));
        Map<String, String> nullName = new HashMap<>();
        nullName.put(null, "stock writes the null name as the text null");
        nullName.put("x", "y");
        maps.add(nullName);
        Map<String, String> nullNameNullValue = new HashMap<>();
        nullNameNullValue.put(null, null);
        maps.add(nullNameNullValue);
        // Not a Map<String, String> at all: stock's casts fail, name before value; a null value is cast too.
        Map<Object, Object> intName = new LinkedHashMap<>();
        intName.put(1, "one");
        maps.add(intName);
        Map<Object, Object> intValue = new LinkedHashMap<>();
        intValue.put("one", 1);
        maps.add(intValue);
        Map<Object, Object> intNameNullValue = new LinkedHashMap<>();
        intNameNullValue.put("a", "b");
        intNameNullValue.put(2, null);
        maps.add(intNameNullValue);
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 300; i++) {
            many.put("KEY_" + i, "value_" + i);
        }
        maps.add(many);
        maps.add(map("BIG", "v".repeat(1 << 16), "WIDE", "\u4e2d\ud83d\ude00".repeat(1 << 14)));
        return maps;
    }

    private static List<String> namedStrings() {
        List<String> s = new ArrayList<>(Arrays.asList(null, "", "k", "k" + NV, NV + "v", "k" + NV + "v",
            "k" + NV + "v" + PS, "k" + NV + "v" + PS + PS + PS, PS + "k" + NV + "v", PS + "" + PS + "k" + NV + "v" + PS,
            "k" + NV + "v" + NV, "k" + NV + NV + "v", "k" + NV + "v" + NV + "x", NV + "" + NV + "v", "a" + NV + "b" + PS
            + "a" + NV + "c", "a" + NV + "b" + PS + NV + PS + "c" + NV + "d", "ab" + PS + "c" + NV + "d",
            "\ud83d" + NV + "\ude00" + PS + "\ud800" + NV + "\udfff" + PS,
            "WAIT" + NV + "true" + PS + "KEYS" + NV + "k1 k2" + PS + "TAGS" + NV + "t" + PS + "UNIQ_KEY" + NV
                + "C0A80001000018B4AAC2"));
        StringBuilder segments = new StringBuilder();
        while (segments.length() < (1 << 16)) {
            segments.append("abc").append(PS);
        }
        // Stock searches for the name-value separator from every segment's start: here to the end, every time.
        s.add(segments + "k" + NV + "v");
        s.add(String.valueOf(NV).repeat(1 << 12));
        s.add(String.valueOf(PS).repeat(1 << 12));
        return s;
    }

    private static Map<String, String> randomMap(Random r) {
        int n = r.nextInt(5) == 0 ? 0 : r.nextInt(8) == 0 ? 13 + r.nextInt(28) : 1 + r.nextInt(12);
        Map<String, String> m = r.nextBoolean() ? new HashMap<>() : new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(10);
            String key = k < 4 ? REAL_KEYS[r.nextInt(REAL_KEYS.length)] : k == 4 ? "" : k == 5 && r.nextInt(4) == 0
                ? null : text(r, 10);
            int v = r.nextInt(10);
            m.put(key, v == 0 ? null : v == 1 ? "" : text(r, 30));
        }
        return m;
    }

    /** Up to {@code max} pieces: letters, unicode (surrogate pairs and lone halves), NUL, both separators. */
    private static String text(Random r, int max) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(max + 1);
        for (int i = 0; i < n; i++) {
            b.append(r.nextInt(3) == 0 ? PIECES[r.nextInt(PIECES.length)] : String.valueOf((char) ('a' + r.nextInt(26))));
        }
        return b.toString();
    }

    /** Separator-heavy strings: half of the chars separators. */
    private static String garbage(Random r, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int c = r.nextInt(8);
            b.append(c < 2 ? NV : c < 4 ? PS : c == 4 ? PIECES[r.nextInt(PIECES.length)] : "x");
        }
        return b.toString();
    }

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String brief(Object o) {
        String s = String.valueOf(o);
        s = s.length() > 200 ? s.substring(0, 200) + "...(" + s.length() + " chars)" : s;
        return s.replace(NV, '^').replace(PS, '|');
    }

    private static Path commonJar(String version) {
        Path repo = Path.of(System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
        Path jar = repo.resolve("org/apache/rocketmq/rocketmq-common/" + version + "/rocketmq-common-" + version + ".jar");
        assumeTrue(Files.isRegularFile(jar), "no " + jar);
        return jar;
    }

    private static String versionDesc(ClassLoader loader) throws Exception {
        Class<?> version = loader.loadClass("org.apache.rocketmq.common.MQVersion");
        return (String) version.getMethod("getVersionDesc", int.class).invoke(null, version.getField("CURRENT_VERSION").get(null));
    }

    private static Patch p2() {
        return Patches.all().stream().filter(p -> p.id().equals("P2")).findFirst().orElseThrow();
    }

    /** Initialises the loader's PatchSwitches while -Drmqpatch.disable is {@code disable}, then restores it. */
    private static void switches(ClassLoader loader, String disable) throws Exception {
        Class<?> sw = dev.rmqpatch.patches.LibLoaders.switches(loader, disable);
        assertEquals(disable == null, sw.getField("P2").getBoolean(null));
    }

    private static ClassLoader off(ClassLoader loader) throws Exception {
        switches(loader, "P2");
        return loader;
    }

    /**
     * Whether the loader's messageProperties2String goes through the variant's codec class: a map whose entry set
     * records the caller's stack when it is iterated.
     */
    private static boolean runsCodec(ClassLoader loader) throws Exception {
        boolean[] seen = {false};
        Map<String, String> m = new HashMap<>(Map.of("a", "b")) {
            @Override
            public java.util.Set<Map.Entry<String, String>> entrySet() {
                for (StackTraceElement e : new Throwable().getStackTrace()) {
                    seen[0] |= e.getClassName().equals(MessageProperties493.class.getName());
                }
                return super.entrySet();
            }
        };
        assertEquals("a" + NV + "b", new Stock(loader).encode(m));
        return seen[0];
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static Object unchecked(Call c) {
        try {
            return c.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
