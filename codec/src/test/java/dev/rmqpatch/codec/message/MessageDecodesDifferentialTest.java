package dev.rmqpatch.codec.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import dev.rmqpatch.codec.Brief;
import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageClientExt;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.junit.jupiter.api.Test;

/**
 * {@link MessageDecodes} against stock 4.9.0 {@code MessageDecoder.decodes} and {@code decode}: on random bodies of
 * stored records (good ones, odd ones, cut short, bytes flipped) the same list of messages, every field of every
 * message equal (hosts also by their text and address class, bodies by content, the properties map by content), and
 * the buffer left at the same position; on heap buffers, slices of heap buffers with an array offset, direct and
 * read-only buffers.
 */
class MessageDecodesDifferentialTest {

    /** Random bodies (each decoded from four kinds of buffer, with and without bodies) and random single records. */
    private static final int BODIES = 200;
    private static final int RECORDS = 500;

    /** The buffers a decoder meets: a wrapped array, a slice with an array offset, direct, read-only (no array). */
    private static final List<Function<byte[], ByteBuffer>> BUFFERS = List.of(
        ByteBuffer::wrap,
        b -> {
            byte[] padded = new byte[b.length + 10];
            System.arraycopy(b, 0, padded, 7, b.length);
            return ByteBuffer.wrap(padded, 7, b.length).slice();
        },
        b -> {
            ByteBuffer d = ByteBuffer.allocateDirect(b.length);
            d.put(b).flip();
            return d;
        },
        b -> ByteBuffer.wrap(b).asReadOnlyBuffer());

