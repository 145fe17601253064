package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static dev.rmqpatch.patches.LibLoaders.SWITCHES;
import static dev.rmqpatch.patches.build.ReleaseArtifacts.artifact;
import static dev.rmqpatch.patches.LibLoaders.switches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.jar.JarFile;
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
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * P6 (json-header-encode) as its 4.9.4+ variant against the stock code of 4.9.4, 4.9.7 and 4.9.8, in one JVM: the
 * release's remoting jar patched with the variant alone ({@code JarPatcher}), a class loader over it, the release's
 * logging, fastjson 1.2.69_noneautotype, Netty 4.1.65 and the codec, and one over the stock jars. Random commands,
 * built the same way in both (requests and responses, oneway, every field, extreme ints, every language, remark null,
 * empty or any text: controls, U+007F-U+009F, U+2028/9, unicode, surrogate pairs and lone surrogates, quotes and
 * backslashes; ext fields null, empty, with null values, non-ASCII keys, a LinkedHashMap or a non-String value
 * through raw types (the writer declines those: fastjson writes them on both sides); now and then a ROCKETMQ
 * command, whose branch the variant leaves alone), each encoded by {@code fastEncodeHeader(ByteBuf)} (NettyEncoder's
 * way), {@code encodeHeader()} and {@code encode()} (through {@code headerEncode()}): the same bytes. Also with
 * {@code -Drmqpatch.disable=P6}. The witnesses: the variant applied on those releases' lib/, refused on 4.9.0's.
 */
class JsonHeaderEncodeReleasesTest {

    private static final String COMMAND = "org.apache.rocketmq.remoting.protocol.RemotingCommand";
    private static final String WRITER = "dev.rmqpatch.codec.json.JsonHeaderWriter";
    private static final int COMMANDS = 6_000;

    @TempDir
    Path tmp;

    private File codecJar;

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

