package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.Socket;
import java.net.SocketException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.namesrv.RegisterBrokerRequestHeader;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * S6 over real sockets (servers on JDK 8 where it can be had, always in CI) and in process. A compressed
 * REGISTER_BROKER body claiming a 2 GB part, and a QUERY_MESSAGE asking for 500,000,000 offsets: stock's name server
 * and broker run out of heap, patched answers as for a well-formed request. Each length field of the ROCKETMQ binary header format (remark, ext fields,
 * key, value) and the frame's header-length word, claimed far beyond the frame: on the stock broker the remark,
 * ext-fields and value claims throw OutOfMemoryError (the control); on the patched broker each such connection is
 * closed, no OutOfMemoryError happens, and a producer on another connection gets SEND_OK throughout. In process,
 * with the distributions' own lib/ class loaders, the patched decode of each frame allocates less than the frame
 * claims (a few KB for the exception, and less than stock's decode less half the claim), where stock allocates at
 * least the claimed size.
 */
class FrameBoundsIT {

    private static final int HUGE = 2_000_000_000;
    private static final String TOPIC = "FrameBoundsIT";
    private static final String NO_HEAP_DUMP = "-XX:-HeapDumpOnOutOfMemoryError";

    /** The attack frames as NettyDecoder hands them to RemotingCommand.decode: without the total-length word. */
    static Map<String, byte[]> frames(int claim, short keyClaim) {
        Map<String, byte[]> frames = new LinkedHashMap<>();
        frames.put("remark", rocketmqFrame(ByteBuffer.allocate(21).putInt(13, claim).array()));
        frames.put("ext fields", rocketmqFrame(ByteBuffer.allocate(21 + 4).putInt(17, claim).array()));
        frames.put("ext-field key", rocketmqFrame(ByteBuffer.allocate(21 + 2 + 4).putInt(17, 6).putShort(21, keyClaim).array()));
        frames.put("ext-field value", rocketmqFrame(ByteBuffer.allocate(21 + 2 + 1 + 4 + 4).putInt(17, 11)
            .putShort(21, (short) 1).put(23, (byte) 'k').putInt(24, claim).array()));
        // A JSON-type frame of 8 bytes whose header-length word claims 16 MB - 1.
        frames.put("frame header length", ByteBuffer.allocate(8).putInt(0, 0xFFFFFF).array());
        return frames;
    }

    /**
     * A REGISTER_BROKER request with {@code compressed=true} (as 4.9.0 brokers send it) whose deflated body claims a
     * data-version part of {@code claim} bytes and holds four: the name server reads it before anything else.
     */
    static RemotingCommand compressedRegisterBroker(int claim) throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        try (java.util.zip.DeflaterOutputStream d = new java.util.zip.DeflaterOutputStream(body)) {
            d.write(ByteBuffer.allocate(8).putInt(claim).putInt(0).array());
        }
        return registerBroker("frame-bounds", true, body.toByteArray());
    }

    /** A REGISTER_BROKER request as a 4.9.0 broker sends it (no body checksum), for a broker that does not exist. */
    static RemotingCommand registerBroker(String name, boolean compressed, byte[] body) {
        RegisterBrokerRequestHeader h = new RegisterBrokerRequestHeader();
        h.setBrokerName(name);
        h.setBrokerAddr("127.0.0.1:1");
        h.setClusterName(name);
        h.setHaServerAddr("127.0.0.1:2");
        h.setBrokerId(0L);
        h.setCompressed(compressed);
        h.setBodyCrc32(0);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, h);
        request.setVersion(MQVersion.CURRENT_VERSION);
        request.setBody(body);
        return request;
    }

    /** Sends the compressed-body attack to the name server; returns its answer. */
    private static RemotingCommand attackNamesrv(TestCluster c) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            RemotingCommand answer = client.invokeSync(c.namesrvAddr(), compressedRegisterBroker(HUGE), 30_000);
            System.out.println("FrameBoundsIT: " + c.dist.getFileName() + " name server answered the 2 GB compressed part: "
                + answer.getCode() + " " + answer.getRemark());
            return answer;
        } finally {
            client.shutdown();
        }
    }

    /** QUERY_MESSAGE asking for 500,000,000 offsets: stock's index allocates a list of that capacity first. */
    private static RemotingCommand queryHugeMaxNum(TestCluster c) throws Exception {
        org.apache.rocketmq.common.protocol.header.QueryMessageRequestHeader h =
            new org.apache.rocketmq.common.protocol.header.QueryMessageRequestHeader();
        h.setTopic(TOPIC);
        h.setKey("no-such-key");
        h.setMaxNum(500_000_000);
        h.setBeginTimestamp(0L);
        h.setEndTimestamp(Long.MAX_VALUE);
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            RemotingCommand answer = client.invokeSync(c.brokerAddr(),
                RemotingCommand.createRequestCommand(RequestCode.QUERY_MESSAGE, h), 30_000);
            System.out.println("FrameBoundsIT: " + c.dist.getFileName() + " broker answered QUERY_MESSAGE maxNum 500,000,000: "
                + answer.getCode() + " " + answer.getRemark());
            return answer;
        } finally {
            client.shutdown();
        }
    }

    /**
     * Every frame attack closes its connection; the compressed-body and QUERY_MESSAGE attacks are answered with an error
     * that is not an OutOfMemoryError.
     */
    private static void attacksCloseOrFailWithoutOutOfMemory(TestCluster c) throws Exception {
        for (Map.Entry<String, byte[]> f : frames(HUGE, Short.MAX_VALUE).entrySet()) {
            sendAndAwaitClose(c, f.getValue(), f.getKey());
        }
        RemotingCommand answer = attackNamesrv(c);
        assertNotEquals(ResponseCode.SUCCESS, answer.getCode());
        assertFalse(String.valueOf(answer.getRemark()).contains("OutOfMemoryError"), answer.getRemark());
        RemotingCommand query = queryHugeMaxNum(c);
        assertFalse(String.valueOf(query.getRemark()).contains("OutOfMemoryError"), query.getRemark());
    }

    private static byte[] rocketmqFrame(byte[] header) {
        return ByteBuffer.allocate(4 + header.length).putInt((1 << 24) | header.length).put(header).array();
    }

    @Test
    void stockThrowsOutOfMemoryError() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("stock"), "broker.conf").preferJdk8().javaOpt(NO_HEAP_DUMP).start()) {
            for (Map.Entry<String, byte[]> f : frames(HUGE, Short.MAX_VALUE).entrySet()) {
                sendAndAwaitClose(c, f.getValue(), f.getKey());
            }
            assertTrue(await(() -> mentions(c.brokerLog().getParent(), "OutOfMemoryError"), 20_000),
                "control: stock 4.9.0's broker allocates what the header claims and runs out of heap");
            RemotingCommand answer = attackNamesrv(c);
            assertNotEquals(ResponseCode.SUCCESS, answer.getCode());
            assertTrue(String.valueOf(answer.getRemark()).contains("OutOfMemoryError"),
                "control: stock's name server allocates the claimed part: " + answer);
            RemotingCommand query = queryHugeMaxNum(c);
            assertTrue(String.valueOf(query.getRemark()).contains("OutOfMemoryError"),
                "control: stock's index allocates a list of the asked-for size: " + query);
        }
    }

    @Test
    void patchedClosesTheConnectionAndKeepsServing() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker.conf").preferJdk8().javaOpt(NO_HEAP_DUMP).start()) {
            DefaultMQProducer producer = new DefaultMQProducer("frame-bounds-it");
            producer.setNamesrvAddr(c.namesrvAddr());
            producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
            producer.start();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger ok = new AtomicInteger();
            List<String> failures = new ArrayList<>();
            Thread sender = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        SendResult r = producer.send(new Message(TOPIC, "x".getBytes(StandardCharsets.UTF_8)));
                        if (r.getSendStatus() == org.apache.rocketmq.client.producer.SendStatus.SEND_OK) {
                            ok.incrementAndGet();
                        } else {
                            failures.add(r.getSendStatus().toString());
                        }
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            }, "frame-bounds-producer");
            try {
                producer.send(new Message(TOPIC, "first".getBytes(StandardCharsets.UTF_8)));
                sender.start();
                for (int round = 0; round < 3; round++) {
                    attacksCloseOrFailWithoutOutOfMemory(c);
                }
                int before = ok.get();
                assertTrue(await(() -> ok.get() > before + 10, 20_000), "sends go on after the attacks");
            } finally {
                stop.set(true);
                sender.join(30_000);
                producer.shutdown();
            }
            assertEquals(List.of(), failures, "every send during the attacks was SEND_OK");
            assertFalse(mentions(c.dir, "OutOfMemoryError"), "no OutOfMemoryError on the patched broker");
            assertTrue(mentions(c.dir, "rmqpatch S6: ROCKETMQ-format header's remark (2000000000 bytes)"),
                "the refusal is logged with the field");
        }
    }

    static List<String> laterReleases() {
        return ReleaseInstalls.releases().stream().filter(r -> !r.equals("4.9.0")).collect(Collectors.toList());
    }

    /**
     * A later release (4.9.4, 4.9.7, 4.9.8), whose frame decode has upstream's bounds: the compressed REGISTER_BROKER
     * body and the QUERY_MESSAGE count still make stock's name server and broker run out of heap (the control);
     * patch-lib's copy (S6's variant: those two edits) answers both without, and the frame attacks close their
     * connections there without an OutOfMemoryError (the release's own bounds, which the variant leaves alone).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("laterReleases")
    void onALaterReleaseTheBodyAndQueryAttacksFailOnStockAndAreRefusedByPatchLib(String release, @TempDir Path tmp)
        throws Exception {
        try (TestCluster c = new TestCluster(ReleaseInstalls.stock(release), "broker.conf").preferJdk8().javaOpt(NO_HEAP_DUMP)
            .start()) {
            RemotingCommand answer = attackNamesrv(c);
            assertTrue(String.valueOf(answer.getRemark()).contains("OutOfMemoryError"),
                "control: stock " + release + "'s name server allocates the claimed part: " + answer);
            RemotingCommand query = queryHugeMaxNum(c);
            assertTrue(String.valueOf(query.getRemark()).contains("OutOfMemoryError"),
                "control: stock " + release + "'s index allocates a list of the asked-for size: " + query);
        }
        try (TestCluster c = new TestCluster(ReleaseInstalls.patched(release, tmp), "broker.conf").preferJdk8()
            .javaOpt(NO_HEAP_DUMP).start()) {
            attacksCloseOrFailWithoutOutOfMemory(c);
            DropInIT.roundTrip(c, release + " patched by patch-lib, after the attacks", 10);
            assertFalse(mentions(c.dir, "OutOfMemoryError"), "no OutOfMemoryError on the patched " + release);
        }
    }

    @Test
    void patchedAllocatesLessThanTheFrameClaims() throws Exception {
        try (URLClassLoader stock = loader("stock"); URLClassLoader patched = loader("patched")) {
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            int claim = 50_000_000;
            for (Map.Entry<String, byte[]> f : frames(claim, Short.MAX_VALUE).entrySet()) {
                long claimed = f.getKey().equals("ext-field key") ? Short.MAX_VALUE
                    : f.getKey().equals("frame header length") ? 0xFFFFFF : claim;
                long stockBytes = allocatedByDecode(stock, f.getValue(), threads);
                long patchedBytes = allocatedByDecode(patched, f.getValue(), threads);
                System.out.printf("FrameBoundsIT: %-20s claims %,d bytes: stock decode allocated %,d, patched %,d%n",
                    f.getKey(), claimed, stockBytes, patchedBytes);
                assertTrue(stockBytes >= claimed, "control: stock allocates the " + claimed + " bytes the " + f.getKey()
                    + " claims (" + stockBytes + ")");
                assertTrue(patchedBytes < 64 * 1024 && patchedBytes < stockBytes - claimed / 2,
                    "patched allocates no more than its refusal for the " + f.getKey() + ": " + patchedBytes + " bytes");
            }
        }
    }

    /** Bytes this thread allocated while {@code RemotingCommand.decode(ByteBuffer)} of the loader failed on the frame. */
    private static long allocatedByDecode(ClassLoader cl, byte[] frame, com.sun.management.ThreadMXBean threads)
        throws Exception {
        Method decode = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl)
            .getMethod("decode", ByteBuffer.class);
        for (int warm = 0; warm < 20; warm++) {
            invokeExpectingFailure(decode, ByteBuffer.wrap(frame));
        }
        // The least of five decodes: one-off allocations (a class loaded, a JIT transition) are not the decode's.
        long least = Long.MAX_VALUE;
        long id = Thread.currentThread().getId();
        for (int n = 0; n < 5; n++) {
            long before = threads.getThreadAllocatedBytes(id);
            invokeExpectingFailure(decode, ByteBuffer.wrap(frame));
            least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
        }
        return least;
    }

    private static void invokeExpectingFailure(Method decode, ByteBuffer frame) {
        InvocationTargetException e = assertThrows(InvocationTargetException.class, () -> decode.invoke(null, frame));
        assertFalse(e.getCause() instanceof OutOfMemoryError, "the test JVM's heap holds every claim: " + e.getCause());
    }

    private static URLClassLoader loader(String variant) throws IOException {
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(TestCluster.dist(variant).resolve("lib"))) {
            for (Path p : (Iterable<Path>) jars.sorted()::iterator) {
                urls.add(p.toUri().toURL());
            }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /** Writes one frame (with its total-length word) on a connection of its own and waits until the server closes it. */
    private static void sendAndAwaitClose(TestCluster c, byte[] frame, String what) throws IOException {
        String[] hostPort = c.brokerAddr().split(":");
        try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(ByteBuffer.allocate(4 + frame.length).putInt(frame.length).put(frame).array());
            socket.getOutputStream().flush();
            int read;
            try {
                read = socket.getInputStream().read();
            } catch (SocketException reset) {
                read = -1;
            }
            assertEquals(-1, read, what + ": the broker closes the connection, as for any undecodable frame");
        }
    }

    /** Whether any log or process-output file under {@code dir} (stores excluded) contains {@code text}. */
    static boolean mentions(Path dir, String text) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                if (f.toString().contains("store") || Files.size(f) > 64L << 20) {
                    continue;
                }
                if (new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(text)) {
                    return true;
                }
            }
        }
        return false;
    }

    interface Check {
        boolean holds() throws Exception;
    }

    static boolean await(Check check, long millis) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        while (!check.holds()) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(200);
        }
        return true;
    }
}