    @Test
    void randomBodiesDecodeAsStock() throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        int messages = 0;
        for (int i = 0; i < BODIES; i++) {
            String where = Seeds.replay(seed, i);
            byte[] body = StoredRecords.body(r, 12);
            for (int k = 0; k < BUFFERS.size(); k++) {
                for (boolean readBody : new boolean[] {true, false}) {
                    messages += checkDecodes(body, BUFFERS.get(k), readBody, where + " buffer " + k + " readBody " + readBody);
                }
            }
        }
        assertTrue(messages > BODIES, "the random bodies held messages stock could read: " + messages);
    }

    @Test
    void randomRecordsDecodeAsStockInEveryOverload() throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int i = 0; i < RECORDS; i++) {
            String where = Seeds.replay(seed, i);
            byte[] record = StoredRecords.record(r, null);
            if (r.nextInt(5) == 0) {
                record = java.util.Arrays.copyOf(record, r.nextInt(record.length + 1));
            }
            for (Function<byte[], ByteBuffer> buffer : BUFFERS) {
                for (int flags = 0; flags < 8; flags++) {
                    boolean readBody = (flags & 1) != 0;
                    boolean deCompress = (flags & 2) != 0;
                    boolean client = (flags & 4) != 0;
                    ByteBuffer a = buffer.apply(record);
                    ByteBuffer b = buffer.apply(record);
                    MessageExt stock = stockDecode(a, readBody, deCompress, client, new boolean[1]);
                    MessageExt patched = MessageDecodes.decode(b, readBody, deCompress, client);
                    String at = where + " flags " + flags;
                    assertSameMessage(stock, patched, at);
                    assertEquals(a.position(), b.position(), at + ": position after");
                }
            }
        }
    }

    @Test
    void namedRecordsDecodeAsStock() throws Exception {
        List<byte[]> records = new ArrayList<>();
        records.add(new byte[0]);
        records.add(new byte[3]);
        records.add(new byte[200]);
        Random r = new Random(1);
        // Hosts: IPv4, IPv6, IPv4-mapped IPv6 (an Inet4Address, so stock's id keeps 12 zero bytes at its end), loopback.
        records.add(Stored.typical().bytes());
        records.add(Stored.typical().storeV6(mapped(10, 1, 2, 3)).bytes());
        records.add(Stored.typical().storeV6(v6(r)).bornV6(v6(r)).bytes());
        records.add(Stored.typical().bornV6(mapped(192, 168, 0, 9)).bytes());
        records.add(Stored.typical().storeV6(loopback6()).bytes());
        // Ports 65535 and out of range (InetSocketAddress refuses those: null).
        records.add(Stored.typical().storePort(65535).bornPort(0).bytes());
        records.add(Stored.typical().storePort(65536).bytes());
        records.add(Stored.typical().bornPort(-1).bytes());
        // Bodies: empty, compressed (inflated when asked), compressed flag on a body that is not, length past the end,
        // negative length.
        records.add(Stored.typical().body(new byte[0]).bytes());
        byte[] plain = "a body that compresses, a body that compresses, a body".getBytes(StandardCharsets.UTF_8);
        records.add(Stored.typical().sysFlag(MessageSysFlag.COMPRESSED_FLAG).body(UtilAll.compress(plain, 5)).bytes());
        records.add(Stored.typical().sysFlag(MessageSysFlag.COMPRESSED_FLAG).body(plain).bytes());
        records.add(Stored.typical().bodyLength(10_000).bytes());
        records.add(Stored.typical().bodyLength(Integer.MIN_VALUE).bytes());
        // Topics: empty, the longest a byte length allows, negative length, invalid UTF-8, non-ASCII.
        records.add(Stored.typical().topic(new byte[0]).bytes());
        records.add(Stored.typical().topic("t".repeat(127).getBytes(StandardCharsets.UTF_8)).bytes());
        records.add(Stored.typical().topic(new byte[5]).topicLength(-3).bytes());
        records.add(Stored.typical().topic(new byte[] {(byte) 0xc3, 'a', (byte) 0xff, (byte) 0xe4, (byte) 0xb8}).bytes());
        records.add(Stored.typical().topic("主题-Zürich".getBytes(StandardCharsets.UTF_8)).bytes());
        // Properties: none, negative length, length past the end, separators only, invalid UTF-8 around separators.
        records.add(Stored.typical().properties(new byte[0]).bytes());
        records.add(Stored.typical().propertiesLength((short) -5).bytes());
        records.add(Stored.typical().propertiesLength((short) 30_000).bytes());
        records.add(Stored.typical().properties("\u0001\u0002\u0002\u0001".getBytes(StandardCharsets.UTF_8)).bytes());
        records.add(Stored.typical().properties(new byte[] {'k', 1, (byte) 0xe4, 2, (byte) 0xc3, 1, 'v', 2}).bytes());
        for (int i = 0; i < records.size(); i++) {
            byte[] one = records.get(i);
            for (Function<byte[], ByteBuffer> buffer : BUFFERS) {
                for (boolean readBody : new boolean[] {true, false}) {
                    checkDecodes(one, buffer, readBody, "named record " + i);
                    checkDecodes(StoredRecords.concat(one, Stored.typical().bytes()), buffer, readBody,
                        "named record " + i + " then a typical one");
                    checkDecodes(StoredRecords.concat(Stored.typical().bytes(), one), buffer, readBody,
                        "a typical record then named record " + i);
                }
            }
        }
    }

    @Test
    void theOffsetMessageIdIsStocksForEveryStoreHostKind() throws Exception {
        // Checked one by one as well as field by field above, so a failure names the case.
        Random r = new Random(2);
        String v4 = decodeOne(Stored.typical().bytes()).getOffsetMsgId();
        assertEquals(32, v4.length(), v4);
        String mapped = decodeOne(Stored.typical().storeV6(mapped(10, 1, 2, 3)).bytes()).getOffsetMsgId();
        assertEquals(56, mapped.length(), mapped);
        assertTrue(mapped.endsWith("0".repeat(24)), mapped);
        String v6 = decodeOne(Stored.typical().storeV6(v6(r)).bytes()).getOffsetMsgId();
        assertEquals(56, v6.length(), v6);
    }

    @Test
    void aBodyLengthPastTheEndIsRefusedWithoutAllocatingIt() {
        // Stock allocates the array before it reads, so this length is an OutOfMemoryError there; here it is what
        // stock gives for every record it cannot read.
        ByteBuffer b = ByteBuffer.wrap(Stored.typical().bodyLength(Integer.MAX_VALUE - 8).bytes());
        assertNull(MessageDecodes.decode(b, true, true, true));
        assertEquals(b.limit(), b.position());
        assertEquals(List.of(), MessageDecodes.decodes(ByteBuffer.wrap(Stored.typical().bodyLength(Integer.MAX_VALUE - 8)
            .bytes()), true));
    }

    @Test
    void aPullBodyOfOneTopicSharesTheTopicStringAndANewTopicIsDecodedAfresh() throws Exception {
        byte[] body = StoredRecords.concat(StoredRecords.concat(Stored.typical().bytes(), Stored.typical().bytes()),
            StoredRecords.concat(Stored.typical().topic("TopicTesu".getBytes(StandardCharsets.UTF_8)).bytes(),
                Stored.typical().bytes()));
        List<MessageExt> msgs = MessageDecodes.decodes(ByteBuffer.wrap(body), true);
        assertEquals(4, msgs.size());
        assertSame(msgs.get(0).getTopic(), msgs.get(1).getTopic());
        assertEquals("TopicTesu", msgs.get(2).getTopic());
        assertEquals("TopicTest", msgs.get(3).getTopic());
    }

    @Test
    void expectedCountIsACapacityFromTheFirstRecord() {
        assertEquals(0, MessageDecodes.expectedCount(ByteBuffer.allocate(0)));
        assertEquals(1, MessageDecodes.expectedCount(ByteBuffer.allocate(3)));
        assertEquals(10, MessageDecodes.expectedCount(ByteBuffer.allocate(100)));
        ByteBuffer b = ByteBuffer.allocate(1000);
        b.putInt(0, 100);
        assertEquals(10, MessageDecodes.expectedCount(b));
        b.putInt(0, 300);
        assertEquals(4, MessageDecodes.expectedCount(b));
        b.putInt(0, 1);
        assertEquals(1000, MessageDecodes.expectedCount(b));
        b = ByteBuffer.allocate(5000);
        b.putInt(0, 1);
        assertEquals(1024, MessageDecodes.expectedCount(b));
    }

    private static MessageClientExt decodeOne(byte[] record) {
        MessageExt stock = stockDecode(ByteBuffer.wrap(record), true, true, true, new boolean[1]);
        MessageExt patched = MessageDecodes.decode(ByteBuffer.wrap(record), true, true, true);
        assertNotNull(stock);
        assertSameMessage(stock, patched, "one record");
        return (MessageClientExt) patched;
    }

    /** Decodes {@code body} with both, compares; returns how many messages stock read. */
    private static int checkDecodes(byte[] body, Function<byte[], ByteBuffer> buffer, boolean readBody, String where) {
        ByteBuffer a = buffer.apply(body);
        ByteBuffer b = buffer.apply(body);
        boolean[] guarded = new boolean[1];
        List<MessageExt> stock = stockDecodes(a, readBody, guarded);
        if (!guarded[0]) {
            // No body length past the end: stock's own decodes, which the loop above copies, agrees with it. (On lists
            // of their own: the comparison's getMsgId() gives a message without properties an empty map.)
            ByteBuffer c = buffer.apply(body);
            ByteBuffer d = buffer.apply(body);
            List<MessageExt> real = MessageDecoder.decodes(c, readBody);
            List<MessageExt> loop = stockDecodes(d, readBody, new boolean[1]);
            assertEquals(real.size(), loop.size(), where + ": stock's decodes and its loop");
            for (int i = 0; i < real.size(); i++) {
                assertSameMessage(real.get(i), loop.get(i), where + " stock's decodes, message " + i);
            }
            assertEquals(c.position(), d.position(), where + ": stock's decodes and its loop, position after");
        }
        List<MessageExt> patched = MessageDecodes.decodes(b, readBody);
        assertEquals(stock.size(), patched.size(), where + ": messages decoded");
        for (int i = 0; i < stock.size(); i++) {
            assertSameMessage(stock.get(i), patched.get(i), where + " message " + i);
        }
        assertEquals(a.position(), b.position(), where + ": position after");
        assertEquals(a.limit(), b.limit(), where + ": limit after");
        return stock.size();
    }

    /**
     * Stock's decode, except that a record whose body (read) is longer than the bytes left is answered as stock
     * answers it (null, the buffer at its limit) without stock's allocation of that length first: a flipped byte can
     * make it a gigabyte, which would take the test JVM's heap. {@code guarded[0]} is set when that happened.
     */
    static MessageExt stockDecode(ByteBuffer bb, boolean readBody, boolean deCompress, boolean client, boolean[] guarded) {
        if (readBody && bodyPastEnd(bb)) {
            guarded[0] = true;
            bb.position(bb.limit());
            return null;
        }
        return MessageDecoder.decode(bb, readBody, deCompress, client);
    }

    /** Stock {@code MessageDecoder.decodes(ByteBuffer, boolean)}'s loop, through {@link #stockDecode}. */
    static List<MessageExt> stockDecodes(ByteBuffer bb, boolean readBody, boolean[] guarded) {
        List<MessageExt> msgExts = new ArrayList<>();
        while (bb.hasRemaining()) {
            MessageExt msgExt = stockDecode(bb, readBody, true, true, guarded);
            if (msgExt == null) {
                break;
            }
            msgExts.add(msgExt);
        }
        return msgExts;
    }

    /** The body length field of the record at the position, when the buffer holds it, says more than the rest. */
    private static boolean bodyPastEnd(ByteBuffer bb) {
        int p = bb.position();
        if (bb.limit() - p < MessageDecoder.SYSFLAG_POSITION + 4) {
            return false;
        }
        int sysFlag = bb.getInt(p + MessageDecoder.SYSFLAG_POSITION);
        int at = p + MessageDecoder.SYSFLAG_POSITION + 4 + 8
            + ((sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? 8 : 20) + 8
            + ((sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) == 0 ? 8 : 20) + 4 + 8;
        if (bb.limit() - at < 4) {
            return false;
        }
        int bodyLen = bb.getInt(at);
        return bodyLen > 0 && bodyLen > bb.limit() - at - 4;
    }

    /** Every instance field of the message's classes, by value; hosts by value, text and address class too. */
    static void assertSameMessage(MessageExt stock, MessageExt patched, String where) {
        if (stock == null || patched == null) {
            assertSame(stock, patched, where + ": null from one decoder only");
            return;
        }
        assertEquals(stock.getClass(), patched.getClass(), where);
        int fields = 0;
        for (Class<?> c = stock.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                Object x;
                Object y;
                try {
                    x = f.get(stock);
                    y = f.get(patched);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
                String at = where + ": field " + c.getSimpleName() + "." + f.getName();
                fields++;
                if (x instanceof byte[]) {
                    assertArrayEquals((byte[]) x, (byte[]) y, at);
                } else if (x instanceof InetSocketAddress) {
                    assertEquals(x, y, at);
                    assertEquals(x.toString(), String.valueOf(y), at);
                    assertEquals(((InetSocketAddress) x).getAddress().getClass(),
                        ((InetSocketAddress) y).getAddress().getClass(), at);
                } else {
                    Brief.assertEqual(x, y, () -> at);
                }
            }
        }
        // Message: topic, flag, properties, body, transactionId; MessageExt: 14 more.
        assertTrue(fields >= 19, where + ": fields compared " + fields);
        // Not toString(): it prints the properties map (equal maps; its iteration order is checked where it matters,
        // in MessagePropertiesOrderTest).
        // Last: getMsgId() reads UNIQ_KEY through getProperty, which gives a message without properties an empty map.
        assertEquals(stock.getMsgId(), patched.getMsgId(), where + ": getMsgId()");
    }

    private static byte[] mapped(int a, int b, int c, int d) {
        byte[] ip = new byte[16];
        ip[10] = (byte) 0xff;
        ip[11] = (byte) 0xff;
        ip[12] = (byte) a;
        ip[13] = (byte) b;
        ip[14] = (byte) c;
        ip[15] = (byte) d;
        return ip;
    }

    private static byte[] v6(Random r) {
        byte[] ip = new byte[16];
        r.nextBytes(ip);
        ip[0] = (byte) 0xfd;
        return ip;
    }

    private static byte[] loopback6() {
        byte[] ip = new byte[16];
        ip[15] = 1;
        return ip;
    }

    /** One record a 4.9.0 broker stores, with any field replaceable; lengths follow the content unless set. */
    static final class Stored {
        private int sysFlag;
        private byte[] bornIp = {10, 0, 0, 7};
        private int bornPort = 53_211;
        private byte[] storeIp = {10, 0, 0, 1};
        private int storePort = 10_911;
        private byte[] body = "x".repeat(300).getBytes(StandardCharsets.UTF_8);
        private Integer bodyLength;
        private byte[] topic = "TopicTest".getBytes(StandardCharsets.UTF_8);
        private Integer topicLength;
        private byte[] properties = ("UNIQ_KEY\u00017F0000010B2A18B4AAC2540A5B3E0000\u0002WAIT\u0001true\u0002"
            + "TAGS\u0001TagA\u0002CLUSTER\u0001DefaultCluster\u0002").getBytes(StandardCharsets.UTF_8);
        private Short propertiesLength;

        static Stored typical() {
            return new Stored();
        }

        Stored sysFlag(int flag) {
            sysFlag |= flag;
            return this;
        }

        Stored bornV6(byte[] ip) {
            sysFlag |= MessageSysFlag.BORNHOST_V6_FLAG;
            bornIp = ip;
            return this;
        }

        Stored storeV6(byte[] ip) {
            sysFlag |= MessageSysFlag.STOREHOSTADDRESS_V6_FLAG;
            storeIp = ip;
            return this;
        }

        Stored bornPort(int port) {
            bornPort = port;
            return this;
        }

        Stored storePort(int port) {
            storePort = port;
            return this;
        }

        Stored body(byte[] b) {
            body = b;
            return this;
        }

        Stored bodyLength(int n) {
            bodyLength = n;
            return this;
        }

        Stored topic(byte[] t) {
            topic = t;
            return this;
        }

        Stored topicLength(int n) {
            topicLength = n;
            return this;
        }

        Stored properties(byte[] p) {
            properties = p;
            return this;
        }

        Stored propertiesLength(short n) {
            propertiesLength = n;
            return this;
        }

        byte[] bytes() {
            int size = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornIp.length + 4 + 8 + storeIp.length + 4 + 4 + 8
                + 4 + body.length + 1 + topic.length + 2 + properties.length;
            ByteBuffer b = ByteBuffer.allocate(size);
            b.putInt(size);
            b.putInt(MessageDecoder.MESSAGE_MAGIC_CODE);
            b.putInt(0x12345678);
            b.putInt(3);
            b.putInt(0);
            b.putLong(4242);
            b.putLong(987_654_321L);
            b.putInt(sysFlag);
            b.putLong(1_700_000_000_000L);
            b.put(bornIp);
            b.putInt(bornPort);
            b.putLong(1_700_000_000_123L);
            b.put(storeIp);
            b.putInt(storePort);
            b.putInt(0);
            b.putLong(0);
            b.putInt(bodyLength != null ? bodyLength : body.length);
            b.put(body);
            b.put((byte) (topicLength != null ? topicLength : topic.length));
            b.put(topic);
            b.putShort(propertiesLength != null ? propertiesLength : (short) properties.length);
            b.put(properties);
            return b.array();
        }
    }

}
