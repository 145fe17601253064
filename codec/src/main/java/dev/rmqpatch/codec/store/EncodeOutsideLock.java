package dev.rmqpatch.codec.store;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;

import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.AppendMessageStatus;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageLock;
import org.apache.rocketmq.store.PutMessageResult;

/**
 * P20. A single message is encoded into a per-thread buffer before {@code CommitLog.putMessage} /
 * {@code asyncPutMessage} take the put lock, where 4.9.0 encodes it inside the lock
 * ({@code CommitLog$DefaultAppendMessageCallback.doAppend(..., MessageExtBrokerInner)}); under the lock only the
 * queue offset, the physical offset and the store timestamp are written into the encoded bytes, which are then
 * copied into the CommitLog; the msgId string is built when it is first read, not under the lock. Upstream did the
 * same in 4.9.1 (apache/rocketmq#2889).
 *
 * <p>The layout is stock's (4.9.0 {@code doAppend} and {@code calMsgLength}). Everything but the plain case runs
 * stock's own code: a message that is not encoded here (properties over {@code Short.MAX_VALUE}, a size over the
 * largest {@code maxMessageSize} seen, a born or store host whose address family does not match its sysFlag bit, or
 * anything that throws) and one that {@link #doAppend} declines (over {@code maxMessageSize}, or not enough room left in
 * the file: stock writes the END_OF_FILE blank and the put retries in a new file, which uses the encoded bytes)
 * goes through the stock body of {@code doAppend}, with its results, bookkeeping and log lines.
 *
 * <p>Calls: {@link #beginPut} / {@link #beginAsyncPut} at the entry of the two put methods remember the message;
 * {@link #lock} replaces their {@code putMessageLock.lock()} and encodes it first; {@link #doAppend} runs at the
 * entry of {@code doAppend} (through a method P20 adds to the callback, which passes its private state).
 */
public final class EncodeOutsideLock {

    /** CommitLog$DefaultAppendMessageCallback.END_FILE_MIN_BLANK_LENGTH. */
    static final int END_FILE_MIN_BLANK_LENGTH = 4 + 4;
    /** Where stock writes 6 QUEUEOFFSET and 7 PHYSICALOFFSET: after TOTALSIZE, MAGICCODE, BODYCRC, QUEUEID, FLAG. */
    static final int QUEUE_OFFSET_POSITION = 20;
    static final int PHYSICAL_OFFSET_POSITION = 28;
    /** 10 BORNHOST follows 8 SYSFLAG and 9 BORNTIMESTAMP; 11 STORETIMESTAMP follows it. */
    static final int BORN_HOST_POSITION = 48;
    /** CommitLog.MESSAGE_MAGIC_CODE. */
    static final int MESSAGE_MAGIC_CODE = -626843481;

    /**
     * The largest size worth encoding before the lock: the {@code maxMessageSize} of the last {@code doAppend}
     * (stock's default until then). Only a bound against encoding what stock will refuse; {@link #doAppend} checks
     * its own callback's size.
     */
    private static volatile int encodeLimit = 1024 * 1024 * 4;

    private static final ThreadLocal<Encoded> STATE = new ThreadLocal<Encoded>() {
        @Override
        protected Encoded initialValue() {
            return new Encoded();
        }
    };

    /** One thread's message between the put's entry and its append. */
    static final class Encoded {
        /** Remembered at the put's entry, encoded (and cleared) just before the lock. */
        MessageExtBrokerInner pending;
        /** The message whose bytes {@link #buffer} holds, or null. */
        MessageExtBrokerInner msg;
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        int msgLen;
        int storeTimestampPosition;
        int tranType;
        String key;
    }

    private EncodeOutsideLock() {
    }

    /** Entry of CommitLog.putMessage(MessageExtBrokerInner): remembers the message; the stock body always runs. */
    public static PutMessageResult beginPut(CommitLog commitLog, MessageExtBrokerInner msg) {
        remember(msg);
        return null;
    }

    /** Entry of CommitLog.asyncPutMessage(MessageExtBrokerInner): as {@link #beginPut}. */
    public static CompletableFuture<PutMessageResult> beginAsyncPut(CommitLog commitLog, MessageExtBrokerInner msg) {
        remember(msg);
        return null;
    }

    private static void remember(MessageExtBrokerInner msg) {
        Encoded e = STATE.get();
        e.pending = msg;
        e.msg = null;
    }

