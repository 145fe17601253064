package dev.rmqpatch.bench.agent.wire;

import dev.rmqpatch.bench.wire.Decimal;
import dev.rmqpatch.bench.wire.FrameTemplate;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The SEND_MESSAGE_V2 frames of one producer: the request a stock 4.9.0 {@code DefaultMQProducer} builds in
 * {@code sendKernelImpl} / {@code MQClientAPIImpl.sendMessage}, encoded once by stock code into a {@link FrameTemplate},
 * with only the opaque, the born timestamp, the queue id, the unique key and, for a producer with a key per message,
 * the KEYS value written per message, then the message's body (one of the pool, compressed once where the stock client
 * would compress it).
 *
 * <p>The KEYS value can be spliced in because the properties string's order comes from the message's property
 * HashMap, whose iteration order depends on the property names and their number, never on the values: every message of
 * the producer has the same names, so KEYS sits at the same place in every header.
 *
 * <p>At construction the writer is checked against stock encoding for a few sets of values, byte for byte; a
 * RocketMQ version whose header this cannot reproduce fails here, at prepare, not silently in the broker.
 */
public final class SendFrames {
    static final int OPAQUE = 0;
    static final int BORN_TIMESTAMP = 1;
    static final int QUEUE_ID = 2;
    static final int UNIQ_KEY = 3;
    static final int KEYS = 4;

    // Values no real field holds; each must occur exactly once in the encoded header (FrameTemplate checks).
    private static final int OPAQUE_SENTINEL = 1357924680;
    private static final long BORN_SENTINEL = 9753108642013L;
    private static final int QUEUE_SENTINEL = 1246803579;
    private static final String KEYS_SENTINEL = "kEySeNtInEl7x3";

    private final MessageSpec spec;
    private final UniqueKeys keys;
    private final FrameTemplate template;
    /** The bodies as sent: each compressed once when the stock client would compress it. */
    private final byte[][] wireBodies;
    private final boolean compressed;
    private final int sysFlag;
    private final String createTopicKey;
    private final int defaultTopicQueueNums;

    public SendFrames(MessageSpec spec, UniqueKeys keys) {
        ensureClientVersion();
        this.spec = spec;
        this.keys = keys;
        // The settings a default-configured 4.9.0 producer sends with, read from the stock class.
        DefaultMQProducer defaults = new DefaultMQProducer();
        this.createTopicKey = defaults.getCreateTopicKey();
        this.defaultTopicQueueNums = defaults.getDefaultTopicQueueNums();
        int n = spec.bodies.size();
        this.wireBodies = new byte[n][];
        boolean anyCompressed = false;
        boolean anyPlain = false;
        for (int i = 0; i < n; i++) {
            byte[] body = spec.bodies.get(i);
            // DefaultMQProducerImpl.tryToCompressMessage: from compressMsgBodyOverHowmuch (4 KiB) on.
            if (body.length >= defaults.getCompressMsgBodyOverHowmuch()) {
                try {
                    body = UtilAll.compress(body, defaults.getDefaultMQProducerImpl().getZipCompressLevel());
                } catch (IOException e) {
                    throw new IllegalStateException("could not compress the body as the stock client would: " + e, e);
                }
                anyCompressed = true;
            } else {
                anyPlain = true;
            }
            wireBodies[i] = body;
        }
        if (anyCompressed && anyPlain) {
            // The sysFlag is in the constant part of the header; a pool's bodies all have the message size.
            throw new IllegalArgumentException("bodies on both sides of the client's compression threshold ("
                + defaults.getCompressMsgBodyOverHowmuch() + " bytes) in one producer");
        }
        this.compressed = anyCompressed;
        this.sysFlag = anyCompressed ? MessageSysFlag.COMPRESSED_FLAG : 0;
        String uniqSentinel = sentinelKey(keys.length());
        this.template = spec.keyPerMessage
            ? FrameTemplate.of(stockCommand(OPAQUE_SENTINEL, BORN_SENTINEL, QUEUE_SENTINEL, uniqSentinel, 0, KEYS_SENTINEL),
                Integer.toString(OPAQUE_SENTINEL), Long.toString(BORN_SENTINEL), Integer.toString(QUEUE_SENTINEL), uniqSentinel,
                KEYS_SENTINEL)
            : FrameTemplate.of(stockCommand(OPAQUE_SENTINEL, BORN_SENTINEL, QUEUE_SENTINEL, uniqSentinel, 0, null),
                Integer.toString(OPAQUE_SENTINEL), Long.toString(BORN_SENTINEL), Integer.toString(QUEUE_SENTINEL), uniqSentinel);
        selfCheck();
    }

