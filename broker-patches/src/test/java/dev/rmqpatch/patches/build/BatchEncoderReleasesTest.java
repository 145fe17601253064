package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import org.junit.jupiter.api.Test;

/**
 * P36 on 4.9.3 and 4.9.4: already upstream. Their store's batch encoder ({@code CommitLog$MessageExtEncoder.encode(
 * MessageExtBatch, PutMessageContext)}) appends one separator between a message's properties and the batch's when the
 * message's do not end with one ({@code needAppendLastPropertySeparator}), as 4.9.7's does. Here, in class loaders over
 * each release's store, common and logging jars (and 4.9.4's Netty), the stock encoder of 4.9.3, 4.9.4 and 4.9.7 encodes
 * the same batches, made by a 4.9.7 client's, a 4.9.0 client's and the release's own {@code MessageDecoder.encodeMessages}
 * (4.9.1+ write no trailing separator, 4.9.0 one): the release's decode reads every user property of every message back
 * with the batch's, and 4.9.3's and 4.9.4's bytes are 4.9.7's.
 */
class BatchEncoderReleasesTest {

    private static final String COMMON = "org.apache.rocketmq.common.message.";

    @Test
    void declaredUpstreamOn493And494() {
        for (Release r : new Release[] {Release.V4_9_3, Release.V4_9_4, Release.V4_9_7, Release.V4_9_8}) {
            ReleaseFit fit = Patches.all().stream().filter(p -> p.id().equals("P36")).findFirst().orElseThrow().on(r);
            assertEquals(ReleaseFit.Kind.UPSTREAM, fit.kind(), r.version());
        }
    }

