package dev.rmqpatch.patches;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExtBatch;

/**
 * Runs inside a lib/ loader ({@link DriverLoader}): the same seeded random batches through the store's batch encoder of
 * that loader: 4.9.0's {@code CommitLog$MessageExtBatchEncoder.encode(MessageExtBatch)}, or 4.9.7's
 * {@code CommitLog$MessageExtEncoder.encode(MessageExtBatch, PutMessageContext)}. One line per batch:
 * "KIND SHAPE hex-of-the-encoded-batch" or "KIND SHAPE threw ExceptionClass: message" ({@link #shape}: one letter per
 * message, L, T or E). KIND says what the batch is, so the test
 * knows which outcomes must agree: {@code v490} (every message's properties end with the separator or are empty, as a
 * 4.9.0 client writes them), {@code v491} (none ends with it, as 4.9.1+ clients write them), {@code mixed},
 * {@code malformed} (a length past the body, negative, or truncated), {@code oversized} (over maxMessageSize, or over
 * Short.MAX_VALUE of properties).
 */
public final class BatchEncodeDriver {

    static final int MAX_MESSAGE_SIZE = 64 * 1024;
    private static final String[] BATCH_KEYS = {"MSG_REGION", "TRACE_ON", "WAIT", "CLUSTER", "bk", "b\u00e9k"};
    /** The key of the id a 5.x client gives the batch itself (MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX). */
    static final String BATCH_KEY = "UNIQ_KEY";
    private static final String ALPHABET = "abcXYZ019_- \u00e9\u00fc\u4e2d\u6587\ud83d\ude00";

    private BatchEncodeDriver() {
    }

    public static List<String> run(long seed, int count) throws Exception {
        return run(seed, count, false);
    }

    /**
     * The same batches with the batch's own UNIQ_KEY (a 5.x client's) taken out before they are encoded: what P36
     * joins behind a message that lacks the separator (BatchPropertySeparator's class comment says why).
     */
    public static List<String> runWithoutBatchKey(long seed, int count) throws Exception {
        return run(seed, count, true);
    }

