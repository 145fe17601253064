package dev.rmqpatch.codec.message;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import dev.rmqpatch.codec.RandomText;
import dev.rmqpatch.codec.properties.MessageProperties;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;

/**
 * Random stored-message records in 4.9.0's CommitLog layout (what a pull response's body is made of), written field by
 * field so that every field can be wrong: mostly what a broker stores, sometimes IPv6 and IPv4-mapped hosts, compressed
 * bodies, odd topics and properties, ports out of range, negative lengths; and whole bodies cut short or with bytes
 * flipped. Only for comparing decoders; nothing here checks what it writes.
 */
final class StoredRecords {

    private static final String[] TOPICS = {"TopicTest", "%RETRY%consumer-group", "%DLQ%g", "RMQ_SYS_TRACE_TOPIC", ""};
    private static final String[] REAL_KEYS = {
        MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, MessageConst.PROPERTY_WAIT_STORE_MSG_OK,
        MessageConst.PROPERTY_TAGS, MessageConst.PROPERTY_KEYS, MessageConst.PROPERTY_CLUSTER,
        MessageConst.PROPERTY_MIN_OFFSET, MessageConst.PROPERTY_MAX_OFFSET, MessageConst.PROPERTY_TRANSACTION_PREPARED,
        MessageConst.PROPERTY_REAL_TOPIC, MessageConst.PROPERTY_RECONSUME_TIME, MessageConst.PROPERTY_DELAY_TIME_LEVEL,
    };

    private StoredRecords() {
    }