    private static Patch p6() {
        return Patches.all().stream().filter(p -> p.id().equals("P6")).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theVariantEncodesWhatStockEncodes(String version, Release release) throws Exception {
        Path patched = patchedRemoting(version, release);
        try (Loader stock = loader(version, remotingJar(version), false);
             Loader ours = loader(version, patched, true)) {
            switches(ours, null);
            Encoder s = new Encoder(stock);
            Encoder p = new Encoder(ours);
            Method write = ours.loadClass(WRITER).getMethod("write", Object.class);
            Random r = new Random(version.hashCode() * 31L + 5);
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            int byHand = 0;
            int json = 0;
            for (int i = 0; i < COMMANDS; i++) {
                Spec spec = Spec.random(r);
                Object sc = s.build(spec);
                Object pc = p.build(spec);
                String where = version + " command " + i + ": " + spec;
                assertArrayEquals(s.fast(sc), p.fast(pc), where + " (fastEncodeHeader)");
                assertArrayEquals(s.encodeHeader(sc), p.encodeHeader(pc), where + " (encodeHeader)");
                assertArrayEquals(s.encode(sc), p.encode(pc), where + " (encode)");
                if (spec.json) {
                    json++;
                    if (write.invoke(null, pc) != null) {
                        byHand++;
                    }
                }
            }
            assertEquals(s.nextRequestId(), p.nextRequestId(), "one request id per command on both sides");
            System.out.printf("P6 variant on %s: %d commands, %d JSON, %d of them written by hand; %d ms CPU%n", version,
                COMMANDS, json, byHand,
                (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1_000_000);
            assertTrue(json > COMMANDS * 0.9, json + " JSON commands");
            // All but the ones the writer declines (a LinkedHashMap or a non-String value, about 1 in 25) by hand.
            assertTrue(byHand > json * 0.9, byHand + " of " + json + " written by hand");
            assertTrue(ours.loaded(WRITER), "the patched encode reached the writer");
        }
    }

    /** Both call sites go through P6's bridge; fastjson's encode is not called from either any more. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void bothCallsGoThroughTheBridge(String version, Release release) throws Exception {
        ClassNode cn = new ClassNode();
        try (JarFile jar = new JarFile(patchedRemoting(version, release).toFile());
             InputStream in = jar.getInputStream(jar.getEntry(COMMAND.replace('.', '/') + ".class"))) {
            new ClassReader(in).accept(cn, 0);
        }
        List<String> bridges = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            if (m.name.startsWith("rmqpatch$")) {
                bridges.add(m.name + m.desc);
            }
        }
        assertEquals(1, bridges.size(), bridges.toString());
        for (String method : new String[] {"headerEncode", "fastEncodeHeader"}) {
            MethodNode m = cn.methods.stream().filter(x -> x.name.equals(method)).findFirst().orElseThrow();
            List<String> calls = new ArrayList<>();
            for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                if (insn.getOpcode() == Opcodes.INVOKESTATIC) {
                    MethodInsnNode mi = (MethodInsnNode) insn;
                    calls.add(mi.owner.substring(mi.owner.lastIndexOf('/') + 1) + "." + mi.name + mi.desc);
                }
            }
            assertFalse(calls.contains("RemotingSerializable.encode(Ljava/lang/Object;)[B"), method + ": " + calls);
            assertEquals(1, calls.stream().filter(c -> c.equals("RemotingCommand." + bridges.get(0))).count(),
                method + ": " + calls);
        }
    }

    /** -Drmqpatch.disable=P6: the patched jar encodes with fastjson again (the writer is never loaded). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void switchedOffItIsStock(String version, Release release) throws Exception {
        Path patched = patchedRemoting(version, release);
        try (Loader off = loader(version, patched, true); Loader stock = loader(version, remotingJar(version), false)) {
            switches(off, "P6");
            Encoder o = new Encoder(off);
            Encoder s = new Encoder(stock);
            Random r = new Random(version.hashCode());
            for (int i = 0; i < 500; i++) {
                Spec spec = Spec.random(r);
                Object sc = s.build(spec);
                Object oc = o.build(spec);
                assertArrayEquals(s.fast(sc), o.fast(oc), version + " off, command " + i + ": " + spec);
                assertArrayEquals(s.encodeHeader(sc), o.encodeHeader(oc), version + " off, command " + i + ": " + spec);
            }
            assertFalse(off.loaded(WRITER), "P6 off: the writer is not reached");
        }
    }

    /**
     * The declarations and witnesses: applied as the variant on each release's common, remoting and logging; P6 as
     * written fits there too (headerEncode alone), which is why it was declared rather than refused.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theVariantIsAppliedThere(String version, Release release) throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("lib-" + version));
        for (String a : new String[] {"common", "remoting", "logging"}) {
            Files.copy(artifact("org.apache.rocketmq", "rocketmq-" + a, version), lib.resolve("rocketmq-" + a + "-" + version + ".jar"));
        }
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(lib.toFile()), List.of(p6()), StartupReport.edits());
        assertEquals(release, s.release());
        ReleaseSelection.Row row = s.rows().get(0);
        assertEquals(ReleaseSelection.Outcome.APPLIED, row.outcome, version + ": " + row.witnessKind + ": " + row.reason);
        Patch applied = s.applied().get(0);
        assertTrue(applied instanceof ReleaseVariant, applied.toString());
        assertEquals(described(p6().on(release).variantEdits()), described(applied.edits()));
        assertEquals(2, applied.edits().size());
        assertTrue(ReleaseReport.text(s).lines().anyMatch(l -> l.startsWith("P6 ") && l.contains("as variant")),
            ReleaseReport.text(s));
    }

    /**
     * On 4.9.0 P6 is the patch as written (one edit, headerEncode: 4.9.0's patched jars unchanged); the variant,
     * declared there by a stand-in, is refused: 4.9.0 has no fastEncodeHeader.
     */
    @Test
    void theVariantIsRefusedOn490() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "needs 4.9.0's jars");
        Patch real = p6();
        ReleaseFit variant = real.on(Release.V4_9_7);
        assertEquals(ReleaseFit.Kind.VARIANT, variant.kind());
        assertEquals(ReleaseFit.Kind.APPLIES, real.on(Release.V4_9_0).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, real.on(Release.V4_9_3).kind());
        assertEquals(List.of("1 call(s) of org.apache.rocketmq.remoting.protocol.RemotingSerializable.encode"
                + "(Ljava/lang/Object;)[B in org.apache.rocketmq.remoting.protocol.RemotingCommand.headerEncode()[B call "
                + "dev.rmqpatch.codec.hook.RemotingCommandHooks.encodeJsonHeader(Ljava/lang/Object;)[B"),
            described(real.edits()));
        Patch standIn = (Patch) java.lang.reflect.Proxy.newProxyInstance(Patch.class.getClassLoader(),
            new Class<?>[] {Patch.class}, (proxy, m, args) -> m.getName().equals("on") ? variant : m.invoke(real, args));
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile()),
            List.of(standIn), StartupReport.edits());
        assertEquals(Release.V4_9_0, s.release());
        assertTrue(s.applied().isEmpty(), s.applied().toString());
        ReleaseSelection.Row row = s.rows().get(0);
        assertEquals(ReleaseSelection.Outcome.REFUSED, row.outcome);
        assertTrue(row.reason.contains("fastEncodeHeader"), row.witnessKind + ": " + row.reason);
    }

    private static List<String> described(List<MethodEdit> edits) {
        return edits.stream().map(MethodEdit::describe).collect(Collectors.toList());
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static Path remotingJar(String version) {
        return artifact("org.apache.rocketmq", "rocketmq-remoting", version);
    }

    /** The release's remoting jar with P6's variant for it (alone, behind its switch), as the patcher writes it. */
    private Path patchedRemoting(String version, Release release) throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("stock-" + version));
        Path out = tmp.resolve("patched-" + version);
        Path jar = out.resolve("rocketmq-remoting-" + version + ".jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        Files.copy(remotingJar(version), lib.resolve("rocketmq-remoting-" + version + ".jar"));
        Map<String, List<String>> applied = JarPatcher.patch(lib.toFile(), codecJar(), Collections.singletonList(
            ReleaseVariant.of(p6(), release)), Collections.<MethodEdit>emptyList(), out.toFile());
        assertEquals(Map.of("rocketmq-remoting-" + version + ".jar", List.of("P6 json-header-encode")), applied);
        return jar;
    }

    /** A class loader that can say whether it has loaded a class. */
    private static final class Loader extends URLClassLoader {
        Loader(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            synchronized (getClassLoadingLock(name)) {
                return findLoadedClass(name) != null;
            }
        }
    }

    /** remoting (stock or patched), the release's logging, fastjson and Netty; the codec for the patched one. */
    private Loader loader(String version, Path remoting, boolean codec) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(remoting.toUri().toURL());
        urls.add(artifact("org.apache.rocketmq", "rocketmq-logging", version).toUri().toURL());
        urls.add(artifact("com.alibaba", "fastjson", "1.2.69_noneautotype").toUri().toURL());
        urls.add(artifact("io.netty", "netty-all", "4.1.65.Final").toUri().toURL());
        if (codec) {
            urls.add(codecJar().toURI().toURL());
        }
        return new Loader(urls.toArray(new URL[0]));
    }

    /** A command to build the same way in each loader. */
    private static final class Spec {
        boolean request;
        boolean oneway;
        int code;
        String responseRemark;
        String remark;
        boolean setRemark;
        Integer flag;
        Integer version;
        Integer opaque;
        int language;
        boolean json;
        /** null: no ext fields set; else its entries (a value may be null, or an Integer when raw). */
        Map<String, Object> ext;
        boolean linked;

        static Spec random(Random r) {
            Spec s = new Spec();
            s.request = r.nextBoolean();
            s.oneway = s.request && r.nextInt(8) == 0;
            s.code = anyInt(r);
            s.responseRemark = r.nextInt(3) == 0 ? null : text(r);
            s.setRemark = r.nextInt(4) == 0;
            s.remark = r.nextInt(4) == 0 ? null : r.nextInt(6) == 0 ? "" : text(r);
            s.flag = r.nextInt(3) == 0 ? anyInt(r) : null;
            s.version = r.nextInt(3) == 0 ? anyInt(r) : null;
            s.opaque = r.nextInt(2) == 0 ? anyInt(r) : null;
            s.language = r.nextInt(64);
            s.json = r.nextInt(20) != 0;
            if (r.nextInt(10) != 0) {
                s.ext = new LinkedHashMap<>();
                int n = r.nextInt(6) == 0 ? 0 : r.nextInt(15);
                for (int k = 0; k < n; k++) {
                    String key = r.nextInt(3) == 0 ? text(r) : String.valueOf((char) ('a' + r.nextInt(14)));
                    Object v = r.nextInt(20) == 0 ? null : s.json && r.nextInt(400) == 0 ? (Object) anyInt(r) : text(r);
                    s.ext.put(key, v);
                }
                s.linked = r.nextInt(40) == 0;
            }
            return s;
        }

        @Override
        public String toString() {
            return (request ? "request" : "response") + (oneway ? " oneway" : "") + " code=" + code + " remark="
                + (setRemark ? remark : responseRemark) + " flag=" + flag + " version=" + version + " opaque=" + opaque
                + " language#" + language + (json ? " JSON" : " ROCKETMQ") + " ext=" + ext + (linked ? " (linked)" : "");
        }

        static int anyInt(Random r) {
            switch (r.nextInt(8)) {
                case 0: return Integer.MIN_VALUE;
                case 1: return Integer.MAX_VALUE;
                case 2: return -r.nextInt(1000);
                case 3: return r.nextInt(400);
                case 4: return 0;
                default: return r.nextInt();
            }
        }

        /** Any Java string: ASCII, controls, U+007F-U+009F, U+2028/9, unicode, surrogate pairs and lone ones. */
        static String text(Random r) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(40) == 0 ? 200 + r.nextInt(600) : r.nextInt(14);
            for (int i = 0; i < n; i++) {
                switch (r.nextInt(10)) {
                    case 0: sb.append((char) r.nextInt(0x20)); break;
                    case 1: sb.append((char) (0x7F + r.nextInt(0x21))); break;
                    case 2: sb.append((char) (0xA0 + r.nextInt(0xD800 - 0xA0))); break;
                    case 3: sb.append("\uD83D\uDE00"); break;
                    case 4: sb.append(r.nextBoolean() ? (char) (0xD800 + r.nextInt(0x800)) : (char) (0xE000 + r.nextInt(0x2000))); break;
                    case 5: sb.append(r.nextBoolean() ? "\"\\/" : r.nextBoolean() ? "\u2028\u2029" : "\u0001\u0002"); break;
                    default: sb.append((char) (0x20 + r.nextInt(0x5F))); break;
                }
            }
            return sb.toString();
        }
    }

    /** Builds commands and encodes them by reflection in one loader. */
    private static final class Encoder {
        private final Class<?> command;
        private final Method createRequest;
        private final Method createResponse;
        private final Method newRequestId;
        private final Object[] languages;
        private final Object[] serializeTypes;
        private final Map<String, Method> setters = new HashMap<>();
        private final Method buffer;
        private final Method bytesOf;
        private final Method release;
        private final Method writeByte;
        private final Method fast;
        private final Method encodeHeader;
        private final Method encode;

        Encoder(ClassLoader loader) throws Exception {
            command = loader.loadClass(COMMAND);
            createRequest = command.getMethod("createRequestCommand", int.class,
                loader.loadClass("org.apache.rocketmq.remoting.CommandCustomHeader"));
            createResponse = command.getMethod("createResponseCommand", int.class, String.class);
            newRequestId = command.getMethod("createNewRequestId");
            Class<?> language = loader.loadClass("org.apache.rocketmq.remoting.protocol.LanguageCode");
            Class<?> serializeType = loader.loadClass("org.apache.rocketmq.remoting.protocol.SerializeType");
            languages = language.getEnumConstants();
            serializeTypes = serializeType.getEnumConstants();
            setters.put("remark", command.getMethod("setRemark", String.class));
            setters.put("flag", command.getMethod("setFlag", int.class));
            setters.put("version", command.getMethod("setVersion", int.class));
            setters.put("opaque", command.getMethod("setOpaque", int.class));
            setters.put("language", command.getMethod("setLanguage", language));
            setters.put("serialize", command.getMethod("setSerializeTypeCurrentRPC", serializeType));
            setters.put("ext", command.getMethod("setExtFields", HashMap.class));
            setters.put("oneway", command.getMethod("markOnewayRPC"));
            Class<?> byteBuf = loader.loadClass("io.netty.buffer.ByteBuf");
            buffer = loader.loadClass("io.netty.buffer.Unpooled").getMethod("buffer", int.class);
            bytesOf = loader.loadClass("io.netty.buffer.ByteBufUtil").getMethod("getBytes", byteBuf);
            release = byteBuf.getMethod("release");
            writeByte = byteBuf.getMethod("writeByte", int.class);
            fast = command.getMethod("fastEncodeHeader", byteBuf);
            encodeHeader = command.getMethod("encodeHeader");
            encode = command.getMethod("encode");
        }

        int nextRequestId() throws Exception {
            return (Integer) newRequestId.invoke(null);
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        Object build(Spec s) throws Exception {
            Object cmd = s.request ? createRequest.invoke(null, s.code, null) : createResponse.invoke(null, s.code, s.responseRemark);
            if (s.oneway) {
                setters.get("oneway").invoke(cmd);
            }
            if (s.setRemark) {
                setters.get("remark").invoke(cmd, s.remark);
            }
            if (s.flag != null) {
                setters.get("flag").invoke(cmd, s.flag);
            }
            if (s.version != null) {
                setters.get("version").invoke(cmd, s.version);
            }
            if (s.opaque != null) {
                setters.get("opaque").invoke(cmd, s.opaque);
            }
            setters.get("language").invoke(cmd, s.language < languages.length ? languages[s.language] : languages[0]);
            setters.get("serialize").invoke(cmd, serializeTypes[s.json ? 0 : 1]);
            if (s.ext != null) {
                HashMap ext = s.linked ? new LinkedHashMap() : new HashMap();
                ext.putAll(s.ext);
                setters.get("ext").invoke(cmd, ext);
            }
            return cmd;
        }

        byte[] fast(Object cmd) throws Exception {
            Object buf = buffer.invoke(null, 256);
            try {
                // A writer index past 0, as NettyEncoder's out may have: the length words are set relative to it.
                writeByte.invoke(buf, 0x5A);
                fast.invoke(cmd, buf);
                return (byte[]) bytesOf.invoke(null, buf);
            } finally {
                release.invoke(buf);
            }
        }

        byte[] encodeHeader(Object cmd) throws Exception {
            return bytes((ByteBuffer) encodeHeader.invoke(cmd));
        }

        byte[] encode(Object cmd) throws Exception {
            return bytes((ByteBuffer) encode.invoke(cmd));
        }

        private static byte[] bytes(ByteBuffer b) {
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        }
    }
}
