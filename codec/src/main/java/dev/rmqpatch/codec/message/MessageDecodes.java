package dev.rmqpatch.codec.message;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageClientExt;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;

/**
 * P28: stored messages (CommitLog records, as a pull response's body carries them) to {@code MessageExt}s, for
 * {@code MessageDecoder.decodes(ByteBuffer, boolean)}, which a 4.9.0 consumer runs on every pull response, and
 * {@code MessageDecoder.decode(ByteBuffer, boolean, boolean, boolean)}, which every other decode overload calls.
 *
 * <p>Same reads, same checks, same objects as stock, without stock's garbage: per message stock copies the topic and
 * the properties into byte arrays only to make Strings of them, allocates two 4-byte arrays for the hosts, and
 * makes the offset message id through two ByteBuffers, an address copy, a char[] and a String. Here ASCII properties
 * (with P2 on) are parsed straight from the buffer's bytes, others through a String made from the buffer's own
 * array, the topic String is reused while the topic's bytes repeat (a pull
 * response holds one topic), the host bytes go through a per-thread scratch array ({@code InetAddress.getByAddress}
 * copies them), and the id is written as hex into a per-thread char[] and made a String once. The list is presized
 * from the first record's size.
 *
 * <p>Compatibility (pinned by MessageDecodesDifferentialTest against stock): for every input the same result,
 * field by field, and the buffer left at the same position: a record stock cannot read (too short, a negative topic
 * length, a port out of range, a compressed body that does not inflate...) gives null and the buffer at its limit,
 * as stock's catch does. The properties are parsed as {@code MessageDecoder.string2messageProperties} parses them
 * in this JVM (P2's parser while P2 is on; on ASCII bytes its byte twin, which gives the same map, iteration order
 * included). Two differences no caller can see through stock's API: a record whose
 * body length is more than the bytes left is refused before its body array is allocated (stock allocates it, then
 * fails on the read; so a huge length gives null here where stock could throw OutOfMemoryError), and the messages
 * of one pull may share one topic String instance.
 */
public final class MessageDecodes {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** Properties longer than this, from a buffer without an array, get an array of their own, not a kept one. */
    static final int MAX_KEPT_BYTES = 4096;

    /** Per-thread scratch: nothing in it outlives a call but the last topic, which is immutable. */
    static final class Scratch {
        final byte[] bornIp4 = new byte[4];
        final byte[] storeIp4 = new byte[4];
        /** An offset message id is at most 28 bytes (IPv6 store host), 56 hex digits. */
        final char[] hex = new char[56];
        /** Topic length is a signed byte: at most 127. */
        final byte[] topicBytes = new byte[127];
        int topicLength = -1;
        String topic;
        /** For buffers without an accessible array (direct, mapped, read-only); made when first needed. */
        byte[] bytes;
    }

    private static final ThreadLocal<Scratch> SCRATCH = new ThreadLocal<Scratch>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    private MessageDecodes() {
    }

    /** As stock {@code MessageDecoder.decodes(ByteBuffer, boolean)}: client messages until the first that fails. */
    public static List<MessageExt> decodes(ByteBuffer byteBuffer, boolean readBody) {
        return decodes(byteBuffer, readBody, DecodeRules.V4_9_0);
    }

    /** {@link #decodes(ByteBuffer, boolean)} by a release's rules (P28's variants). */
    static List<MessageExt> decodes(ByteBuffer byteBuffer, boolean readBody, DecodeRules rules) {
        Scratch s = SCRATCH.get();
        List<MessageExt> msgExts = new ArrayList<MessageExt>(expectedCount(byteBuffer));
        while (byteBuffer.hasRemaining()) {
            MessageExt msgExt = decode(byteBuffer, readBody, true, true, s, rules);
            if (null != msgExt) {
                msgExts.add(msgExt);
            } else {
                break;
            }
        }
        return msgExts;
    }

    /** As stock {@code MessageDecoder.decode(ByteBuffer, boolean, boolean, boolean)}. */
    public static MessageExt decode(ByteBuffer byteBuffer, boolean readBody, boolean deCompressBody, boolean isClient) {
        return decode(byteBuffer, readBody, deCompressBody, isClient, SCRATCH.get(), DecodeRules.V4_9_0);
    }

