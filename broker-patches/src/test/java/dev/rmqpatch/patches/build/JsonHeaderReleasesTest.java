package dev.rmqpatch.patches.build;

import static dev.rmqpatch.patches.LibLoaders.SWITCHES;
import static dev.rmqpatch.patches.build.ReleaseArtifacts.artifact;
import static dev.rmqpatch.patches.LibLoaders.switches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.transform.MethodEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * P5 (json-header-decode) as its 4.9.4+ variant against the stock code of 4.9.4, 4.9.7 and 4.9.8, in one JVM: the
 * release's remoting jar patched with the variant alone ({@code JarPatcher}), a class loader over it, the release's
 * logging, fastjson 1.2.69_noneautotype, Netty 4.1.65 and the codec, and one over the stock jars; each frame decoded
 * by stock {@code RemotingCommand.decode(ByteBuffer)} in both. Randomised JSON headers: commands as stock's own
 * fastjson writes them, the same content in other styles (whitespace, key order, unknown keys, every field, unicode,
 * escapes, surrogates, extreme and negative numbers, numbers as strings or fractions, enum names of other case, nulls,
 * {@code @type}, {@code $ref}, nested values), and byte mutations and truncations of both. Compared: every getter,
 * the ext fields' class and entries in iteration order, serializeTypeCurrentRPC, the body, the exception (class and
 * message, with its causes), and the loaders' request-id counters (one id per command on both sides). The witnesses:
 * the variant applied on those releases' lib/, refused on 4.9.0's. And -Drmqpatch.disable=P5 restores stock.
 */
class JsonHeaderReleasesTest {

    private static final String COMMAND = "org.apache.rocketmq.remoting.protocol.RemotingCommand";
    private static final int FRAMES = 6_000;

    @TempDir
    Path tmp;

    private File codecJar;

    /** The codec jar, written once per test (TestJars jars the classes folder of a reactor build). */
    private File codecJar() throws Exception {
        if (codecJar == null) {
            codecJar = TestJars.codecJar(Files.createDirectories(tmp.resolve("codec")));
        }
        return codecJar;
    }

    static Stream<Arguments> releases() {
        return Stream.of(Arguments.of("4.9.4", Release.V4_9_4), Arguments.of("4.9.7", Release.V4_9_7),
            Arguments.of("4.9.8", Release.V4_9_8));
    }

