package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * P4 and P11 against the stock code of the release they are applied on, in one JVM: a class loader over that release's
 * jars and the codec, stock {@code RemotingCommand.makeCustomHeaderToNet()} on one command and the patch's hook on a
 * second command with the same header, for randomised headers (every field null or set; empty, ASCII, unicode,
 * JSON-special strings; negative and extreme numbers; 4.9.7's {@code bname} and V2's {@code n} set or not). Compared:
 * the ext-field entries in insertion order (a LinkedHashMap as the ext fields: stock's order of puts, which decides the
 * order of colliding keys), the entries in iteration order of stock's own fresh HashMap, and the bytes of both
 * serializations (fastjson's JSON header, {@code RocketMQSerializable.rocketMQProtocolEncode}).
 * 4.9.7 and 4.9.8: the variants' hooks ({@code RpcHeaderHooks}); 4.9.0: the hooks as written
 * ({@code RemotingCommandHooks}).
 */
class RpcHeaderEncodeDifferentialTest {

    private static final String HEADER = "org.apache.rocketmq.common.protocol.header.";
    private static final String HOOKS = "dev.rmqpatch.codec.hook.RemotingCommandHooks";
    private static final String RPC_HOOKS = "dev.rmqpatch.codec.hook.RpcHeaderHooks";
    private static final String[] SEND = {"SendMessageRequestHeaderV2", "SendMessageResponseHeader", "SendMessageRequestHeader"};
    private static final String[] PULL = {"PullMessageRequestHeader", "PullMessageResponseHeader"};
    private static final int ROUNDS = 400;

    /** Each release the encode hooks are applied on: its stock headers, and the hooks it gets. */
    static Stream<Arguments> releases() {
        return Stream.of(
            Arguments.of("4.9.0, the hooks as written", 490),
            Arguments.of("4.9.7, the variants", 497),
            Arguments.of("4.9.8, the variants (common, remoting, logging from the local repository)", 498));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void theHooksWriteWhatStockWrites(String name, int release) throws Exception {
        try (URLClassLoader loader = loader(release)) {
            Class<?> v2 = loader.loadClass(HEADER + "SendMessageRequestHeaderV2");
            boolean variants = release != 490;
            // 4.9.7+: the RPC headers (bname) the variants are for; 4.9.0: neither bname nor that superclass.
            assertEquals(variants, "org.apache.rocketmq.common.rpc.RpcRequestHeader".equals(v2.getSuperclass().getName()));
            assertEquals(variants, hasField(v2, "bname"));
            String hooks = variants ? RPC_HOOKS : HOOKS;
            int compared = 0;
            for (String h : SEND) {
                compared += compare(loader, hooks, h, variants ? "makeRpcHeaderToNet" : "makeCustomHeaderToNet", release);
            }
            for (String h : PULL) {
                compared += compare(loader, hooks, h, variants ? "makeRpcPullHeaderToNet" : "makePullHeaderToNet", release);
            }
            assertEquals(5 * ROUNDS * 2, compared);
        }
    }

    /** The hooks of one group leave the other group's headers (and the variants' those of the other) to stock. */
    @Test
    void eachVariantHookTakesOnlyItsGroup() throws Exception {
        try (URLClassLoader loader = release497()) {
            Method send = loader.loadClass(RPC_HOOKS).getMethod("makeRpcHeaderToNet", command(loader));
            Method pull = loader.loadClass(RPC_HOOKS).getMethod("makeRpcPullHeaderToNet", command(loader));
            for (String h : SEND) {
                assertEquals(false, pull.invoke(null, newCommand(loader, header(loader, h, new Random(1), false))), h);
                assertEquals(true, send.invoke(null, newCommand(loader, header(loader, h, new Random(1), false))), h);
            }
            for (String h : PULL) {
                assertEquals(false, send.invoke(null, newCommand(loader, header(loader, h, new Random(1), false))), h);
                assertEquals(true, pull.invoke(null, newCommand(loader, header(loader, h, new Random(1), false))), h);
            }
            Object other = loader.loadClass(HEADER + "QueryMessageRequestHeader").getConstructor().newInstance();
            assertEquals(false, send.invoke(null, newCommand(loader, other)));
            assertEquals(false, pull.invoke(null, newCommand(loader, other)));
        }
    }

    /**
     * Why the variants must stay off 4.9.0 (ReleasePlan's CodecLinks witness refuses them there: ReleasePlanTest): on
     * 4.9.0's headers the send encoder's getter does not exist. The pull response, which has no new field, still works.
     */
    @Test
    void on490TheSendVariantWouldNotLink() throws Exception {
        try (URLClassLoader loader = release490()) {
            Method send = loader.loadClass(RPC_HOOKS).getMethod("makeRpcHeaderToNet", command(loader));
            Object v2 = header(loader, "SendMessageRequestHeaderV2", new Random(2), true);
            java.lang.reflect.InvocationTargetException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.lang.reflect.InvocationTargetException.class, () -> send.invoke(null, newCommand(loader, v2)));
            assertTrue(e.getCause() instanceof NoSuchMethodError, String.valueOf(e.getCause()));
        }
    }

    /** ROUNDS headers, each twice: into a LinkedHashMap (put order) and into stock's fresh HashMap. */
    private static int compare(ClassLoader loader, String hooks, String simpleName, String hook, long seed)
        throws Exception {
        Method hookMethod = loader.loadClass(hooks).getMethod(hook, command(loader));
        Method makeToNet = command(loader).getMethod("makeCustomHeaderToNet");
        Random random = new Random(seed * 31 + simpleName.hashCode());
        int compared = 0;
        for (int round = 0; round < ROUNDS; round++) {
            boolean allSet = round % 10 == 0;
            Object header = header(loader, simpleName, random, allSet);
            for (boolean linked : new boolean[] {true, false}) {
                Object stock = newCommand(loader, header);
                Object patched = newCommand(loader, header);
                command(loader).getMethod("setOpaque", int.class).invoke(patched,
                    command(loader).getMethod("getOpaque").invoke(stock));
                if (linked) {
                    command(loader).getMethod("setExtFields", HashMap.class).invoke(stock, new LinkedHashMap<String, String>());
                    command(loader).getMethod("setExtFields", HashMap.class).invoke(patched, new LinkedHashMap<String, String>());
                }
                if (random.nextInt(3) == 0) { // what a broker adds to a send response before it is encoded
                    for (Object c : new Object[] {stock, patched}) {
                        command(loader).getMethod("addExtField", String.class, String.class).invoke(c, "MSG_REGION", "DefaultRegion");
                        command(loader).getMethod("addExtField", String.class, String.class).invoke(c, "TRACE_ON", "true");
                    }
                }
                makeToNet.invoke(stock);
                assertEquals(true, hookMethod.invoke(null, patched), simpleName + " not taken by " + hook);
                String what = simpleName + " round " + round + (linked ? " (put order)" : "") + " " + header;
                assertEquals(entries(loader, stock), entries(loader, patched), what);
                assertArrayEquals(json(loader, stock), json(loader, patched), what);
                assertArrayEquals(rocketmq(loader, stock), rocketmq(loader, patched), what);
                compared++;
            }
        }
        return compared;
    }

    @SuppressWarnings("unchecked")
    private static List<String> entries(ClassLoader loader, Object cmd) throws Exception {
        Map<String, String> ext = (Map<String, String>) command(loader).getMethod("getExtFields").invoke(cmd);
        List<String> list = new ArrayList<>();
        for (Map.Entry<String, String> e : ext.entrySet()) {
            list.add(e.getKey() + "=" + e.getValue());
        }
        return list;
    }

    private static byte[] json(ClassLoader loader, Object cmd) throws Exception {
        return (byte[]) loader.loadClass("org.apache.rocketmq.remoting.protocol.RemotingSerializable")
            .getMethod("encode", Object.class).invoke(null, cmd);
    }

    private static byte[] rocketmq(ClassLoader loader, Object cmd) throws Exception {
        return (byte[]) loader.loadClass("org.apache.rocketmq.remoting.protocol.RocketMQSerializable")
            .getMethod("rocketMQProtocolEncode", command(loader)).invoke(null, cmd);
    }

    private static Class<?> command(ClassLoader loader) throws ClassNotFoundException {
        return loader.loadClass("org.apache.rocketmq.remoting.protocol.RemotingCommand");
    }

    private static Object newCommand(ClassLoader loader, Object header) throws Exception {
        Class<?> cch = loader.loadClass("org.apache.rocketmq.remoting.CommandCustomHeader");
        return command(loader).getMethod("createRequestCommand", int.class, cch).invoke(null, 310, header);
    }

    /** A header of the class with every instance field, its superclasses' too, random (or every one set). */
    private static Object header(ClassLoader loader, String simpleName, Random random, boolean allSet) throws Exception {
        Class<?> cls = loader.loadClass(HEADER + simpleName);
        Object h = cls.getConstructor().newInstance();
        for (Class<?> c = cls; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                Class<?> t = f.getType();
                boolean isNull = !allSet && random.nextInt(4) == 0;
                if (t == boolean.class) {
                    f.setBoolean(h, random.nextBoolean());
                } else if (t == String.class) {
                    f.set(h, isNull ? null : text(random));
                } else if (t == Integer.class) {
                    f.set(h, isNull ? null : (Integer) number(random, true).intValue());
                } else if (t == Long.class) {
                    f.set(h, isNull ? null : number(random, false));
                } else {
                    throw new AssertionError("a field type the test does not fill: " + f);
                }
            }
        }
        return h;
    }

    private static Long number(Random random, boolean isInt) {
        switch (random.nextInt(5)) {
            case 0:
                return isInt ? (long) Integer.MIN_VALUE : Long.MIN_VALUE;
            case 1:
                return isInt ? (long) Integer.MAX_VALUE : Long.MAX_VALUE;
            case 2:
                return (long) -random.nextInt(1000);
            default:
                return isInt ? (long) random.nextInt() : random.nextLong();
        }
    }

    private static final String[] TEXTS = {"", "TopicTest", "broker-a", "DefaultCluster%group", "\"quoted\" \\ back/slash",
        "line\nbreak\ttab\u0001\u0002", "ünïcødé 主题 \uD83D\uDE00", "KEYS\u0001k1 k2\u0002TAGS\u0001t\u0002", " "};

    private static String text(Random random) {
        if (random.nextInt(3) == 0) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(20);
            for (int i = 0; i < n; i++) {
                sb.append((char) (random.nextInt(3) == 0 ? random.nextInt(0xD800) : 32 + random.nextInt(95)));
            }
            return sb.toString();
        }
        return TEXTS[random.nextInt(TEXTS.length)];
    }

    private static boolean hasField(Class<?> cls, String name) {
        for (Class<?> c = cls; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static URLClassLoader loader(int release) throws Exception {
        switch (release) {
            case 490: return release490();
            case 497: return release497();
            case 498: return release498();
            default: throw new IllegalArgumentException("no jars for " + release);
        }
    }

    /** 4.9.7's RocketMQ jars (the pom's release-4.9.7 copy), its fastjson and Netty, and the codec. */
    private static URLClassLoader release497() throws Exception {
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(ReleaseLibs.release497())) {
            for (Path p : (Iterable<Path>) jars.sorted()::iterator) {
                urls.add(p.toUri().toURL());
            }
        }
        URLClassLoader loader = withFastjsonNettyAndCodec(urls);
        assertEquals("V4_9_7", versionDesc(loader));
        return loader;
    }

    /** 4.9.8's common, remoting and logging from the local repository (skipped when absent), as 4.9.7's. */
    private static URLClassLoader release498() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String a : new String[] {"common", "remoting", "logging"}) {
            Path jar = repo().resolve("org/apache/rocketmq/rocketmq-" + a + "/4.9.8/rocketmq-" + a + "-4.9.8.jar");
            assumeTrue(Files.isRegularFile(jar), "no " + jar);
            urls.add(jar.toUri().toURL());
        }
        URLClassLoader loader = withFastjsonNettyAndCodec(urls);
        assertEquals("V4_9_8", versionDesc(loader));
        return loader;
    }

    private static Path repo() {
        return Path.of(System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
    }

    /** 4.9.7's and 4.9.8's fastjson and Netty (their distributions' lib/), and the codec, after {@code urls}. */
    private static URLClassLoader withFastjsonNettyAndCodec(List<URL> urls) throws Exception {
        Path fastjson = repo().resolve("com/alibaba/fastjson/1.2.69_noneautotype/fastjson-1.2.69_noneautotype.jar");
        Path netty = repo().resolve("io/netty/netty-all/4.1.65.Final/netty-all-4.1.65.Final.jar");
        assumeTrue(Files.isRegularFile(fastjson) && Files.isRegularFile(netty), "no 4.9.7 fastjson/netty in " + repo());
        urls.add(fastjson.toUri().toURL());
        urls.add(netty.toUri().toURL());
        urls.add(codeSource(HOOKS));
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static String versionDesc(ClassLoader loader) throws Exception {
        Class<?> version = loader.loadClass("org.apache.rocketmq.common.MQVersion");
        return (String) version.getMethod("getVersionDesc", int.class).invoke(null, version.getField("CURRENT_VERSION").get(null));
    }

    /** 4.9.0's jars as on the test class path (the stock jars the codec is compiled against) and the codec. */
    private static URLClassLoader release490() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String cls : new String[] {"org.apache.rocketmq.remoting.protocol.RemotingCommand",
            HEADER + "SendMessageRequestHeaderV2", "org.apache.rocketmq.logging.InternalLogger", "com.alibaba.fastjson.JSON",
            "io.netty.buffer.ByteBuf", HOOKS}) {
            urls.add(codeSource(cls));
        }
        URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        assertEquals("V4_9_0", versionDesc(loader));
        return loader;
    }

    private static URL codeSource(String className) throws ClassNotFoundException {
        return Class.forName(className, false, RpcHeaderEncodeDifferentialTest.class.getClassLoader())
            .getProtectionDomain().getCodeSource().getLocation();
    }
}