    /** {@link #decode(ByteBuffer, boolean, boolean, boolean)} by a release's rules (P28's variants). */
    static MessageExt decode(ByteBuffer byteBuffer, boolean readBody, boolean deCompressBody, boolean isClient,
                             DecodeRules rules) {
        return decode(byteBuffer, readBody, deCompressBody, isClient, SCRATCH.get(), rules);
    }

    /**
     * Records in the buffer if they were all the size of the first (a pull response's usually are, near enough),
     * at least 1 and at most 1024; 10 (ArrayList's default) when the first size is not positive. A capacity only.
     */
    static int expectedCount(ByteBuffer byteBuffer) {
        int remaining = byteBuffer.remaining();
        if (remaining < 4) {
            return remaining == 0 ? 0 : 1;
        }
        int first = byteBuffer.getInt(byteBuffer.position());
        if (first <= 0) {
            return 10;
        }
        int n = remaining / first;
        if (remaining % first != 0) {
            n++;
        }
        return Math.max(1, Math.min(n, 1024));
    }

    static MessageExt decode(ByteBuffer byteBuffer, boolean readBody, boolean deCompressBody, boolean isClient,
                             Scratch s, DecodeRules rules) {
        try {
            MessageExt msgExt = isClient ? new MessageClientExt() : new MessageExt();

            // 1 TOTALSIZE
            msgExt.setStoreSize(byteBuffer.getInt());
            // 2 MAGICCODE (not checked, as stock)
            byteBuffer.getInt();
            // 3 BODYCRC
            msgExt.setBodyCRC(byteBuffer.getInt());
            // 4 QUEUEID
            msgExt.setQueueId(byteBuffer.getInt());
            // 5 FLAG
            msgExt.setFlag(byteBuffer.getInt());
            // 6 QUEUEOFFSET
            msgExt.setQueueOffset(byteBuffer.getLong());
            // 7 PHYSICALOFFSET
            long physicOffset = byteBuffer.getLong();
            msgExt.setCommitLogOffset(physicOffset);
            // 8 SYSFLAG
            int sysFlag = byteBuffer.getInt();
            msgExt.setSysFlag(sysFlag);
            // 9 BORNTIMESTAMP
            msgExt.setBornTimestamp(byteBuffer.getLong());

            // 10 BORNHOST
            byte[] bornIp = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? s.bornIp4 : new byte[16];
            byteBuffer.get(bornIp, 0, bornIp.length);
            int bornPort = byteBuffer.getInt();
            msgExt.setBornHost(new InetSocketAddress(InetAddress.getByAddress(bornIp), bornPort));

            // 11 STORETIMESTAMP
            msgExt.setStoreTimestamp(byteBuffer.getLong());

            // 12 STOREHOST
            boolean storeV6 = (sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) != 0;
            byte[] storeIp = storeV6 ? new byte[16] : s.storeIp4;
            byteBuffer.get(storeIp, 0, storeIp.length);
            int storePort = byteBuffer.getInt();
            InetAddress storeAddress = InetAddress.getByAddress(storeIp);
            msgExt.setStoreHost(new InetSocketAddress(storeAddress, storePort));

            // 13 RECONSUMETIMES
            msgExt.setReconsumeTimes(byteBuffer.getInt());
            // 14 Prepared Transaction Offset
            msgExt.setPreparedTransactionOffset(byteBuffer.getLong());

            // 15 BODY
            int bodyLen = byteBuffer.getInt();
            if (bodyLen > 0) {
                if (readBody) {
                    if (bodyLen > byteBuffer.remaining()) {
                        // Stock allocates the array first and then fails the same way.
                        throw new BufferUnderflowException();
                    }
                    byte[] body = new byte[bodyLen];
                    byteBuffer.get(body);
                    if (deCompressBody && (sysFlag & MessageSysFlag.COMPRESSED_FLAG) == MessageSysFlag.COMPRESSED_FLAG) {
                        body = rules.decompress(body, sysFlag);
                    }
                    msgExt.setBody(body);
                } else {
                    byteBuffer.position(byteBuffer.position() + bodyLen);
                }
            }

            // 16 TOPIC
            msgExt.setTopic(topic(byteBuffer, byteBuffer.get(), s));

            // 17 properties
            short propertiesLength = byteBuffer.getShort();
            if (propertiesLength > 0) {
                MessageAccessor.setProperties(msgExt, properties(byteBuffer, propertiesLength, s, rules));
            }

            String msgId = offsetMsgId(storeAddress, storeIp, storePort, physicOffset, storeV6, s.hex);
            if (isClient) {
                ((MessageClientExt) msgExt).setOffsetMsgId(msgId);
            } else {
                msgExt.setMsgId(msgId);
            }
            return msgExt;
        } catch (Exception e) {
            byteBuffer.position(byteBuffer.limit());
        }
        return null;
    }