    private static Patch p5() {
        return Patches.all().stream().filter(p -> p.id().equals("P5")).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theVariantDecodesWhatStockDecodes(String version, Release release) throws Exception {
        Path patched = patchedRemoting(version, release);
        // The stock-written headers come from a loader of their own: each command made draws a request id.
        try (URLClassLoader stock = loader(version, remotingJar(version), false);
             URLClassLoader ours = loader(version, patched, true);
             URLClassLoader writer = loader(version, remotingJar(version), false)) {
            Decoder s = new Decoder(stock);
            Decoder w = new Decoder(writer);
            Decoder p = new Decoder(ours);
            Method parse = ours.loadClass("dev.rmqpatch.codec.json.JsonHeaderReader").getMethod("parse", byte[].class);
            Random r = new Random(version.hashCode() * 131L + 7);
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            int read = 0;
            int javaRead = 0;
            int javaFrames = 0;
            int failed = 0;
            int styledRead = 0;
            for (int i = 0; i < FRAMES; i++) {
                int kind = i % 3;
                byte[] header = kind == 0 ? w.stockJson(r) : Headers.styled(r);
                if (kind == 2) {
                    header = Headers.mutate(header, r);
                }
                boolean overclaims = r.nextInt(200) == 0;
                byte[] frame = frame(header, r, overclaims);
                String where = version + " frame " + i + ": " + new String(header, StandardCharsets.UTF_8);
                String expected = s.decode(frame);
                assertEquals(expected, p.decode(frame), where);
                if (expected.startsWith("threw")) {
                    failed++;
                }
                boolean byHand = parse.invoke(null, (Object) header) != null;
                if (byHand) {
                    read++;
                    assertTrue(overclaims || !expected.startsWith("threw"), where + ": the reader took what stock refuses");
                }
                if (kind == 1 && byHand) {
                    styledRead++;
                }
                if (kind == 0) {
                    javaFrames++;
                    if (byHand) {
                        javaRead++;
                    }
                }
            }
            assertEquals(s.nextRequestId(), p.nextRequestId(), "one request id per command on both sides");
            System.out.printf("P5 variant on %s: %d frames, %d read by hand (%d of %d stock-written, %d other-style), %d failing in stock;"
                    + " %d ms CPU%n", version, FRAMES, read, javaRead, javaFrames, styledRead, failed,
                (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1_000_000);
            // Headers as Java clients write them are read by hand (those naming @type or $ref in ext fields are not).
            assertTrue(javaRead > javaFrames * 0.97, javaRead + " of " + javaFrames + " stock-written headers read by hand");
            // Other styles: a good part (the generator gives most headers a value or key the reader leaves to fastjson).
            assertTrue(styledRead > FRAMES / 3 / 4, styledRead + " of " + FRAMES / 3 + " other-style headers read by hand");
            assertTrue(failed > FRAMES / 20, failed + " of " + FRAMES + " failed in stock: garbage compared too");
        }
    }

    /** -Drmqpatch.disable=P5: the patched jar decodes with fastjson again (the reader's shared "true" is not handed out). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void switchedOffItIsStock(String version, Release release) throws Exception {
        Path patched = patchedRemoting(version, release);
        byte[] frame = frame("{\"code\":310,\"extFields\":{\"k\":\"true\"},\"opaque\":5}".getBytes(StandardCharsets.UTF_8),
            new Random(1), false);
        try (URLClassLoader on = loader(version, patched, true); URLClassLoader off = loader(version, patched, true);
             URLClassLoader stock = loader(version, remotingJar(version), false)) {
            switches(on, null);
            switches(off, "P5");
            Decoder d = new Decoder(on);
            Decoder o = new Decoder(off);
            Decoder s = new Decoder(stock);
            assertEquals(s.decode(frame), d.decode(frame));
            assertEquals(s.decode(frame), o.decode(frame));
            assertSame("true", d.extField(frame, "k"), "P5 on: the reader's shared constant");
            assertNotSame("true", o.extField(frame, "k"), "P5 off: fastjson's own string");
            assertNotSame("true", s.extField(frame, "k"));
        }
    }

    /**
     * The declarations and witnesses: applied as the variant on each release's common, remoting and logging (a lib/
     * that small is told and planned as a whole one is, in a fraction of the time), P5 as written refused there.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theVariantIsAppliedThere(String version, Release release) throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("lib-" + version));
        for (String a : new String[] {"common", "remoting", "logging"}) {
            Files.copy(artifact("org.apache.rocketmq", "rocketmq-" + a, version), lib.resolve("rocketmq-" + a + "-" + version + ".jar"));
        }
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(lib.toFile()), List.of(p5()), StartupReport.edits());
        assertEquals(release, s.release());
        ReleaseSelection.Row row = s.rows().get(0);
        assertEquals(ReleaseSelection.Outcome.APPLIED, row.outcome, version + ": " + row.witnessKind + ": " + row.reason);
        Patch applied = s.applied().get(0);
        assertTrue(applied instanceof ReleaseVariant, applied.toString());
        assertEquals(described(p5().on(release).variantEdits()), described(applied.edits()));
        assertEquals(ReleasePlan.DESCRIPTOR_CHANGED, row.asWritten.kind, "as written: " + row.asWritten.reason);
        assertTrue(ReleaseReport.text(s).lines().anyMatch(l -> l.startsWith("P5 ") && l.contains("as variant")),
            ReleaseReport.text(s));
    }

    /** On 4.9.0's lib/ the variant (declared there by a stand-in) is refused: its target method does not exist. */
    @Test
    void theVariantIsRefusedOn490() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "needs 4.9.0's jars");
        Patch real = p5();
        ReleaseFit variant = real.on(Release.V4_9_7);
        assertEquals(ReleaseFit.Kind.VARIANT, variant.kind());
        assertEquals(ReleaseFit.Kind.APPLIES, real.on(Release.V4_9_0).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, real.on(Release.V4_9_3).kind());
        Patch standIn = (Patch) java.lang.reflect.Proxy.newProxyInstance(Patch.class.getClassLoader(),
            new Class<?>[] {Patch.class}, (proxy, m, args) -> m.getName().equals("on") ? variant : m.invoke(real, args));
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile()),
            List.of(standIn), StartupReport.edits());
        assertEquals(Release.V4_9_0, s.release());
        assertTrue(s.applied().isEmpty(), s.applied().toString());
        ReleaseSelection.Row row = s.rows().get(0);
        assertEquals(ReleaseSelection.Outcome.REFUSED, row.outcome);
        assertTrue(row.reason.contains("headerDecode"), row.witnessKind + ": " + row.reason);
    }

    private static List<String> described(List<MethodEdit> edits) {
        return edits.stream().map(MethodEdit::describe).collect(Collectors.toList());
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static Path remotingJar(String version) {
        return artifact("org.apache.rocketmq", "rocketmq-remoting", version);
    }

    /** The release's remoting jar with P5's variant for it (alone, behind its switch), as the patcher writes it. */
    private Path patchedRemoting(String version, Release release) throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("stock-" + version));
        Files.copy(remotingJar(version), lib.resolve("rocketmq-remoting-" + version + ".jar"));
        Path out = tmp.resolve("patched-" + version);
        Map<String, List<String>> applied = JarPatcher.patch(lib.toFile(), codecJar(), Collections.singletonList(
            ReleaseVariant.of(p5(), release)), Collections.<MethodEdit>emptyList(), out.toFile());
        assertEquals(Map.of("rocketmq-remoting-" + version + ".jar", List.of("P5 json-header-decode")), applied);
        return out.resolve("rocketmq-remoting-" + version + ".jar");
    }

    /** remoting (stock or patched), the release's logging, fastjson and Netty; the codec for the patched one. */
    private URLClassLoader loader(String version, Path remoting, boolean codec) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(remoting.toUri().toURL());
        urls.add(artifact("org.apache.rocketmq", "rocketmq-logging", version).toUri().toURL());
        urls.add(artifact("com.alibaba", "fastjson", "1.2.69_noneautotype").toUri().toURL());
        urls.add(artifact("io.netty", "netty-all", "4.1.65.Final").toUri().toURL());
        if (codec) {
            urls.add(codecJar().toURI().toURL());
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /**
     * A frame as NettyDecoder hands it to decode: header length (JSON: type byte 0), header, body; or, overclaiming,
     * a header length beyond the frame (refused by 4.9.4+'s decode before the header is read).
     */
    private static byte[] frame(byte[] header, Random r, boolean overclaims) {
        byte[] body = new byte[r.nextInt(4) == 0 ? 0 : r.nextInt(16)];
        r.nextBytes(body);
        ByteBuffer b = ByteBuffer.allocate(4 + header.length + body.length);
        int claimed = overclaims ? header.length + body.length + 1 + r.nextInt(5) : header.length;
        b.putInt(claimed & 0xFFFFFF);
        b.put(header).put(body);
        return b.array();
    }

    /** Stock's decode of frames in one loader, described by every getter; an exception by its class and message. */
    private static final class Decoder {
        private final Class<?> command;
        private final Method decode;
        private final Method[] getters;
        private final Method newRequestId;
        private final ClassLoader loader;

        Decoder(ClassLoader loader) throws Exception {
            this.loader = loader;
            command = loader.loadClass(COMMAND);
            decode = command.getMethod("decode", ByteBuffer.class);
            newRequestId = command.getMethod("createNewRequestId");
            List<Method> list = new ArrayList<>();
            for (String g : new String[] {"getCode", "getLanguage", "getVersion", "getOpaque", "getFlag", "getRemark",
                "getSerializeTypeCurrentRPC", "getType", "isResponseType", "isOnewayRPC", "readCustomHeader"}) {
                list.add(command.getMethod(g));
            }
            getters = list.toArray(new Method[0]);
        }

        int nextRequestId() throws Exception {
            return (Integer) newRequestId.invoke(null);
        }

        String decode(byte[] frame) throws Exception {
            Object cmd;
            try {
                cmd = decode.invoke(null, ByteBuffer.wrap(frame));
            } catch (InvocationTargetException e) {
                StringBuilder sb = new StringBuilder("threw");
                for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                    sb.append(' ').append(t.getClass().getName()).append(": ").append(t.getMessage());
                }
                return sb.toString();
            }
            StringBuilder sb = new StringBuilder(cmd.getClass().getName());
            for (Method m : getters) {
                sb.append(' ').append(m.getName()).append('=').append(m.invoke(cmd));
            }
            Object ext = command.getMethod("getExtFields").invoke(cmd);
            sb.append(" ext=").append(ext == null ? "null" : ext.getClass().getName() + entries((Map<?, ?>) ext));
            sb.append(" body=").append(Arrays.toString((byte[]) command.getMethod("getBody").invoke(cmd)));
            return sb.toString();
        }

        Object extField(byte[] frame, String key) throws Exception {
            Object cmd = decode.invoke(null, ByteBuffer.wrap(frame));
            return ((Map<?, ?>) command.getMethod("getExtFields").invoke(cmd)).get(key);
        }

        private static String entries(Map<?, ?> map) {
            StringBuilder sb = new StringBuilder("{");
            for (Map.Entry<?, ?> e : map.entrySet()) {
                sb.append(quote(e.getKey())).append('=').append(quote(e.getValue())).append(", ");
            }
            return sb.append('}').toString();
        }

        private static String quote(Object o) {
            return o == null ? "null" : "<" + o.getClass().getSimpleName() + ":" + o + ">";
        }

        /** A command as RocketMQ's Java code builds one, written by the release's own fastjson (the JSON header). */
        byte[] stockJson(Random r) throws Exception {
            Class<?> header = loader.loadClass("org.apache.rocketmq.remoting.CommandCustomHeader");
            Object cmd = r.nextBoolean()
                ? command.getMethod("createRequestCommand", int.class, header).invoke(null, Headers.anyInt(r), null)
                : command.getMethod("createResponseCommand", int.class, String.class).invoke(null, Headers.anyInt(r),
                    r.nextInt(3) == 0 ? null : Headers.text(r));
            if (r.nextInt(4) == 0) {
                command.getMethod("setRemark", String.class).invoke(cmd, Headers.text(r));
            }
            if (r.nextInt(3) == 0) {
                command.getMethod("setFlag", int.class).invoke(cmd, Headers.anyInt(r));
            }
            if (r.nextInt(3) == 0) {
                command.getMethod("setVersion", int.class).invoke(cmd, Headers.anyInt(r));
            }
            if (r.nextInt(5) == 0) {
                command.getMethod("setOpaque", int.class).invoke(cmd, Headers.anyInt(r));
            }
            Object[] languages = loader.loadClass("org.apache.rocketmq.remoting.protocol.LanguageCode").getEnumConstants();
            command.getMethod("setLanguage", languages.getClass().getComponentType()).invoke(cmd,
                languages[r.nextInt(languages.length)]);
            if (r.nextInt(10) != 0) {
                HashMap<String, String> ext = new HashMap<>();
                int n = r.nextInt(15);
                for (int k = 0; k < n; k++) {
                    ext.put(r.nextInt(3) == 0 ? Headers.text(r) : String.valueOf((char) ('a' + r.nextInt(14))),
                        r.nextInt(20) == 0 ? null : Headers.text(r));
                }
                command.getMethod("setExtFields", HashMap.class).invoke(cmd, ext);
            }
            return (byte[]) loader.loadClass("org.apache.rocketmq.remoting.protocol.RemotingSerializable")
                .getMethod("encode", Object.class).invoke(null, cmd);
        }
    }

    /** JSON headers as text, in any style, and byte mutations of them. */
    private static final class Headers {
        private static final String[] FIELDS = {"code", "language", "version", "opaque", "flag", "remark", "extFields",
            "serializeTypeCurrentRPC"};
        private static final String[] LANGUAGES = {"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY", "OTHER",
            "HTTP", "GO", "PHP", "OMS", "RUST"};
        private static final String[] ODD_LANGUAGES = {"java", "Java", "NODE", "", "JAVA "};
        private static final String[] SERIALIZE = {"JSON", "ROCKETMQ"};
        private static final String[] ODD_SERIALIZE = {"json", "XML", "", "Json"};
        private static final String[] UNKNOWN = {"foo", "x_y", "bar-baz", "zz9", "CODE", "Opaque", "is_flag", "isFlag",
            "ext_fields", "body", "customHeader", "type", "responseType", "onewayRPC", "@type", "$ref",
            "serialize_type_current_rpc", "REMARK", "versi0n", "codes", "é", "a b", ""};
        private static final String[] EXT_KEYS = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
            "TRACE_ON", "MSG_REGION", "UNIQ_KEY", "", "ключ", "键", "a-b_c", "0"};
        private static final String[] ODD_EXT_KEYS = {"@type", "$ref", "\\u0040type", "\\u0024ref"};
        private static final String[] PIECES = {"TopicTest", "broker-a", " ", "true", "false", "0", "4", "\\\"", "\\\\",
            "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0001", "\\u0002", "\\u00e9", "\\u00E9", "\\u4e3b", "\\uD83D\\uDE00",
            "\\uD83D", "\\uDE00x", "é", "主题", "\uD83D\uDE00", "KEYS\\u0001k1 k2\\u0002TAGS\\u0001t\\u0002", "'", "\\u0000",
            "\\uFFFF", "\u00ff\u0100", "a".repeat(40)};
        private static final String[] ODD_PIECES = {"\\x41", "\\u12", "\u0001", "\t", "\\", "\\U0041", "\\'"};

        static int anyInt(Random r) {
            switch (r.nextInt(6)) {
                case 0: return Integer.MIN_VALUE;
                case 1: return Integer.MAX_VALUE;
                case 2: return -r.nextInt(1000);
                case 3: return r.nextInt(400);
                default: return r.nextInt();
            }
        }

        /** A Java string (for the stock-written headers): ASCII, escapes' chars, unicode, surrogates. */
        static String text(Random r) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(12);
            for (int i = 0; i < n; i++) {
                switch (r.nextInt(6)) {
                    case 0: sb.append((char) r.nextInt(0x20)); break;
                    case 1: sb.append((char) (0x80 + r.nextInt(0xD800 - 0x80))); break;
                    case 2: sb.append("\uD83D\uDE00"); break;
                    case 3: sb.append("\"\\/"); break;
                    default: sb.append((char) (0x20 + r.nextInt(0x5F))); break;
                }
            }
            return sb.toString();
        }

        /** A JSON string token as source text: pieces of plain text, escapes (some invalid), raw unicode and controls. */
        static String stringToken(Random r) {
            StringBuilder sb = new StringBuilder("\"");
            int n = r.nextInt(6);
            for (int i = 0; i < n; i++) {
                sb.append(r.nextInt(60) == 0 ? ODD_PIECES[r.nextInt(ODD_PIECES.length)] : PIECES[r.nextInt(PIECES.length)]);
            }
            return sb.append('"').toString();
        }

        static String intToken(Random r) {
            switch (r.nextInt(150)) {
                case 0: return "\"" + r.nextInt(100) + "\"";
                case 1: return "1.5";
                case 2: return "1e3";
                case 3: return "2147483648";
                case 4: return "-2147483649";
                case 5: return "9223372036854775808";
                case 6: return "null";
                case 7: return "true";
                case 8: return "012";
                case 9: return "-0";
                case 10: return "-";
                case 11: return "0x1F";
                default: return String.valueOf(anyInt(r));
            }
        }

        static String value(String field, Random r) {
            switch (field) {
                case "language":
                    return r.nextInt(60) == 0 ? intToken(r) : "\"" + (r.nextInt(20) == 0
                        ? ODD_LANGUAGES[r.nextInt(ODD_LANGUAGES.length)] : LANGUAGES[r.nextInt(LANGUAGES.length)]) + "\"";
                case "serializeTypeCurrentRPC":
                    return r.nextInt(60) == 0 ? intToken(r) : "\"" + (r.nextInt(20) == 0
                        ? ODD_SERIALIZE[r.nextInt(ODD_SERIALIZE.length)] : SERIALIZE[r.nextInt(SERIALIZE.length)]) + "\"";
                case "remark":
                    return r.nextInt(15) == 0 ? "null" : r.nextInt(40) == 0 ? intToken(r) : stringToken(r);
                case "extFields":
                    return r.nextInt(20) == 0 ? "null" : r.nextInt(60) == 0 ? "[]" : extFields(r);
                default:
                    return intToken(r);
            }
        }

        static String extFields(Random r) {
            List<String> members = new ArrayList<>();
            int n = r.nextInt(10);
            for (int i = 0; i < n; i++) {
                String key = r.nextInt(5) == 0 ? stringToken(r) : "\"" + (r.nextInt(80) == 0
                    ? ODD_EXT_KEYS[r.nextInt(ODD_EXT_KEYS.length)] : EXT_KEYS[r.nextInt(EXT_KEYS.length)]) + "\"";
                String v;
                switch (r.nextInt(120)) {
                    case 0: v = "null"; break;
                    case 1: v = String.valueOf(anyInt(r)); break;
                    case 2: v = "true"; break;
                    case 3: v = "{}"; break;
                    default: v = r.nextBoolean() ? "\"" + r.nextInt(10) + "\"" : stringToken(r); break;
                }
                members.add(key + ws(r) + ":" + ws(r) + v);
            }
            return "{" + ws(r) + String.join(ws(r) + "," + ws(r), members) + ws(r) + "}";
        }

        static String ws(Random r) {
            if (r.nextInt(3) != 0) {
                return "";
            }
            String[] w = {" ", "\n", "\t", "\r\n", "  "};
            return w[r.nextInt(w.length)];
        }

        /** Any subset of the fields (opaque nearly always), unknown keys, sometimes a field twice, in any order. */
        static byte[] styled(Random r) {
            List<String> members = new ArrayList<>();
            for (String f : FIELDS) {
                if (r.nextInt(f.equals("opaque") ? 15 : 3) != 0) {
                    members.add("\"" + f + "\"" + ws(r) + ":" + ws(r) + value(f, r));
                }
            }
            if (r.nextInt(6) == 0) {
                String u = UNKNOWN[r.nextInt(UNKNOWN.length)];
                String[] vals = {"1", "\"x\"", "true", "false", "null", "{}", "[1]", "-7", "1.25"};
                members.add("\"" + u + "\":" + vals[r.nextInt(vals.length)]);
            }
            if (r.nextInt(25) == 0 && !members.isEmpty()) {
                members.add(members.get(r.nextInt(members.size())));
            }
            Collections.shuffle(members, r);
            String sep = r.nextInt(40) == 0 ? ",," : ",";
            String json = ws(r) + "{" + ws(r) + String.join(ws(r) + sep + ws(r), members) + ws(r)
                + (r.nextInt(40) == 0 ? ",}" : "}") + ws(r);
            return json.getBytes(StandardCharsets.UTF_8);
        }

        /** Truncated, a byte changed, inserted or removed (invalid UTF-8 among them), or trailing garbage. */
        static byte[] mutate(byte[] b, Random r) {
            if (b.length == 0) {
                return b;
            }
            int at = r.nextInt(b.length);
            switch (r.nextInt(6)) {
                case 0:
                    return Arrays.copyOf(b, at);
                case 1: {
                    byte[] c = b.clone();
                    c[at] = (byte) r.nextInt(256);
                    return c;
                }
                case 2: {
                    byte[] c = b.clone();
                    byte[] pick = {'"', '\\', ',', ':', '{', '}', (byte) 0xC3, (byte) 0xFF, (byte) 0x80, ' ', '0', 'u'};
                    c[at] = pick[r.nextInt(pick.length)];
                    return c;
                }
                case 3: {
                    byte[] c = new byte[b.length + 1];
                    System.arraycopy(b, 0, c, 0, at);
                    c[at] = (byte) r.nextInt(256);
                    System.arraycopy(b, at, c, at + 1, b.length - at);
                    return c;
                }
                case 4: {
                    byte[] c = new byte[b.length - 1];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(b, at + 1, c, at, b.length - at - 1);
                    return c;
                }
                default: {
                    byte[] c = Arrays.copyOf(b, b.length + 2);
                    c[b.length] = 'x';
                    c[b.length + 1] = '}';
                    return c;
                }
            }
        }
    }
}