    /**
     * {@code putMessageLock.lock()} in the two put methods: encodes the message remembered at their entry (after
     * all their changes to it: delay level, host flags, body CRC), then takes the lock.
     */
    public static void lock(PutMessageLock lock) {
        Encoded e = STATE.get();
        MessageExtBrokerInner msg = e.pending;
        e.pending = null;
        e.msg = null;
        if (msg != null) {
            try {
                encode(e, msg, encodeLimit);
            } catch (RuntimeException ex) {
                // Stock's doAppend meets the same input under the lock and throws there, as stock.
                e.msg = null;
            }
        }
        lock.lock();
    }

    /** Encodes {@code msg} as stock's doAppend does, with zeros for the three fields written under the lock. */
    static void encode(Encoded e, MessageExtBrokerInner msg, int limit) {
        int sysFlag = msg.getSysFlag();
        boolean bornV6 = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) != 0;
        boolean storeV6 = (sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) != 0;
        InetSocketAddress born = (InetSocketAddress) msg.getBornHost();
        InetSocketAddress store = (InetSocketAddress) msg.getStoreHost();
        if (!familyMatches(born.getAddress(), bornV6) || !familyMatches(store.getAddress(), storeV6)) {
            return;
        }
        String properties = msg.getPropertiesString();
        byte[] propertiesData = properties == null ? null : properties.getBytes(MessageDecoder.CHARSET_UTF8);
        int propertiesLength = propertiesData == null ? 0 : propertiesData.length;
        if (propertiesLength > Short.MAX_VALUE) {
            return;
        }
        byte[] topicData = msg.getTopic().getBytes(MessageDecoder.CHARSET_UTF8);
        int topicLength = topicData.length;
        byte[] body = msg.getBody();
        int bodyLength = body == null ? 0 : body.length;
        int msgLen = calMsgLength(sysFlag, bodyLength, topicLength, propertiesLength);
        if (msgLen < 0 || msgLen > limit) {
            return;
        }
        ByteBuffer b = e.buffer;
        if (b.capacity() < msgLen) {
            b = ByteBuffer.allocate(Math.max(msgLen, Math.min(2 * b.capacity(), limit)));
            e.buffer = b;
        }
        b.clear();
        b.limit(msgLen);
        // 1 TOTALSIZE, 2 MAGICCODE, 3 BODYCRC, 4 QUEUEID, 5 FLAG
        b.putInt(msgLen);
        b.putInt(MESSAGE_MAGIC_CODE);
        b.putInt(msg.getBodyCRC());
        b.putInt(msg.getQueueId());
        b.putInt(msg.getFlag());
        // 6 QUEUEOFFSET, 7 PHYSICALOFFSET: under the lock
        b.putLong(0L);
        b.putLong(0L);
        // 8 SYSFLAG, 9 BORNTIMESTAMP, 10 BORNHOST
        b.putInt(sysFlag);
        b.putLong(msg.getBornTimestamp());
        putHost(b, born);
        // 11 STORETIMESTAMP: under the lock
        int storeTimestampPosition = b.position();
        b.putLong(0L);
        // 12 STOREHOSTADDRESS, 13 RECONSUMETIMES, 14 Prepared Transaction Offset
        putHost(b, store);
        b.putInt(msg.getReconsumeTimes());
        b.putLong(msg.getPreparedTransactionOffset());
        // 15 BODY
        b.putInt(bodyLength);
        if (bodyLength > 0) {
            b.put(body);
        }
        // 16 TOPIC
        b.put((byte) topicLength);
        b.put(topicData);
        // 17 PROPERTIES
        b.putShort((short) propertiesLength);
        if (propertiesLength > 0) {
            b.put(propertiesData);
        }
        if (b.position() != msgLen) {
            return; // cannot happen with matching families; stock's own code would be the judge
        }
        e.msgLen = msgLen;
        e.storeTimestampPosition = storeTimestampPosition;
        e.tranType = MessageSysFlag.getTransactionValue(sysFlag);
        e.key = msg.getTopic() + '-' + msg.getQueueId();
        e.msg = msg;
    }

    private static boolean familyMatches(InetAddress address, boolean v6) {
        return v6 ? address instanceof Inet6Address : address instanceof Inet4Address;
    }

    /** MessageExt.socketAddress2ByteBuffer for a family that matches the flag. */
    private static void putHost(ByteBuffer b, InetSocketAddress host) {
        b.put(host.getAddress().getAddress());
        b.putInt(host.getPort());
    }

    /** CommitLog.calMsgLength (protected there). */
    static int calMsgLength(int sysFlag, int bodyLength, int topicLength, int propertiesLength) {
        int bornhostLength = (sysFlag & MessageSysFlag.BORNHOST_V6_FLAG) == 0 ? 8 : 20;
        int storehostAddressLength = (sysFlag & MessageSysFlag.STOREHOSTADDRESS_V6_FLAG) == 0 ? 8 : 20;
        return 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornhostLength + 8 + storehostAddressLength + 4 + 8
            + 4 + (bodyLength > 0 ? bodyLength : 0)
            + 1 + topicLength
            + 2 + (propertiesLength > 0 ? propertiesLength : 0);
    }

    /**
     * Entry of {@code DefaultAppendMessageCallback.doAppend(long, ByteBuffer, int, MessageExtBrokerInner)}, under the
     * put lock, with the callback's {@code maxMessageSize} and its CommitLog's {@code topicQueueTable} and store.
     * Writes the message encoded before the lock and returns stock's PUT_OK result; returns null (the stock body
     * runs) for a message not encoded on this thread, one over {@code maxMessageSize} and one that does not fit in
     * {@code maxBlank}: stock writes the END_OF_FILE blank, and the retry in the next file comes back here.
     */
    public static AppendMessageResult doAppend(int maxMessageSize, HashMap<String, Long> topicQueueTable,
                                               DefaultMessageStore store, long fileFromOffset, ByteBuffer byteBuffer,
                                               int maxBlank, MessageExtBrokerInner msg) {
        Encoded e = STATE.get();
        if (e.msg != msg) {
            return null;
        }
        if (encodeLimit != maxMessageSize) {
            encodeLimit = maxMessageSize;
        }
        int msgLen = e.msgLen;
        if (msgLen > maxMessageSize) {
            e.msg = null;
            return null;
        }
        if (msgLen + END_FILE_MIN_BLANK_LENGTH > maxBlank) {
            return null; // END_OF_FILE: stock's blank; the encoded bytes stay for the retry
        }
        // PHY OFFSET
        long wroteOffset = fileFromOffset + byteBuffer.position();
        String key = e.key;
        Long queueOffset = topicQueueTable.get(key);
        if (null == queueOffset) {
            queueOffset = 0L;
            topicQueueTable.put(key, queueOffset);
        }
        boolean notConsumed = e.tranType == MessageSysFlag.TRANSACTION_PREPARED_TYPE
            || e.tranType == MessageSysFlag.TRANSACTION_ROLLBACK_TYPE;
        long logicsOffset = notConsumed ? 0L : queueOffset;
        long storeTimestamp = msg.getStoreTimestamp();
        ByteBuffer b = e.buffer;
        b.putLong(QUEUE_OFFSET_POSITION, logicsOffset);
        b.putLong(PHYSICAL_OFFSET_POSITION, wroteOffset);
        b.putLong(e.storeTimestampPosition, storeTimestamp);

        final long beginTimeMills = store.now();
        byteBuffer.put(b.array(), 0, msgLen);
        AppendMessageResult result = new EncodedAppendResult(wroteOffset, msgLen, msg.getStoreHost(), storeTimestamp,
            logicsOffset, store.now() - beginTimeMills);
        if (!notConsumed) {
            // The next update ConsumeQueue information
            topicQueueTable.put(key, queueOffset + 1);
        }
        e.msg = null;
        return result;
    }

    /**
     * Stock's PUT_OK result, whose msgId is made from the store host and the wrote offset when first read (stock
     * makes it under the lock, with the same bytes: {@code MessageDecoder.createMessageId} of the host in its
     * family's length, the port and the offset).
     */
    static final class EncodedAppendResult extends AppendMessageResult {
        private final SocketAddress storeHost;

        EncodedAppendResult(long wroteOffset, int wroteBytes, SocketAddress storeHost, long storeTimestamp,
                            long logicsOffset, long pagecacheRT) {
            super(AppendMessageStatus.PUT_OK, wroteOffset, wroteBytes, null, storeTimestamp, logicsOffset, pagecacheRT);
            this.storeHost = storeHost;
        }

        @Override
        public String getMsgId() {
            String id = super.getMsgId();
            if (id == null) {
                id = MessageDecoder.createMessageId(storeHost, getWroteOffset());
                super.setMsgId(id);
            }
            return id;
        }

        @Override
        public String toString() {
            return "AppendMessageResult{" +
                "status=" + getStatus() +
                ", wroteOffset=" + getWroteOffset() +
                ", wroteBytes=" + getWroteBytes() +
                ", msgId='" + getMsgId() + '\'' +
                ", storeTimestamp=" + getStoreTimestamp() +
                ", logicsOffset=" + getLogicsOffset() +
                ", pagecacheRT=" + getPagecacheRT() +
                ", msgNum=" + getMsgNum() +
                '}';
        }
    }
}