    /**
     * The stock client sets the remoting version property when its API object is created (MQClientAPIImpl); a JVM
     * that only runs wire senders must set it the same way, or the header's "version" would differ.
     */
    static void ensureClientVersion() {
        if (System.getProperty(RemotingCommand.REMOTING_VERSION_KEY) == null) {
            System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        }
    }

    private static String sentinelKey(int length) {
        char[] c = new char[length];
        Arrays.fill(c, 'Q');
        return new String(c);
    }

    /**
     * The bytes of a KEYS value as the stock client's header carries them (UTF-8, inside the JSON string), or an
     * exception for a value that fastjson would escape or that would split the properties string: such a value cannot
     * be spliced into the pre-encoded text. OMB's keys (URL-safe base64) are all plain.
     */
    public static byte[] keyBytes(String key) {
        if (key.isEmpty() || key.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR) >= 0 || key.indexOf(MessageDecoder.PROPERTY_SEPARATOR) >= 0
            || !com.alibaba.fastjson.JSON.toJSONString(key).equals('"' + key + '"')) {
            throw new IllegalArgumentException("message key '" + key + "' is empty or is escaped in the JSON header; the wire client "
                + "splices keys in as they are");
        }
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether every message needs its own KEYS value (see {@link #write}). */
    public boolean keyPerMessage() {
        return spec.keyPerMessage;
    }

    /** Number of bodies in the pool; {@link #write} takes an index below it. */
    public int bodyCount() {
        return wireBodies.length;
    }

    /**
     * The command stock code builds for one message with these values (the path of sendKernelImpl, SEND_MESSAGE_V2);
     * {@code key} is the KEYS value of a producer with a key per message (else ignored).
     */
    public RemotingCommand stockCommand(int opaque, long bornTimestamp, int queueId, String uniqKey, int body, String key) {
        // The constructor RocketMqDriver uses: TAGS, KEYS, WAIT put in that order, then user properties, then UNIQ_KEY.
        Message msg = new Message(spec.topic, spec.tags, spec.keyPerMessage ? key : spec.keys, 0, spec.bodies.get(body), true);
        for (Map.Entry<String, String> p : spec.userProperties.entrySet()) {
            msg.putUserProperty(p.getKey(), p.getValue());
        }
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniqKey);
        SendMessageRequestHeader h = new SendMessageRequestHeader();
        h.setProducerGroup(spec.producerGroup);
        h.setTopic(msg.getTopic());
        h.setDefaultTopic(createTopicKey);
        h.setDefaultTopicQueueNums(defaultTopicQueueNums);
        h.setQueueId(queueId);
        h.setSysFlag(sysFlag);
        h.setBornTimestamp(bornTimestamp);
        h.setFlag(msg.getFlag());
        h.setProperties(MessageDecoder.messageProperties2String(msg.getProperties()));
        h.setReconsumeTimes(0);
        h.setUnitMode(false);
        h.setBatch(false);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
            SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(h));
        cmd.setOpaque(opaque);
        cmd.setBody(wireBodies[body]);
        if (spec.oneway) {
            cmd.markOnewayRPC();
        }
        return cmd;
    }

    /** The frame bytes (length field first) stock code writes for these values: stock NettyEncoder's output. */
    public byte[] stockFrame(int opaque, long bornTimestamp, int queueId, String uniqKey, int body, String key) {
        RemotingCommand cmd = stockCommand(opaque, bornTimestamp, queueId, uniqKey, body, key);
        byte[] wireBody = wireBodies[body];
        ByteBuffer header = cmd.encodeHeader(wireBody.length);
        byte[] frame = new byte[header.remaining() + wireBody.length];
        header.get(frame, 0, header.remaining());
        System.arraycopy(wireBody, 0, frame, frame.length - wireBody.length, wireBody.length);
        return frame;
    }

