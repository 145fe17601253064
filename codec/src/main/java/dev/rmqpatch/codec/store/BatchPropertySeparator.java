package dev.rmqpatch.codec.store;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;

/**
 * P36. A batch from a 4.9.1+ client keeps every message's last property on a 4.9.0 broker.
 *
 * <p>4.9.0's {@code CommitLog$MessageExtBatchEncoder.encode} stores each message of a batch with its own properties
 * string (as the client wrote it) followed at once by the batch's properties (the request header's, with CLUSTER the
 * broker adds), which 4.9.0's {@code messageProperties2String} ends with the separator (char 2). A 4.9.0 client ends
 * each message's string with the separator too; 4.9.1+ clients ({@code messageProperties2String} since 4.9.1) do not,
 * so the message's last value and the batch's first key run together ("...k\u0001vCLUSTER\u0001c\u0002") and both are
 * lost when the message is read. 4.9.7's encoder ({@code CommitLog$MessageExtEncoder.encode(MessageExtBatch,
 * PutMessageContext)}) writes one separator in between when the message has properties, the batch has properties and
 * the message's last byte is not the separator, and its batch string has no separator at its end. For such a message
 * this class stores exactly 4.9.7's bytes: the message's properties, the separator, the batch's string without its
 * last separator; the same length as stock's, so every size and offset is stock's.
 *
 * <p>{@link #encode} runs at the entry of stock's encode and returns null (stock's body runs) for everything but a
 * well-formed batch in which at least one message needs the separator: a batch of 4.9.0 clients (every message's
 * properties end with the separator, or are empty) is encoded by stock's own code, byte for byte; so is anything
 * malformed (lengths past the body, negative lengths, a truncated message), anything stock refuses (over
 * {@code maxMessageSize}) or writes wrongly (over {@code Short.MAX_VALUE} of properties, a host whose family is not its
 * sysFlag bit's), and anything that throws here: stock then meets the same input and answers as it always did. In a
 * batch this class encodes, a message that ends with the separator gets stock's bytes.
 *
 * <p>One difference from 4.9.7, on purpose: a 5.x client gives the batch a {@code UNIQ_KEY} of its own besides each
 * message's, and 4.9.7's join (like 5.x brokers' until upstream #9416 stopped joining the batch's properties) stores it
 * after the message's, where it wins when the message is read: every message of the batch is then consumed with the
 * batch's message id (upstream issue #9416). Stock 4.9.0 keeps each message's own id there (it loses the message's
 * last property instead). So for a message that needs the separator, the batch's string is written without its
 * {@code UNIQ_KEY}: the message keeps its own id and every property, as 4.9.0 and 4.9.7 clients' messages do on 4.9.7.
 * Without a batch {@code UNIQ_KEY} (every 4.x client) the bytes are 4.9.7's.
 */
public final class BatchPropertySeparator {

    /** MessageDecoder.PROPERTY_SEPARATOR. */
    static final byte PROPERTY_SEPARATOR = 2;
    /** CommitLog.MESSAGE_MAGIC_CODE. */
    static final int MESSAGE_MAGIC_CODE = -626843481;
    /** A batch message's fixed head: TOTALSIZE, MAGICCODE, BODYCRC, FLAG, BODY length. */
    private static final int HEAD = 4 + 4 + 4 + 4 + 4;

    private BatchPropertySeparator() {
    }