    private static List<String> run(long seed, int count, boolean withoutBatchKey) throws Exception {
        ClassLoader loader = BatchEncodeDriver.class.getClassLoader();
        Encoder encoder = Encoder.of(loader);
        Random r = new Random(seed);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String[] kind = new String[1];
            MessageExtBatch batch = batch(r, kind);
            if (withoutBatchKey) {
                MessageAccessor.clearProperty(batch, BATCH_KEY);
            }
            try {
                ByteBuffer out = encoder.encode(batch);
                byte[] bytes = new byte[out.remaining()];
                out.duplicate().get(bytes);
                lines.add(kind[0] + " " + HexFormat.of().formatHex(bytes));
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                lines.add(kind[0] + " threw " + t.getClass().getName() + ": " + t.getMessage());
            }
        }
        return lines;
    }

    /** The store's batch encoder of this loader, called by reflection (its constructor is package-private). */
    private static final class Encoder {
        private final Object encoder;
        private final Method encode;
        private final Constructor<?> context;

        private Encoder(Object encoder, Method encode, Constructor<?> context) {
            this.encoder = encoder;
            this.encode = encode;
            this.context = context;
        }

        static Encoder of(ClassLoader loader) throws Exception {
            try {
                Class<?> c = Class.forName("org.apache.rocketmq.store.CommitLog$MessageExtBatchEncoder", true, loader);
                Constructor<?> ctor = c.getDeclaredConstructor(int.class);
                ctor.setAccessible(true);
                Method m = c.getMethod("encode", MessageExtBatch.class);
                return new Encoder(ctor.newInstance(MAX_MESSAGE_SIZE), m, null);
            } catch (ClassNotFoundException e) {
                // 4.9.7: one encoder for single messages and batches; its batch limit is maxMessageBodySize on the
                // whole body, so it gets the same figure.
                Class<?> c = Class.forName("org.apache.rocketmq.store.CommitLog$MessageExtEncoder", true, loader);
                Class<?> ctx = Class.forName("org.apache.rocketmq.store.CommitLog$PutMessageContext", true, loader);
                Constructor<?> ctor = c.getDeclaredConstructor(int.class);
                ctor.setAccessible(true);
                Method m = c.getDeclaredMethod("encode", MessageExtBatch.class, ctx);
                m.setAccessible(true);
                Constructor<?> context = ctx.getDeclaredConstructor(String.class);
                context.setAccessible(true);
                return new Encoder(ctor.newInstance(MAX_MESSAGE_SIZE), m, context);
            }
        }

        ByteBuffer encode(MessageExtBatch batch) throws Exception {
            if (context == null) {
                return (ByteBuffer) encode.invoke(encoder, batch);
            }
            return (ByteBuffer) encode.invoke(encoder, batch, context.newInstance(batch.getTopic() + "-" + batch.getQueueId()));
        }
    }

    private static MessageExtBatch batch(Random r, String[] kind) throws Exception {
        MessageExtBatch b = new MessageExtBatch();
        b.setTopic(r.nextInt(4) == 0 ? "T\u00f6pic-" + r.nextInt(10) : "BatchTopic" + r.nextInt(10));
        b.setQueueId(r.nextInt(8));
        b.setSysFlag(r.nextBoolean() ? 0 : 2); // MULTI_TAGS_FLAG, as a MULTI_TAG topic's batch has
        b.setBornTimestamp(1_700_000_000_000L + r.nextInt(1_000_000));
        b.setStoreTimestamp(1_700_000_100_000L + r.nextInt(1_000_000));
        b.setReconsumeTimes(r.nextInt(3));
        b.setBornHost(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (1 + r.nextInt(9))}),
            1024 + r.nextInt(60000)));
        b.setStoreHost(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 10911));
        Map<String, String> batchProps = new HashMap<>();
        int bp = r.nextInt(6) == 0 ? 0 : 1 + r.nextInt(4);
        for (int i = 0; i < bp; i++) {
            batchProps.put(BATCH_KEYS[r.nextInt(BATCH_KEYS.length)], i == 0 ? "DefaultCluster" : text(r, 0, 12));
        }
        if (r.nextInt(50) == 0) {
            batchProps.put("huge", text(r, 33_000, 33_001)); // over Short.MAX_VALUE of batch properties
        }
        if (bp > 0 && r.nextInt(4) == 0) {
            batchProps.put(BATCH_KEY, "7F0000010001" + Long.toHexString(r.nextLong())); // a 5.x client's batch id
        }
        MessageAccessor.setProperties(b, batchProps);

        int style = r.nextInt(10); // 0-3 v490, 4-7 v491, 8 mixed, 9 special
        String k = style < 4 ? "v490" : style < 8 ? "v491" : style == 8 ? "mixed" : "special";
        int messages = r.nextInt(7) == 0 ? 0 : 1 + r.nextInt(8);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int m = 0; m < messages; m++) {
            boolean trailing = k.equals("v490") || (k.equals("mixed") && r.nextBoolean())
                || ((k.equals("special") || k.equals("oversized")) && r.nextBoolean());
            String props = properties(r, trailing);
            byte[] bodyBytes = new byte[r.nextInt(5) == 0 ? 0 : r.nextInt(300)];
            r.nextBytes(bodyBytes);
            if (k.equals("special") && r.nextInt(6) == 0) {
                bodyBytes = new byte[MAX_MESSAGE_SIZE - 50 + r.nextInt(100)]; // over maxMessageSize with its head
                k = "oversized";
            }
            if (k.startsWith("special") || k.equals("oversized")) {
                if (r.nextInt(8) == 0) {
                    props = text(r, 32_700, 32_767) + (trailing ? "\u0002" : "");
                    k = "oversized";
                }
            }
            writeMessage(body, r.nextInt(3), bodyBytes, props.getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = body.toByteArray();
        if (k.equals("special")) {
            if (bytes.length == 0 || r.nextInt(4) == 0) {
                bytes = garbage(r);
            } else {
                int at = r.nextInt(Math.max(1, bytes.length - 1));
                switch (r.nextInt(3)) {
                    case 0 -> bytes = java.util.Arrays.copyOf(bytes, at); // truncated
                    case 1 -> bytes[at] ^= (byte) (1 << r.nextInt(8)); // one bit flipped somewhere
                    default -> ByteBuffer.wrap(bytes).putInt(16, r.nextBoolean() ? -1 - r.nextInt(100)
                        : bytes.length + r.nextInt(100));
                }
            }
            // What the damage left: still a well-formed run of messages (a flipped bit in a body), or not.
            int lacking = lacking(bytes);
            k = lacking < 0 ? "malformed" : lacking == 0 ? "v490" : "mixed";
        }
        if (batchProps.containsKey("huge")) {
            k = "oversized";
        } else if (bp == 0 && !k.equals("malformed") && !k.equals("oversized")) {
            k = k + "-nobatchprops";
        } else if (batchProps.containsKey(BATCH_KEY) && !k.equals("malformed") && !k.equals("oversized")) {
            k = k + "-batchkey";
        }
        b.setBody(bytes);
        kind[0] = k + " " + shape(bytes);
        return b;
    }

    /**
     * One letter per message of a well-formed body: L (properties that lack the separator at their end, as 4.9.1+
     * clients write them), T (properties that end with it, as 4.9.0 clients write them), E (none); "-" for no message,
     * "?" for a malformed body.
     */
    static String shape(byte[] body) {
        if (lacking(body) < 0) {
            return "?";
        }
        StringBuilder sb = new StringBuilder();
        ByteBuffer b = ByteBuffer.wrap(body);
        while (b.hasRemaining()) {
            b.position(b.position() + 16);
            int bodyLen = b.getInt();
            b.position(b.position() + bodyLen);
            short propertiesLen = b.getShort();
            b.position(b.position() + propertiesLen);
            sb.append(propertiesLen == 0 ? 'E' : body[b.position() - 1] != 2 ? 'L' : 'T');
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }

    /**
     * How many messages of a batch body have properties that do not end with the separator; -1 when the body is not a
     * well-formed run of messages.
     */
    static int lacking(byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        int lacking = 0;
        while (b.hasRemaining()) {
            if (b.remaining() < 20) {
                return -1;
            }
            b.position(b.position() + 16);
            int bodyLen = b.getInt();
            if (bodyLen < 0 || bodyLen > b.remaining() - 2) {
                return -1;
            }
            b.position(b.position() + bodyLen);
            short propertiesLen = b.getShort();
            if (propertiesLen < 0 || propertiesLen > b.remaining()) {
                return -1;
            }
            b.position(b.position() + propertiesLen);
            if (propertiesLen > 0 && body[b.position() - 1] != 2) {
                lacking++;
            }
        }
        return lacking;
    }

    private static byte[] garbage(Random r) {
        byte[] g = new byte[r.nextInt(200)];
        r.nextBytes(g);
        return g;
    }

    /** A client's batch message (MessageDecoder.encodeMessage): TOTALSIZE, MAGICCODE, BODYCRC, FLAG, body, properties. */
    private static void writeMessage(ByteArrayOutputStream out, int flag, byte[] body, byte[] props) {
        int total = 4 + 4 + 4 + 4 + 4 + body.length + 2 + props.length;
        ByteBuffer b = ByteBuffer.allocate(total);
        b.putInt(total);
        b.putInt(0);
        b.putInt(0);
        b.putInt(flag);
        b.putInt(body.length);
        b.put(body);
        b.putShort((short) props.length);
        b.put(props);
        out.write(b.array(), 0, total);
    }

    /** Random user properties, a unique key among them as a client sets one; empty values and keys with non-ASCII. */
    private static String properties(Random r, boolean trailing) {
        int n = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String key = i == 0 && r.nextBoolean() ? "UNIQ_KEY" : "k" + i + text(r, 0, 4);
            sb.append(key).append('\u0001').append(r.nextInt(5) == 0 ? "" : text(r, 0, 20)).append('\u0002');
        }
        if (!trailing && sb.length() > 0) {
            sb.setLength(sb.length() - 1);
        }
        return sb.toString();
    }

    private static String text(Random r, int min, int max) {
        int n = min + r.nextInt(max - min + 1);
        StringBuilder sb = new StringBuilder(n);
        while (sb.length() < n) {
            int i = r.nextInt(ALPHABET.length());
            char c = ALPHABET.charAt(i);
            if (Character.isHighSurrogate(c)) {
                sb.append(c).append(ALPHABET.charAt(i + 1));
            } else if (!Character.isLowSurrogate(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