    /**
     * The {@code length} (positive) bytes of properties at the buffer's position, read past, parsed by the rules
     * ({@link DecodeRules#properties}) from a heap buffer's own array, or from a copy.
     */
    private static Map<String, String> properties(ByteBuffer byteBuffer, int length, Scratch s, DecodeRules rules) {
        if (length > byteBuffer.remaining()) {
            throw new BufferUnderflowException();
        }
        int pos = byteBuffer.position();
        byte[] bytes;
        int off;
        if (byteBuffer.hasArray()) {
            bytes = byteBuffer.array();
            off = byteBuffer.arrayOffset() + pos;
            byteBuffer.position(pos + length);
        } else {
            bytes = s.bytes;
            if (bytes == null || bytes.length < length) {
                bytes = new byte[length];
                if (length <= MAX_KEPT_BYTES) {
                    s.bytes = bytes;
                }
            }
            byteBuffer.get(bytes, 0, length);
            off = 0;
        }
        return rules.properties(bytes, off, length);
    }

    /** The topic of {@code length} bytes at the buffer's position, read past; the last topic's String when equal. */
    private static String topic(ByteBuffer byteBuffer, int length, Scratch s) {
        if (length < 0) {
            // Stock: new byte[length].
            throw new NegativeArraySizeException(Integer.toString(length));
        }
        if (length > byteBuffer.remaining()) {
            throw new BufferUnderflowException();
        }
        int pos = byteBuffer.position();
        if (s.topic != null && s.topicLength == length) {
            byte[] last = s.topicBytes;
            int i = 0;
            while (i < length && byteBuffer.get(pos + i) == last[i]) {
                i++;
            }
            if (i == length) {
                byteBuffer.position(pos + length);
                return s.topic;
            }
        }
        byte[] bytes = s.topicBytes;
        byteBuffer.get(bytes, 0, length);
        String topic = new String(bytes, 0, length, StandardCharsets.UTF_8);
        s.topic = topic;
        s.topicLength = length;
        return topic;
    }

    /**
     * Stock's {@code createMessageId(ByteBuffer.allocate(storeIpLength + 12), msgExt.getStoreHostBytes(), offset)} in
     * hex: the store address as its InetAddress gives it (4 bytes when {@code getByAddress} made an Inet4Address, also
     * of an IPv4-mapped IPv6 address), port, offset, in an id as long as the record's address field says (so an
     * IPv4-mapped address leaves 12 zero bytes at the end, as stock's half-filled buffer does).
     */
    static String offsetMsgId(InetAddress storeAddress, byte[] storeIp, int port, long offset, boolean storeV6,
                              char[] hex) {
        int p = 0;
        if (storeAddress instanceof Inet4Address) {
            p = hex(storeIp, storeIp.length - 4, 4, hex, p);
        } else {
            p = hex(storeIp, 0, 16, hex, p);
        }
        for (int shift = 24; shift >= 0; shift -= 8) {
            p = hexByte(port >>> shift, hex, p);
        }
        for (int shift = 56; shift >= 0; shift -= 8) {
            p = hexByte((int) (offset >>> shift), hex, p);
        }
        int length = ((storeV6 ? 16 : 4) + 4 + 8) * 2;
        while (p < length) {
            hex[p++] = '0';
        }
        return new String(hex, 0, length);
    }

    private static int hex(byte[] bytes, int from, int n, char[] hex, int p) {
        for (int i = from; i < from + n; i++) {
            p = hexByte(bytes[i], hex, p);
        }
        return p;
    }

    private static int hexByte(int b, char[] hex, int p) {
        hex[p] = HEX[(b >>> 4) & 0x0F];
        hex[p + 1] = HEX[b & 0x0F];
        return p + 2;
    }
}