    /**
     * Entry of {@code CommitLog$MessageExtBatchEncoder.encode(MessageExtBatch)}, with the encoder's buffer and
     * {@code maxMessageSize}: the encoded batch (in {@code msgBatchMemory}, flipped, as stock returns it), or null
     * for stock's body to run.
     */
    public static ByteBuffer encode(ByteBuffer msgBatchMemory, int maxMessageSize, MessageExtBatch batch) {
        try {
            byte[] body = batch.getBody();
            if (body == null || !needsSeparator(body)) {
                return null;
            }
            Map<String, String> batchProperties = batch.getProperties();
            String batchPropStr = MessageDecoder.messageProperties2String(batchProperties);
            byte[] batchPropData = batchPropStr.getBytes(MessageDecoder.CHARSET_UTF8);
            int batchPropLen = batchPropData.length;
            if (batchPropLen == 0 || batchPropLen > Short.MAX_VALUE
                || batchPropData[batchPropLen - 1] != PROPERTY_SEPARATOR) {
                return null; // nothing appended (stock's bytes are 4.9.7's), stock's own overflow, or not 4.9.0's string
            }
            byte[] joined = joinedBatchProperties(batchProperties, batchPropData);
            if (joined.length == 0) {
                return null; // the batch's only property was its UNIQ_KEY: an odd batch, stock's body judges it
            }
            byte[] topicData = batch.getTopic().getBytes(MessageDecoder.CHARSET_UTF8);
            int sysFlag = batch.getSysFlag();
            // Judged on stock's lengths: what stock refuses is refused by stock (a joined string is never longer).
            if (!fits(body, maxMessageSize, sysFlag, topicData.length, batchPropLen)) {
                return null;
            }
            return write(msgBatchMemory, batch, body, sysFlag, topicData, batchPropData, joined);
        } catch (RuntimeException e) {
            return null; // stock's body meets the same input and answers as it does
        }
    }

    /**
     * Whether the body is a well-formed run of batch messages of which at least one has properties that do not end
     * with the separator. False for anything malformed, so stock's body judges it.
     */
    static boolean needsSeparator(byte[] body) {
        boolean needed = false;
        int pos = 0;
        int end = body.length;
        while (pos < end) {
            if (end - pos < HEAD) {
                return false;
            }
            int bodyLen = readInt(body, pos + 16);
            pos += HEAD;
            if (bodyLen < 0 || bodyLen > end - pos) {
                return false;
            }
            pos += bodyLen;
            if (end - pos < 2) {
                return false;
            }
            int propertiesLen = (short) (((body[pos] & 0xff) << 8) | (body[pos + 1] & 0xff));
            pos += 2;
            if (propertiesLen < 0 || propertiesLen > end - pos) {
                return false;
            }
            pos += propertiesLen;
            if (propertiesLen > 0 && body[pos - 1] != PROPERTY_SEPARATOR) {
                needed = true;
            }
        }
        return needed;
    }

    /**
     * The batch's properties string as joined behind a message that lacks the separator: the whole string, ending with
     * the separator, but without the batch's own {@code UNIQ_KEY} (see the class comment); the string itself where the
     * batch has none.
     */
    static byte[] joinedBatchProperties(Map<String, String> batchProperties, byte[] batchPropData) {
        if (batchProperties == null || !batchProperties.containsKey(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX)) {
            return batchPropData;
        }
        // The batch's own entries in its own order (4.9.7's string, less one entry): a copy in iteration order.
        Map<String, String> withoutKey = new LinkedHashMap<String, String>();
        for (Map.Entry<String, String> e : batchProperties.entrySet()) {
            if (!MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX.equals(e.getKey())) {
                withoutKey.put(e.getKey(), e.getValue());
            }
        }
        return MessageDecoder.messageProperties2String(withoutKey).getBytes(MessageDecoder.CHARSET_UTF8);
    }

    /** Stock's two size checks, and every properties length within a short (stock writes a wrong one otherwise). */
    private static boolean fits(byte[] body, int maxMessageSize, int sysFlag, int topicLength, int batchPropLen) {
        long total = 0;
        int pos = 0;
        while (pos < body.length) {
            int bodyLen = readInt(body, pos + 16);
            pos += HEAD + bodyLen;
            int propertiesLen = (short) (((body[pos] & 0xff) << 8) | (body[pos + 1] & 0xff));
            pos += 2 + propertiesLen;
            int totalPropLen = propertiesLen + batchPropLen;
            if (totalPropLen > Short.MAX_VALUE) {
                return false;
            }
            int msgLen = calMsgLength(sysFlag, bodyLen, topicLength, totalPropLen);
            if (msgLen > maxMessageSize) {
                return false;
            }
            total += msgLen;
            if (total > maxMessageSize) {
                return false;
            }
        }
        return true;
    }

