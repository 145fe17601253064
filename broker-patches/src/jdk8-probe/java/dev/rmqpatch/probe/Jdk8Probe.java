package dev.rmqpatch.probe;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Runs inside a JDK 8 JVM (compiled there by JDK 8's own javac, nothing on its class path but itself): the stock and
 * the patched distribution's lib/ each in a class loader of their own.
 * <ol>
 * <li>Every class of the codec jar and every class the patcher rewrote is loaded, verified and initialised on JDK 8,
 * so a class file or a JDK call that JDK 8 lacks fails here (NoSuchMethodError, VerifyError, ...).</li>
 * <li>Differentials on random inputs, through the patched RocketMQ classes (so through the codec's hooks on JDK 8):
 * JSON and ROCKETMQ-format frames decoded alike, JSON frames encoded to the same bytes, properties strings parsed
 * alike and the patched encoding read back by stock, send and pull request headers decoded alike, send response
 * headers encoded to the same bytes, pull response bodies (stored records) decoded to the same messages.</li>
 * </ol>
 * Usage: {@code Jdk8Probe STOCK_LIB PATCHED_LIB SEED CASES}. Prints one line per check and "N passed, M failed";
 * exits 0 only when nothing failed.
 */
public final class Jdk8Probe {

    private static final String CMD = "org.apache.rocketmq.remoting.protocol.RemotingCommand";
    private static final String DECODER = "org.apache.rocketmq.common.message.MessageDecoder";

    private final ClassLoader stock;
    private final ClassLoader patched;
    private final Random random;
    private int passed;
    private final List<String> failures = new ArrayList<String>();

    private Jdk8Probe(ClassLoader stock, ClassLoader patched, long seed) {
        this.stock = stock;
        this.patched = patched;
        this.random = new Random(seed);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: Jdk8Probe STOCK_LIB PATCHED_LIB SEED CASES");
            System.exit(2);
        }
        File stockLib = new File(args[0]);
        File patchedLib = new File(args[1]);
        long seed = Long.parseLong(args[2]);
        int cases = Integer.parseInt(args[3]);
        System.out.println("jdk8-probe: java.version=" + System.getProperty("java.version") + " java.home="
            + System.getProperty("java.home") + " seed=" + seed);
        Jdk8Probe probe = new Jdk8Probe(loader(stockLib), loader(patchedLib), seed);
        probe.initialiseCodecAndRewrittenClasses(stockLib, patchedLib);
        for (int i = 0; i < cases; i++) {
            probe.check("json frame " + i, probe.jsonFrame(false));
            probe.check("rocketmq frame " + i, probe.jsonFrame(true));
            probe.check("properties " + i, probe.properties());
            probe.check("send request header " + i, probe.sendRequestHeader());
            probe.check("pull request header " + i, probe.pullRequestHeader());
            probe.check("send response header " + i, probe.sendResponseHeader());
            probe.check("pull body " + i, probe.pullBody());
        }
        for (String f : probe.failures) {
            System.out.println("FAILED " + f);
        }
        System.out.println(probe.passed + " passed, " + probe.failures.size() + " failed");
        System.exit(probe.failures.isEmpty() ? 0 : 1);
    }

    private void check(String what, String difference) {
        if (difference == null) {
            passed++;
        } else {
            failures.add(what + ": " + difference);
        }
    }

    // ---- 1. load, verify and initialise on JDK 8

    private void initialiseCodecAndRewrittenClasses(File stockLib, File patchedLib) throws IOException {
        List<String> names = new ArrayList<String>();
        for (File jar : jars(patchedLib)) {
            File stockJar = new File(stockLib, jar.getName());
            JarFile patchedJar = new JarFile(jar);
            JarFile original = stockJar.isFile() ? new JarFile(stockJar) : null;
            try {
                for (Enumeration<JarEntry> e = patchedJar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    if (!entry.getName().endsWith(".class")) {
                        continue;
                    }
                    boolean codec = jar.getName().startsWith("rmqpatch-codec");
                    if (codec || original != null && !Arrays.equals(bytes(patchedJar, entry), bytes(original,
                        original.getJarEntry(entry.getName())))) {
                        names.add(entry.getName().replace('/', '.').substring(0, entry.getName().length() - 6));
                    }
                }
            } finally {
                patchedJar.close();
                if (original != null) {
                    original.close();
                }
            }
        }
        int rewritten = 0;
        for (String name : names) {
            try {
                Class.forName(name, true, patched);
                passed++;
                rewritten++;
            } catch (Throwable t) {
                failures.add("initialise " + name + ": " + t);
            }
        }
        System.out.println("jdk8-probe: " + rewritten + " of " + names.size()
            + " codec and rewritten classes loaded, verified and initialised");
    }

    private static byte[] bytes(JarFile jar, JarEntry entry) throws IOException {
        if (entry == null) {
            return null;
        }
        InputStream in = jar.getInputStream(entry);
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            in.close();
        }
    }

    // ---- 2. differentials

    /** A random command encoded by stock (JSON or ROCKETMQ format): decoded alike; JSON encoded to the same bytes. */
    private String jsonFrame(boolean rocketmqFormat) throws Exception {
        int code = random.nextInt(400);
        int opaque = random.nextInt();
        int flag = random.nextInt(4);
        String remark = random.nextInt(3) == 0 ? null : text(30);
        HashMap<String, String> ext = new HashMap<String, String>();
        for (int k = random.nextInt(8); k > 0; k--) {
            ext.put(text(6), text(40));
        }
        byte[] body = random.nextBoolean() ? null : text(20).getBytes("UTF-8");
        byte[] stockFrame = encode(stock, code, opaque, flag, remark, ext, body, rocketmqFormat);
        byte[] patchedFrame = encode(patched, code, opaque, flag, remark, ext, body, rocketmqFormat);
        if (!Arrays.equals(stockFrame, patchedFrame)) {
            return "encoded differently: stock " + Arrays.toString(stockFrame) + " patched " + Arrays.toString(patchedFrame);
        }
        byte[] withoutLength = Arrays.copyOfRange(stockFrame, 4, stockFrame.length);
        String a = describe(decode(stock, withoutLength));
        String b = describe(decode(patched, withoutLength));
        return a.equals(b) ? null : "decoded differently: stock " + a + " patched " + b;
    }

    private static byte[] encode(ClassLoader cl, int code, int opaque, int flag, String remark, HashMap<String, String> ext,
                                 byte[] body, boolean rocketmqFormat) throws Exception {
        Class<?> cmdClass = Class.forName(CMD, true, cl);
        Class<?> headerClass = Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, cl);
        Object cmd = cmdClass.getMethod("createRequestCommand", int.class, headerClass).invoke(null, code, null);
        cmdClass.getMethod("setOpaque", int.class).invoke(cmd, opaque);
        cmdClass.getMethod("setFlag", int.class).invoke(cmd, flag);
        cmdClass.getMethod("setRemark", String.class).invoke(cmd, remark);
        cmdClass.getMethod("setExtFields", HashMap.class).invoke(cmd, ext.isEmpty() ? null : new HashMap<String, String>(ext));
        cmdClass.getMethod("setBody", byte[].class).invoke(cmd, (Object) body);
        if (rocketmqFormat) {
            Class<?> type = Class.forName("org.apache.rocketmq.remoting.protocol.SerializeType", true, cl);
            cmdClass.getMethod("setSerializeTypeCurrentRPC", type).invoke(cmd, type.getField("ROCKETMQ").get(null));
        }
        ByteBuffer buf = (ByteBuffer) cmdClass.getMethod("encode").invoke(cmd);
        byte[] out = new byte[buf.remaining()];
        buf.get(out);
        return out;
    }

    private static Object decode(ClassLoader cl, byte[] frame) throws Exception {
        try {
            return Class.forName(CMD, true, cl).getMethod("decode", byte[].class).invoke(null, (Object) frame);
        } catch (java.lang.reflect.InvocationTargetException e) {
            return e.getCause();
        }
    }

    /** Every getter's value (maps in iteration order, arrays by content): a rendering both loaders can be compared by. */
    private static String describe(Object o) throws Exception {
        if (o instanceof Throwable) {
            return o.getClass().getName() + ": " + ((Throwable) o).getMessage();
        }
        Map<String, String> values = new TreeMap<String, String>();
        for (Method m : o.getClass().getMethods()) {
            String n = m.getName();
            if (m.getParameterTypes().length == 0 && !Modifier.isStatic(m.getModifiers()) && (n.startsWith("get")
                || n.startsWith("is")) && !n.equals("getClass") && !n.equals("getCustomHeader") && !n.equals("getType")) {
                Object v = m.invoke(o);
                values.put(n, v instanceof byte[] ? Arrays.toString((byte[]) v)
                    : v instanceof Map ? new ArrayList<Object>(((Map<?, ?>) v).entrySet()).toString() : String.valueOf(v));
            }
        }
        return values.toString();
    }

    /** A random properties string parsed alike; a random map encoded by patched reads back in stock as stock's own does. */
    private String properties() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int k = random.nextInt(6); k > 0; k--) {
            sb.append(text(6)).append(random.nextInt(8) == 0 ? "" : "\u0001").append(text(12));
            if (random.nextInt(4) != 0) {
                sb.append('\u0002');
            }
        }
        String s = sb.toString();
        Object a = call(stock, DECODER, "string2messageProperties", String.class, s);
        Object b = call(patched, DECODER, "string2messageProperties", String.class, s);
        if (a == null ? b != null : !a.equals(b)) {
            return "parsed " + s + " differently: stock " + a + " patched " + b;
        }
        Map<String, String> map = new LinkedHashMap<String, String>();
        for (int k = random.nextInt(6); k > 0; k--) {
            map.put(text(6).replace('\u0001', 'x').replace('\u0002', 'y'), text(12).replace('\u0001', 'x').replace('\u0002', 'y'));
        }
        // What stock reads back from patched's encoding is what it reads back from its own (P2 writes stock's string;
        // stock's own round trip drops empty values).
        Object viaPatched = call(stock, DECODER, "string2messageProperties", String.class,
            call(patched, DECODER, "messageProperties2String", Map.class, map));
        Object viaStock = call(stock, DECODER, "string2messageProperties", String.class,
            call(stock, DECODER, "messageProperties2String", Map.class, map));
        return viaPatched.equals(viaStock) ? null
            : "encoding of " + map + " reads back in stock as " + viaPatched + ", stock's own as " + viaStock;
    }

    private String sendRequestHeader() throws Exception {
        HashMap<String, String> ext = new HashMap<String, String>();
        ext.put("a", text(10));
        ext.put("b", "Topic" + random.nextInt(100));
        ext.put("c", "TBW102");
        ext.put("d", Integer.toString(random.nextInt(16)));
        ext.put("e", Integer.toString(random.nextInt(16)));
        ext.put("f", Integer.toString(random.nextInt(1 << 20)));
        ext.put("g", Long.toString(random.nextLong()));
        ext.put("h", Integer.toString(random.nextInt(8)));
        ext.put("i", "WAIT\u0001true\u0002TAGS\u0001" + text(5));
        ext.put("j", Integer.toString(random.nextInt(16)));
        ext.put("k", Boolean.toString(random.nextBoolean()));
        if (random.nextBoolean()) {
            ext.put("l", Integer.toString(random.nextInt(3)));
        }
        ext.put("m", Boolean.toString(random.nextBoolean()));
        return customHeader("org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2", ext);
    }

    private String pullRequestHeader() throws Exception {
        HashMap<String, String> ext = new HashMap<String, String>();
        ext.put("consumerGroup", "group-" + text(5));
        ext.put("topic", "Topic" + random.nextInt(100));
        ext.put("queueId", Integer.toString(random.nextInt(16)));
        ext.put("queueOffset", Long.toString(random.nextInt(1 << 30)));
        ext.put("maxMsgNums", Integer.toString(1 + random.nextInt(32)));
        ext.put("sysFlag", Integer.toString(random.nextInt(16)));
        ext.put("commitOffset", Long.toString(random.nextInt(1 << 30)));
        ext.put("suspendTimeoutMillis", "15000");
        if (random.nextBoolean()) {
            ext.put("subscription", "TagA || TagB");
        }
        ext.put("subVersion", Long.toString(random.nextLong()));
        if (random.nextBoolean()) {
            ext.put("expressionType", "TAG");
        }
        return customHeader("org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader", ext);
    }

    /** The custom header decoded from the same ext fields in both loaders (P1/P10 on patched), compared by getters. */
    private String customHeader(String headerClass, HashMap<String, String> ext) throws Exception {
        String a = describe(decodeHeader(stock, headerClass, ext));
        String b = describe(decodeHeader(patched, headerClass, ext));
        return a.equals(b) ? null : headerClass + " from " + ext + ": stock " + a + " patched " + b;
    }

    private static Object decodeHeader(ClassLoader cl, String headerClass, HashMap<String, String> ext) throws Exception {
        Class<?> cmdClass = Class.forName(CMD, true, cl);
        Class<?> header = Class.forName("org.apache.rocketmq.remoting.CommandCustomHeader", true, cl);
        Object cmd = cmdClass.getMethod("createRequestCommand", int.class, header).invoke(null, 310, null);
        cmdClass.getMethod("setExtFields", HashMap.class).invoke(cmd, new HashMap<String, String>(ext));
        try {
            return cmdClass.getMethod("decodeCommandCustomHeader", Class.class).invoke(cmd, Class.forName(headerClass, true, cl));
        } catch (java.lang.reflect.InvocationTargetException e) {
            return e.getCause();
        }
    }

    /** A send response (P4 and P6 on patched): the same bytes on the wire. */
    private String sendResponseHeader() throws Exception {
        String msgId = text(32);
        int queueId = random.nextInt(16);
        long offset = random.nextLong();
        byte[] a = response(stock, msgId, queueId, offset);
        byte[] b = response(patched, msgId, queueId, offset);
        return Arrays.equals(a, b) ? null : "send response encoded differently: stock " + new String(a, "UTF-8")
            + " patched " + new String(b, "UTF-8");
    }

    private static byte[] response(ClassLoader cl, String msgId, int queueId, long offset) throws Exception {
        Class<?> cmdClass = Class.forName(CMD, true, cl);
        Class<?> headerClass = Class.forName("org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader", true, cl);
        Object cmd = cmdClass.getMethod("createResponseCommand", Class.class).invoke(null, headerClass);
        cmdClass.getMethod("setOpaque", int.class).invoke(cmd, 7);
        Object header = cmdClass.getMethod("readCustomHeader").invoke(cmd);
        headerClass.getMethod("setMsgId", String.class).invoke(header, msgId);
        headerClass.getMethod("setQueueId", Integer.class).invoke(header, queueId);
        headerClass.getMethod("setQueueOffset", Long.class).invoke(header, offset);
        ByteBuffer buf = (ByteBuffer) cmdClass.getMethod("encode").invoke(cmd);
        byte[] out = new byte[buf.remaining()];
        buf.get(out);
        return out;
    }

    // ---- pull response bodies (P28, and P2 for their properties)

    /**
     * A pull response's body of random stored records (IPv4, IPv6 and IPv4-mapped hosts, compressed bodies, ports out
     * of range, non-ASCII topics; a third cut short) decoded by MessageDecoder.decodes to the same messages, compared
     * by their getters (maps sorted: P2's map iterates in another order), and the buffer left at the same position.
     */
    private String pullBody() throws Exception {
        byte[] body = randomPullBody();
        if (random.nextInt(3) == 0) {
            body = Arrays.copyOf(body, random.nextInt(body.length + 1));
        }
        String a = describeMessages(stock, body);
        String b = describeMessages(patched, body);
        return a.equals(b) ? null : "decoded differently: stock " + a + " patched " + b;
    }

    private static String describeMessages(ClassLoader cl, byte[] body) throws Exception {
        ByteBuffer bb = ByteBuffer.wrap(body);
        List<?> msgs = (List<?>) Class.forName(DECODER, true, cl).getMethod("decodes", ByteBuffer.class, boolean.class)
            .invoke(null, bb, true);
        StringBuilder sb = new StringBuilder();
        for (Object m : msgs) {
            sb.append(describeMessage(m)).append('\n');
        }
        return sb.append("position ").append(bb.position()).toString();
    }

    /** Every getter's value but getBornHostNameString (a reverse DNS lookup); maps sorted by key. */
    private static String describeMessage(Object o) throws Exception {
        Map<String, String> values = new TreeMap<String, String>();
        values.put("class", o.getClass().getName());
        for (Method m : o.getClass().getMethods()) {
            String n = m.getName();
            if (m.getParameterTypes().length == 0 && !Modifier.isStatic(m.getModifiers()) && (n.startsWith("get")
                || n.startsWith("is")) && !n.equals("getClass") && !n.equals("getBornHostNameString")) {
                Object v;
                try {
                    v = m.invoke(o);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    v = "threw " + e.getCause();
                }
                values.put(n, v instanceof byte[] ? Arrays.toString((byte[]) v)
                    : v instanceof Map ? new TreeMap<Object, Object>((Map<?, ?>) v).toString() : String.valueOf(v));
            }
        }
        return values.toString();
    }

    /** Up to six records in 4.9.0's CommitLog layout. */
    private byte[] randomPullBody() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int n = random.nextInt(6); n >= 0; n--) {
            int sysFlag = random.nextInt(4) == 0 ? random.nextInt(64) : 0;
            byte[] body = ("body " + text(40)).getBytes("UTF-8");
            if ((sysFlag & 1) != 0 && random.nextBoolean()) {
                java.util.zip.Deflater d = new java.util.zip.Deflater(5);
                d.setInput(body);
                d.finish();
                byte[] buf = new byte[body.length + 64];
                int len = d.deflate(buf);
                d.end();
                body = Arrays.copyOf(buf, len);
            }
            byte[] topic = text(20).getBytes("UTF-8");
            if (topic.length > 127) {
                topic = Arrays.copyOf(topic, 127);
            }
            byte[] props = ("UNIQ_KEY\u0001" + Long.toHexString(random.nextLong()) + "\u0002TAGS\u0001" + text(8)
                + "\u0002" + text(6) + "\u0001" + text(12) + (random.nextBoolean() ? "\u0002" : "")).getBytes("UTF-8");
            boolean bornV6 = (sysFlag & 16) != 0;
            boolean storeV6 = (sysFlag & 32) != 0;
            ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + (bornV6 ? 20 : 8) + 8 + (storeV6 ? 20 : 8)
                + 4 + 8 + 4 + body.length + 1 + topic.length + 2 + props.length);
            b.putInt(b.capacity()).putInt(-626843481).putInt(random.nextInt()).putInt(random.nextInt(4)).putInt(0)
                .putLong(random.nextInt(1000)).putLong(random.nextInt(1 << 30)).putInt(sysFlag).putLong(1700000000000L);
            host(b, bornV6);
            b.putLong(1700000000001L);
            host(b, storeV6);
            b.putInt(0).putLong(0).putInt(body.length).put(body).put((byte) topic.length).put(topic)
                .putShort((short) props.length).put(props);
            out.write(b.array());
        }
        return out.toByteArray();
    }

    private void host(ByteBuffer b, boolean v6) {
        byte[] ip = new byte[v6 ? 16 : 4];
        random.nextBytes(ip);
        if (v6 && random.nextBoolean()) {
            Arrays.fill(ip, 0, 10, (byte) 0);
            ip[10] = (byte) 0xff;
            ip[11] = (byte) 0xff;
        }
        b.put(ip).putInt(random.nextInt(70000));
    }

    // ---- helpers

    private static Object call(ClassLoader cl, String cls, String method, Class<?> type, Object arg) throws Exception {
        return Class.forName(cls, true, cl).getMethod(method, type).invoke(null, arg);
    }

    /** Random text: ASCII, JSON's specials, control characters, non-Latin and supplementary characters. */
    private String text(int max) {
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(max + 1); n > 0; n--) {
            switch (random.nextInt(6)) {
                case 0:
                    String specials = "\"\\/\b\f\n\r\t\u0001\u0002";
                    sb.append(specials.charAt(random.nextInt(specials.length())));
                    break;
                case 1:
                    sb.append((char) (0x4E00 + random.nextInt(0x100)));
                    break;
                case 2:
                    sb.appendCodePoint(0x1F600 + random.nextInt(0x40));
                    break;
                default:
                    sb.append((char) (0x20 + random.nextInt(0x5F)));
                    break;
            }
        }
        return sb.toString();
    }

    private static List<File> jars(File lib) {
        File[] files = lib.listFiles();
        List<File> jars = new ArrayList<File>();
        if (files != null) {
            for (File f : files) {
                if (f.getName().endsWith(".jar")) {
                    jars.add(f);
                }
            }
        }
        java.util.Collections.sort(jars);
        return jars;
    }

    private static ClassLoader loader(File lib) throws IOException {
        List<URL> urls = new ArrayList<URL>();
        for (File jar : jars(lib)) {
            urls.add(jar.toURI().toURL());
        }
        // The extension loader as parent: nothing of this probe's own class path leaks into the libs.
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getSystemClassLoader().getParent());
    }
}
