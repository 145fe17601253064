package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * rocketmq-remoting used alone, as upstream's RemotingCommandTest, RemotingServerTest and TlsTest use it: the patched
 * rocketmq-remoting jar plus the codec, with only the jars remoting's stock POM brings (rocketmq-logging, fastjson,
 * netty-all) and no rocketmq-common, in one class loader; stock rocketmq-remoting with the same jars in another. The
 * same commands (requests and responses, with and without a custom header, with and without ext fields, JSON and
 * ROCKETMQ serialize types) encode to the same bytes without a NoClassDefFoundError, and decode (the command and its
 * custom header) to the same values.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemotingAloneIT {

    private static final String[] REMOTING_AND_ITS_STOCK_DEPENDENCIES = {"rocketmq-remoting-", "rocketmq-logging-",
        "fastjson-", "netty-all-"};

    private Loader stock;
    private Loader patched;

    @BeforeAll
    void loaders() throws Exception {
        stock = remotingAlone(TestCluster.dist("stock").resolve("lib"));
        patched = remotingAlone(TestCluster.dist("patched").resolve("lib"));
    }

    @AfterAll
    void close() throws IOException {
        for (URLClassLoader l : new URLClassLoader[] {stock, patched}) {
            if (l != null) {
                l.close();
            }
        }
    }

    /** A loader that says which classes it has loaded. */
    private static final class Loader extends URLClassLoader {
        Loader(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }
    }

    private static Loader remotingAlone(Path lib) throws IOException {
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path p : (Iterable<Path>) jars.sorted()::iterator) {
                String n = p.getFileName().toString();
                boolean wanted = n.startsWith("rmqpatch-codec");
                for (String prefix : REMOTING_AND_ITS_STOCK_DEPENDENCIES) {
                    wanted |= n.startsWith(prefix);
                }
                if (wanted) {
                    urls.add(p.toUri().toURL());
                }
            }
        }
        return new Loader(urls.toArray(new URL[0]));
    }

    @Test
    void noRocketmqCommonInTheLoaders() {
        assertThrows(ClassNotFoundException.class,
            () -> Class.forName("org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader", false, patched));
        assertThrows(ClassNotFoundException.class,
            () -> Class.forName("org.apache.rocketmq.common.protocol.RequestCode", false, patched));
    }

    @Test
    void commandsEncodeAndDecodeAsStockWithoutRocketmqCommon() throws Exception {
        Random r = new Random(20261128);
        for (int round = 0; round < 300; round++) {
            long seed = r.nextLong();
            String stockSide = roundTrip(stock, seed);
            String patchedSide = roundTrip(patched, seed);
            assertEquals(stockSide, patchedSide, "round " + round);
        }
        // The hooks ran (P1, P4, P10, P11 ask about every custom header) but never went past their name check.
        assertTrue(patched.loaded("dev.rmqpatch.codec.hook.HeaderGroups"), "the hooks ran");
        for (String gated : new String[] {"dev.rmqpatch.codec.hook.HeaderGroups$Loaded", "dev.rmqpatch.codec.header.HeaderCodecs",
            "dev.rmqpatch.codec.header.HeaderCodecs$Lookup"}) {
            assertFalse(patched.loaded(gated), gated + " loaded without a rocketmq-common header in hand");
        }
    }

    /** Builds, encodes and decodes one random command in the loader; what it saw, as text (bytes in hex). */
    private static String roundTrip(ClassLoader remoting, long seed) throws Exception {
        Random r = new Random(seed);
        ClassLoader cl = new HeaderLoader(remoting);
        Class<?> cmdClass = Class.forName("org.apache.rocketmq.remoting.protocol.RemotingCommand", true, cl);
        Class<?> headerIface = Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, cl);
        Class<?> serializeType = Class.forName("org.apache.rocketmq.remoting.protocol.SerializeType", true, cl);
        Class<?> headerClass = Class.forName(RemotingOnlyHeader.class.getName(), true, cl);
        Object header = null;
        if (r.nextBoolean()) {
            header = headerClass.getConstructor().newInstance();
            headerClass.getMethod("fill", String.class, Integer.class, Long.class, boolean.class, Double.class).invoke(header,
                r.nextInt(4) == 0 ? null : "n" + r.nextInt(1000), r.nextInt(4) == 0 ? null : r.nextInt(),
                r.nextInt(4) == 0 ? null : r.nextLong(), r.nextBoolean(), r.nextInt(4) == 0 ? null : r.nextDouble());
        }
        Object cmd;
        if (r.nextBoolean()) {
            cmd = cmdClass.getMethod("createRequestCommand", int.class, headerIface).invoke(null, r.nextInt(400), header);
        } else if (header != null) {
            cmd = cmdClass.getMethod("createResponseCommand", Class.class).invoke(null, headerClass);
            cmdClass.getMethod("writeCustomHeader", headerIface).invoke(cmd, header);
        } else {
            cmd = cmdClass.getMethod("createResponseCommand", int.class, String.class).invoke(null, r.nextInt(30),
                r.nextBoolean() ? null : "remark " + r.nextInt());
        }
        cmdClass.getMethod("setOpaque", int.class).invoke(cmd, r.nextInt());
        if (r.nextInt(3) == 0) {
            HashMap<String, String> ext = new HashMap<>();
            for (int i = r.nextInt(4); i > 0; i--) {
                ext.put("k" + r.nextInt(10), "v" + r.nextInt(100));
            }
            cmdClass.getMethod("setExtFields", HashMap.class).invoke(cmd, ext);
        }
        Object type = serializeType.getMethod("valueOf", String.class).invoke(null, r.nextBoolean() ? "JSON" : "ROCKETMQ");
        cmdClass.getMethod("setSerializeTypeCurrentRPC", serializeType).invoke(cmd, type);
        if (r.nextBoolean()) {
            cmdClass.getMethod("setBody", byte[].class).invoke(cmd, ("body" + r.nextInt()).getBytes("UTF-8"));
        }
        StringBuilder seen = new StringBuilder();
        byte[] frame;
        if (r.nextBoolean()) {
            frame = bytes((ByteBuffer) cmdClass.getMethod("encode").invoke(cmd));
        } else {
            byte[] head = bytes((ByteBuffer) cmdClass.getMethod("encodeHeader").invoke(cmd));
            byte[] body = (byte[]) cmdClass.getMethod("getBody").invoke(cmd);
            frame = new byte[head.length + (body == null ? 0 : body.length)];
            System.arraycopy(head, 0, frame, 0, head.length);
            if (body != null) {
                System.arraycopy(body, 0, frame, head.length, body.length);
            }
        }
        seen.append(hex(frame)).append('\n');
        Object decoded = cmdClass.getMethod("decode", ByteBuffer.class).invoke(null, ByteBuffer.wrap(frame, 4, frame.length - 4).slice());
        for (String getter : new String[] {"getCode", "getOpaque", "getFlag", "getRemark", "getExtFields", "getVersion",
            "getLanguage", "getSerializeTypeCurrentRPC"}) {
            seen.append(getter).append('=').append(cmdClass.getMethod(getter).invoke(decoded)).append('\n');
        }
        Method decodeHeader = cmdClass.getMethod("decodeCommandCustomHeader", Class.class);
        try {
            seen.append("header: ").append(decodeHeader.invoke(decoded, headerClass)).append('\n');
        } catch (java.lang.reflect.InvocationTargetException e) {
            seen.append("header threw ").append(e.getCause()).append('\n');
        }
        return seen.toString();
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }

    /** Defines {@link RemotingOnlyHeader} from the test's class file, over the given remoting loader. */
    private static final class HeaderLoader extends ClassLoader {
        HeaderLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.equals(RemotingOnlyHeader.class.getName())) {
                throw new ClassNotFoundException(name);
            }
            try (InputStream in = RemotingAloneIT.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
                byte[] b = in.readAllBytes();
                return defineClass(name, b, 0, b.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