    /** 0..maxRecords records, then with some chance cut short, bytes flipped or garbage appended. */
    static byte[] body(Random r, int maxRecords) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int n = r.nextInt(maxRecords + 1);
        // Most bodies hold one topic and one store host, as a pull response does.
        String topic = TOPICS[r.nextInt(TOPICS.length)];
        for (int i = 0; i < n; i++) {
            out.write(record(r, r.nextInt(4) == 0 ? null : topic));
        }
        byte[] b = out.toByteArray();
        int k = r.nextInt(20);
        if (k == 0 && b.length > 0) {
            b = java.util.Arrays.copyOf(b, r.nextInt(b.length));
        } else if (k == 1 && b.length > 0) {
            for (int j = r.nextInt(4); j >= 0; j--) {
                b[r.nextInt(b.length)] = (byte) r.nextInt();
            }
        } else if (k == 2) {
            byte[] tail = new byte[r.nextInt(200)];
            r.nextBytes(tail);
            b = concat(b, tail);
        }
        return b;
    }

    /** One record; {@code topic} null: a random one. */
    static byte[] record(Random r, String topic) throws IOException {
        int sysFlag = 0;
        if (r.nextInt(4) == 0) {
            sysFlag = r.nextInt(64);
        }
        boolean bornV6 = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) != 0;
        boolean storeV6 = (sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) != 0;
        byte[] body = new byte[r.nextInt(5) == 0 ? 0 : r.nextInt(600)];
        r.nextBytes(body);
        if (r.nextBoolean()) {
            byte[] text = ("body " + r.nextInt() + " " + RandomText.text(r, 100)).getBytes(StandardCharsets.UTF_8);
            body = text;
        }
        if ((sysFlag & MessageSysFlag.COMPRESSED_FLAG) != 0 && r.nextInt(5) != 0 && body.length > 0) {
            body = UtilAll.compress(body, 5);
        }
        byte[] topicBytes = topicBytes(r, topic);
        byte[] props = propertiesBytes(r);

        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + (bornV6 ? 20 : 8) + 8 + (storeV6 ? 20 : 8)
            + 4 + 8 + 4 + body.length + 1 + topicBytes.length + 2 + props.length);
        int size = b.capacity();
        b.putInt(r.nextInt(30) == 0 ? r.nextInt() : size);
        b.putInt(MessageDecoder.MESSAGE_MAGIC_CODE);
        b.putInt(r.nextInt());
        b.putInt(r.nextInt(16));
        b.putInt(r.nextInt(3) == 0 ? r.nextInt() : 0);
        b.putLong(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(1_000_000));
        b.putLong(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(Integer.MAX_VALUE));
        b.putInt(sysFlag);
        b.putLong(System.currentTimeMillis() - r.nextInt(100_000));
        host(r, b, bornV6);
        b.putLong(System.currentTimeMillis());
        host(r, b, storeV6);
        b.putInt(r.nextInt(4) == 0 ? r.nextInt(20) : 0);
        b.putLong(r.nextInt(10) == 0 ? r.nextLong() : 0);
        int k = r.nextInt(40);
        b.putInt(k == 0 ? -r.nextInt(1000) - 1 : k == 1 ? body.length + r.nextInt(100) : body.length);
        b.put(body);
        b.put(r.nextInt(40) == 0 ? (byte) (-1 - r.nextInt(128)) : (byte) topicBytes.length);
        b.put(topicBytes);
        k = r.nextInt(40);
        b.putShort(k == 0 ? (short) -1 : k == 1 ? 0 : (short) props.length);
        b.put(props);
        return b.array();
    }

    private static void host(Random r, ByteBuffer b, boolean v6) {
        if (v6) {
            byte[] ip = new byte[16];
            int k = r.nextInt(4);
            if (k == 0) {
                // IPv4-mapped (::ffff:a.b.c.d): InetAddress makes an Inet4Address of it.
                ip[10] = (byte) 0xff;
                ip[11] = (byte) 0xff;
                ip[12] = 10;
                ip[13] = (byte) r.nextInt(256);
                ip[14] = (byte) r.nextInt(256);
                ip[15] = (byte) r.nextInt(256);
            } else if (k == 1) {
                ip[15] = 1;
            } else {
                r.nextBytes(ip);
            }
            b.put(ip);
        } else {
            byte[] ip = {127, 0, 0, 1};
            if (r.nextBoolean()) {
                r.nextBytes(ip);
            }
            b.put(ip);
        }
        int k = r.nextInt(60);
        b.putInt(k == 0 ? 65536 + r.nextInt(1000) : k == 1 ? -1 - r.nextInt(1000) : r.nextInt(65536));
    }

    private static byte[] topicBytes(Random r, String topic) {
        if (topic != null) {
            return topic.getBytes(StandardCharsets.UTF_8);
        }
        int k = r.nextInt(4);
        byte[] b;
        if (k == 0) {
            b = new byte[r.nextInt(128)];
            r.nextBytes(b);
        } else if (k == 1) {
            b = RandomText.text(r, 40).getBytes(StandardCharsets.UTF_8);
        } else {
            b = TOPICS[r.nextInt(TOPICS.length)].getBytes(StandardCharsets.UTF_8);
        }
        return b.length > 127 ? java.util.Arrays.copyOf(b, 127) : b;
    }

    private static byte[] propertiesBytes(Random r) {
        int k = r.nextInt(10);
        if (k == 0) {
            byte[] b = new byte[r.nextInt(300)];
            r.nextBytes(b);
            return b;
        }
        if (k == 1) {
            return RandomText.separatorHeavy(r, 200).getBytes(StandardCharsets.UTF_8);
        }
        Map<String, String> map = new HashMap<>();
        for (int i = r.nextInt(12); i > 0; i--) {
            String key = r.nextInt(3) == 0 ? RandomText.text(r, 8) : REAL_KEYS[r.nextInt(REAL_KEYS.length)];
            map.put(key, r.nextInt(8) == 0 ? "" : RandomText.text(r, 30));
        }
        String s = r.nextBoolean() ? MessageDecoder.messageProperties2String(map) : MessageProperties.encodeForStore(map);
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return b.length > Short.MAX_VALUE ? java.util.Arrays.copyOf(b, Short.MAX_VALUE) : b;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