    private void selfCheck() {
        long now = System.currentTimeMillis();
        int last = wireBodies.length - 1;
        int[][] cases = {{0, 0, 0}, {7, 17, last}, {Integer.MAX_VALUE, 123, last / 2}};
        String[] sampleKeys = {"k", "Ab3_-xY9zQ", "key-with-a-longer-value_0123456789"};
        for (int i = 0; i < cases.length; i++) {
            int[] c = cases[i];
            String key = spec.keyPerMessage ? sampleKeys[i] : null;
            byte[] keyBytes = key == null ? null : keyBytes(key);
            String uniq = keys.next(now);
            byte[] expected = stockFrame(c[0], now, c[1], uniq, c[2], key);
            ByteBuf ours = io.netty.buffer.Unpooled.buffer(expected.length);
            writeWithUniq(ours, c[0], now, c[1], c[2], keyBytes, uniq.getBytes(StandardCharsets.US_ASCII));
            byte[] actual = new byte[ours.readableBytes()];
            ours.readBytes(actual);
            if (actual.length != frameLength(c[0], now, c[1], c[2], keyBytes) || !Arrays.equals(expected, actual)) {
                throw new IllegalStateException("the pre-encoded SEND_MESSAGE_V2 frame differs from stock encoding for opaque " + c[0]
                    + ", queue " + c[1] + ", body " + c[2] + (key == null ? "" : ", key " + key) + ":\nstock: "
                    + new String(expected, StandardCharsets.ISO_8859_1) + "\nours:  " + new String(actual, StandardCharsets.ISO_8859_1));
            }
        }
    }

    /** Bytes of the frame for these values, length field included; {@code key} as {@link #write} takes it. */
    public int frameLength(int opaque, long bornTimestamp, int queueId, int body, byte[] key) {
        return 8 + headerLength(opaque, bornTimestamp, queueId, key) + wireBodies[body].length;
    }

    private int headerLength(int opaque, long bornTimestamp, int queueId, byte[] key) {
        int n = template.constantLength() + Decimal.length(opaque) + Decimal.length(bornTimestamp) + Decimal.length(queueId) + keys.length();
        return spec.keyPerMessage ? n + key.length : n;
    }

    /**
     * Writes one message's frame with a fresh unique key: {@code body} indexes the pool, {@code key} is the KEYS value
     * from {@link #keyBytes} for a producer with a key per message, else ignored (null).
     */
    public void write(ByteBuf out, int opaque, long bornTimestamp, int queueId, int body, byte[] key) {
        writeWithUniq(out, opaque, bornTimestamp, queueId, body, key, null);
    }

    private void writeWithUniq(ByteBuf out, int opaque, long bornTimestamp, int queueId, int body, byte[] key, byte[] fixedUniq) {
        byte[] wireBody = wireBodies[body];
        int headerLength = headerLength(opaque, bornTimestamp, queueId, key);
        out.writeInt(4 + headerLength + wireBody.length);
        out.writeInt(template.headerLengthField(headerLength));
        int n = template.variableCount();
        for (int k = 0; k < n; k++) {
            out.writeBytes(template.segment(k));
            switch (template.variable(k)) {
                case OPAQUE:
                    Decimal.write(out, opaque);
                    break;
                case BORN_TIMESTAMP:
                    Decimal.write(out, bornTimestamp);
                    break;
                case QUEUE_ID:
                    Decimal.write(out, queueId);
                    break;
                case UNIQ_KEY:
                    if (fixedUniq != null) {
                        out.writeBytes(fixedUniq);
                    } else {
                        keys.write(out, bornTimestamp);
                    }
                    break;
                case KEYS:
                    out.writeBytes(key);
                    break;
                default:
                    throw new IllegalStateException("variable " + template.variable(k));
            }
        }
        out.writeBytes(template.segment(n));
        out.writeBytes(wireBody);
    }

    /** The bodies go out compressed (as the stock client does from 4 KiB): their bytes are not the messages'. */
    public boolean bodyCompressed() {
        return compressed;
    }

    /**
     * Overwrites the first bytes of the body of a frame just written by {@link #write} with {@code body} (the body ends
     * the frame), as the rocketmq client mode writes the stamp into its copy of the body.
     */
    public void stampBody(ByteBuf frame, int body, int stream, long sequence, long sendMicros) {
        byte[] stamp = new byte[dev.rmqpatch.bench.delivery.BodyStamp.LENGTH];
        dev.rmqpatch.bench.delivery.BodyStamp.write(stamp, 0, stream, sequence, sendMicros);
        frame.setBytes(frame.writerIndex() - wireBodies[body].length, stamp);
    }

    public String topic() {
        return spec.topic;
    }
}