    @Test
    void the493And494EncodersKeepEveryPropertyAsThe497One() throws Exception {
        try (URLClassLoader c497 = loader("4.9.7", ReleaseLibs.release497());
             URLClassLoader s493 = loader("4.9.3", ReleaseLibs.release493());
             URLClassLoader s494 = loader("4.9.4", ReleaseLibs.release494());
             URLClassLoader c490 = loader490()) {
            Random random = new Random(36);
            int messages = 0;
            int lost490 = 0;
            for (int round = 0; round < 60; round++) {
                List<Map<String, String>> props = new ArrayList<>();
                List<byte[]> bodies = new ArrayList<>();
                int n = 1 + random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    Map<String, String> p = new LinkedHashMap<>();
                    int k = random.nextInt(5);
                    for (int j = 0; j < k; j++) {
                        p.put("user" + j + "-" + random.nextInt(1000), "v" + random.nextInt(1_000_000) + (random.nextInt(4) == 0 ? "é主" : ""));
                    }
                    if (random.nextBoolean()) {
                        p.put("TAGS", "tag" + random.nextInt(5));
                    }
                    if (random.nextBoolean()) {
                        p.put("KEYS", "key" + random.nextInt(100));
                    }
                    props.add(p);
                    byte[] body = new byte[random.nextInt(200)];
                    random.nextBytes(body);
                    bodies.add(body);
                }
                Map<String, String> batchProps = new HashMap<>();
                if (random.nextInt(8) != 0) { // the broker's CLUSTER, and what a request header may add
                    batchProps.put("CLUSTER", "DefaultCluster");
                    if (random.nextBoolean()) {
                        batchProps.put("WAIT", "true");
                    }
                }
                for (URLClassLoader client : new URLClassLoader[] {c497, c490, s493, s494}) {
                    List<Map<String, String>> sent = new ArrayList<>();
                    byte[] batchBody = encodeMessages(client, props, bodies, sent);
                    byte[] stored497 = storeEncode(c497, batchBody, batchProps);
                    if (client == c497 && !batchProps.isEmpty()) {
                        // The control: 4.9.0's encoder (MessageExtBatchEncoder) loses each message's last property.
                        List<Map<String, String>> read490 = decodes(c490, storeEncode490(c490, batchBody, batchProps));
                        for (int i = 0; i < n; i++) {
                            Map<String, String> expected = new HashMap<>(sent.get(i));
                            expected.putAll(batchProps);
                            // The last own property and the batch's first run together: not what was sent.
                            assertTrue(read490.get(i).size() < expected.size(), "4.9.0 round " + round + " " + read490);
                            lost490++;
                        }
                    }
                    for (URLClassLoader store : new URLClassLoader[] {s493, s494, c497}) {
                        byte[] stored = store == c497 ? stored497 : storeEncode(store, batchBody, batchProps);
                        String what = "round " + round + " client " + client.getName() + " store " + store.getName();
                        assertArrayEquals(stored497, stored, what);
                        List<Map<String, String>> read = decodes(store, stored);
                        assertEquals(n, read.size(), what);
                        for (int i = 0; i < n; i++) {
                            // The message's own (the user's, and WAIT=true from Message's constructor), then the batch's.
                            Map<String, String> expected = new HashMap<>(sent.get(i));
                            expected.putAll(batchProps);
                            assertEquals(expected, read.get(i), what + " message " + i);
                            messages++;
                        }
                    }
                }
            }
            assertTrue(messages > 60 * 4 * 3, String.valueOf(messages));
            assertTrue(lost490 > 60, String.valueOf(lost490));
        }
    }

    /** The client's {@code MessageDecoder.encodeMessages} of the messages (topic "T"), as its producer's batch. */
    private static byte[] encodeMessages(ClassLoader l, List<Map<String, String>> props, List<byte[]> bodies,
                                         List<Map<String, String>> sent) throws Exception {
        Class<?> message = l.loadClass(COMMON + "Message");
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < props.size(); i++) {
            Object m = message.getConstructor(String.class, byte[].class).newInstance("T", bodies.get(i));
            Method put = message.getDeclaredMethod("putProperty", String.class, String.class);
            put.setAccessible(true);
            for (Map.Entry<String, String> e : props.get(i).entrySet()) {
                put.invoke(m, e.getKey(), e.getValue());
            }
            list.add(m);
            @SuppressWarnings("unchecked")
            Map<String, String> own = (Map<String, String>) message.getMethod("getProperties").invoke(m);
            sent.add(new HashMap<>(own));
        }
        return (byte[]) l.loadClass(COMMON + "MessageDecoder").getMethod("encodeMessages", List.class).invoke(null, list);
    }

    /** The store's stock batch encoder on a MessageExtBatch as the broker makes it (its body, its properties). */
    private static byte[] storeEncode(ClassLoader l, byte[] batchBody, Map<String, String> batchProps) throws Exception {
        Class<?> batchClass = l.loadClass(COMMON + "MessageExtBatch");
        Object batch = batch(l, batchBody, batchProps);
        Class<?> encoderClass = l.loadClass("org.apache.rocketmq.store.CommitLog$MessageExtEncoder");
        Constructor<?> ctor = encoderClass.getDeclaredConstructor(int.class);
        ctor.setAccessible(true);
        Object encoder = ctor.newInstance(256 * 1024);
        Class<?> contextClass = l.loadClass("org.apache.rocketmq.store.CommitLog$PutMessageContext");
        Constructor<?> cc = contextClass.getDeclaredConstructor(String.class);
        cc.setAccessible(true);
        Method encode = encoderClass.getDeclaredMethod("encode", batchClass, contextClass);
        encode.setAccessible(true);
        ByteBuffer out = (ByteBuffer) encode.invoke(encoder, batch, cc.newInstance("TopicTest-3"));
        byte[] bytes = new byte[out.remaining()];
        out.duplicate().get(bytes);
        return bytes;
    }

    /** A MessageExtBatch as the broker makes it: the request's body, the batch's properties. */
    private static Object batch(ClassLoader l, byte[] batchBody, Map<String, String> batchProps) throws Exception {
        Class<?> batchClass = l.loadClass(COMMON + "MessageExtBatch");
        Object batch = batchClass.getConstructor().newInstance();
        batchClass.getMethod("setTopic", String.class).invoke(batch, "TopicTest");
        batchClass.getMethod("setBody", byte[].class).invoke(batch, batchBody);
        batchClass.getMethod("setQueueId", int.class).invoke(batch, 3);
        batchClass.getMethod("setSysFlag", int.class).invoke(batch, 0);
        batchClass.getMethod("setBornTimestamp", long.class).invoke(batch, 1_700_000_000_000L);
        batchClass.getMethod("setStoreTimestamp", long.class).invoke(batch, 1_700_000_000_123L);
        batchClass.getMethod("setBornHost", SocketAddress.class).invoke(batch,
            new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 50000));
        batchClass.getMethod("setStoreHost", SocketAddress.class).invoke(batch,
            new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 2}), 10911));
        l.loadClass(COMMON + "MessageAccessor").getMethod("setProperties", l.loadClass(COMMON + "Message"), Map.class)
            .invoke(null, batch, new HashMap<>(batchProps));
        return batch;
    }

    /** 4.9.0's stock batch encoder, {@code CommitLog$MessageExtBatchEncoder.encode(MessageExtBatch)}. */
    private static byte[] storeEncode490(ClassLoader l, byte[] batchBody, Map<String, String> batchProps)
        throws Exception {
        Class<?> batchClass = l.loadClass(COMMON + "MessageExtBatch");
        Object batch = batch(l, batchBody, batchProps);
        Class<?> encoderClass = l.loadClass("org.apache.rocketmq.store.CommitLog$MessageExtBatchEncoder");
        Constructor<?> ctor = encoderClass.getDeclaredConstructor(int.class);
        ctor.setAccessible(true);
        ByteBuffer out = (ByteBuffer) encoderClass.getMethod("encode", batchClass)
            .invoke(ctor.newInstance(256 * 1024), batch);
        byte[] bytes = new byte[out.remaining()];
        out.duplicate().get(bytes);
        return bytes;
    }

    /** The release's own decode of the stored records: each message's properties. */
    private static List<Map<String, String>> decodes(ClassLoader l, byte[] stored) throws Exception {
        List<?> msgs = (List<?>) l.loadClass(COMMON + "MessageDecoder").getMethod("decodes", ByteBuffer.class)
            .invoke(null, ByteBuffer.wrap(stored));
        List<Map<String, String>> out = new ArrayList<>();
        for (Object m : msgs) {
            @SuppressWarnings("unchecked")
            Map<String, String> p = (Map<String, String>) m.getClass().getMethod("getProperties").invoke(m);
            out.add(p);
        }
        return out;
    }

    private static Path repo() {
        return Path.of(System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
    }

    /** The release's store, common and logging, its Netty (4.9.4+'s encoder writes to a ByteBuf), commons-lang3. */
    private static URLClassLoader loader(String version, Path jars) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String a : new String[] {"store", "common", "logging"}) {
            urls.add(jars.resolve("rocketmq-" + a + "-" + version + ".jar").toUri().toURL());
        }
        Path netty = repo().resolve("io/netty/netty-all/4.1.65.Final/netty-all-4.1.65.Final.jar");
        assumeTrue(Files.isRegularFile(netty), "no " + netty);
        urls.add(netty.toUri().toURL());
        urls.add(codeSource("org.apache.commons.lang3.StringUtils"));
        return new URLClassLoader(version, urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /** 4.9.0's common (the test class path's): a 4.9.0 client's batch, each message's properties ending with char 2. */
    private static URLClassLoader loader490() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "needs 4.9.0's jars");
        return new URLClassLoader("4.9.0", new URL[] {codeSource(COMMON + "MessageDecoder"),
            codeSource("org.apache.rocketmq.store.CommitLog"),
            codeSource("org.apache.rocketmq.logging.InternalLogger"), codeSource("org.apache.commons.lang3.StringUtils")},
            ClassLoader.getPlatformClassLoader());
    }

    private static URL codeSource(String className) throws ClassNotFoundException {
        return Class.forName(className, false, BatchEncoderReleasesTest.class.getClassLoader())
            .getProtectionDomain().getCodeSource().getLocation();
    }
}