    /**
     * Stock's encode loop (4.9.0); a message whose properties do not end with the separator gets 4.9.7's properties:
     * its own, the separator, the batch's ({@code joined}: without the batch's UNIQ_KEY) without their last separator.
     */
    private static ByteBuffer write(ByteBuffer out, MessageExtBatch batch, byte[] body, int sysFlag, byte[] topicData,
                                    byte[] batchPropData, byte[] joined) {
        int bornHostLength = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? 4 + 4 : 16 + 4;
        int storeHostLength = (sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) == 0 ? 4 + 4 : 16 + 4;
        ByteBuffer bornHostHolder = ByteBuffer.allocate(bornHostLength);
        ByteBuffer storeHostHolder = ByteBuffer.allocate(storeHostLength);
        byte[] bornHost = hostBytes(batch.getBornHostBytes(bornHostHolder));
        byte[] storeHost = hostBytes(batch.getStoreHostBytes(storeHostHolder));
        if (bornHost.length != bornHostLength || storeHost.length != storeHostLength) {
            return null; // a host whose family is not its sysFlag bit's: stock's own code judges it
        }
        int queueId = batch.getQueueId();
        long bornTimestamp = batch.getBornTimestamp();
        long storeTimestamp = batch.getStoreTimestamp();
        int reconsumeTimes = batch.getReconsumeTimes();
        int topicLength = topicData.length;
        int batchPropLen = batchPropData.length;
        out.clear();
        int pos = 0;
        while (pos < body.length) {
            int flag = readInt(body, pos + 12);
            int bodyLen = readInt(body, pos + 16);
            int bodyPos = pos + HEAD;
            int bodyCrc = UtilAll.crc32(body, bodyPos, bodyLen);
            pos = bodyPos + bodyLen;
            int propertiesLen = (short) (((body[pos] & 0xff) << 8) | (body[pos + 1] & 0xff));
            int propertiesPos = pos + 2;
            pos = propertiesPos + propertiesLen;
            boolean separator = propertiesLen > 0 && body[pos - 1] != PROPERTY_SEPARATOR;
            int totalPropLen = propertiesLen + (separator ? joined.length : batchPropLen);
            int msgLen = calMsgLength(sysFlag, bodyLen, topicLength, totalPropLen);
            // 1 TOTALSIZE, 2 MAGICCODE, 3 BODYCRC, 4 QUEUEID, 5 FLAG
            out.putInt(msgLen);
            out.putInt(MESSAGE_MAGIC_CODE);
            out.putInt(bodyCrc);
            out.putInt(queueId);
            out.putInt(flag);
            // 6 QUEUEOFFSET, 7 PHYSICALOFFSET: written under the lock
            out.putLong(0);
            out.putLong(0);
            // 8 SYSFLAG, 9 BORNTIMESTAMP, 10 BORNHOST, 11 STORETIMESTAMP, 12 STOREHOSTADDRESS
            out.putInt(sysFlag);
            out.putLong(bornTimestamp);
            out.put(bornHost);
            out.putLong(storeTimestamp);
            out.put(storeHost);
            // 13 RECONSUMETIMES, 14 Prepared Transaction Offset (a batch has no transaction)
            out.putInt(reconsumeTimes);
            out.putLong(0);
            // 15 BODY
            out.putInt(bodyLen);
            if (bodyLen > 0) {
                out.put(body, bodyPos, bodyLen);
            }
            // 16 TOPIC
            out.put((byte) topicLength);
            out.put(topicData);
            // 17 PROPERTIES: the message's, then the batch's; moved behind a separator where the message has none
            out.putShort((short) totalPropLen);
            if (propertiesLen > 0) {
                out.put(body, propertiesPos, propertiesLen);
            }
            if (separator) {
                out.put(PROPERTY_SEPARATOR);
                out.put(joined, 0, joined.length - 1);
            } else {
                out.put(batchPropData, 0, batchPropLen);
            }
        }
        out.flip();
        return out;
    }

    /** The bytes stock puts for a host: what {@code getBornHostBytes(holder)} left between 0 and the limit. */
    private static byte[] hostBytes(ByteBuffer holder) {
        ByteBuffer b = holder.duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return bytes;
    }

    private static int readInt(byte[] b, int i) {
        return ((b[i] & 0xff) << 24) | ((b[i + 1] & 0xff) << 16) | ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
    }

    /** CommitLog.calMsgLength (protected there). */
    static int calMsgLength(int sysFlag, int bodyLength, int topicLength, int propertiesLength) {
        return EncodeOutsideLock.calMsgLength(sysFlag, bodyLength, topicLength, propertiesLength);
    }
}
