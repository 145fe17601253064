package dev.rmqpatch.bench.agent.wire;

import dev.rmqpatch.bench.wire.Decimal;
import dev.rmqpatch.bench.wire.FrameTemplate;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * with only the opaque, the born timestamp, the queue id and the unique key written per message.
 *
 * <p>At construction the writer is checked against stock encoding for a few sets of values, byte for byte; a
 * RocketMQ version whose header this cannot reproduce fails here, at prepare, not silently in the broker.
 */
public final class SendFrames {
    static final int OPAQUE = 0;
    static final int BORN_TIMESTAMP = 1;
    static final int QUEUE_ID = 2;
    static final int UNIQ_KEY = 3;

    // Values no real field holds; each must occur exactly once in the encoded header (FrameTemplate checks).
    private static final int OPAQUE_SENTINEL = 1357924680;
    private static final long BORN_SENTINEL = 9753108642013L;
    private static final int QUEUE_SENTINEL = 1246803579;

    private final MessageSpec spec;
    private final UniqueKeys keys;
    private final FrameTemplate template;
    /** The body as sent: compressed once when the stock client would compress it. */
    private final byte[] wireBody;
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
        int flag = 0;
        byte[] body = spec.body;
        if (body.length >= defaults.getCompressMsgBodyOverHowmuch()) {
            try {
                body = UtilAll.compress(body, defaults.getDefaultMQProducerImpl().getZipCompressLevel());
                flag |= MessageSysFlag.COMPRESSED_FLAG;
            } catch (IOException e) {
                throw new IllegalStateException("could not compress the body as the stock client would: " + e, e);
            }
        }
        this.wireBody = body;
        this.sysFlag = flag;
        this.template = FrameTemplate.of(stockCommand(OPAQUE_SENTINEL, BORN_SENTINEL, QUEUE_SENTINEL, sentinelKey(keys.length())),
            Integer.toString(OPAQUE_SENTINEL), Long.toString(BORN_SENTINEL), Integer.toString(QUEUE_SENTINEL), sentinelKey(keys.length()));
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

    /** The command stock code builds for one message with these values (the path of sendKernelImpl, SEND_MESSAGE_V2). */
    public RemotingCommand stockCommand(int opaque, long bornTimestamp, int queueId, String uniqKey) {
        Message msg = new Message(spec.topic, spec.tags, spec.keys, 0, spec.body, true);
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
        cmd.setBody(wireBody);
        if (spec.oneway) {
            cmd.markOnewayRPC();
        }
        return cmd;
    }

    /** The frame bytes (length field first) stock code writes for these values: stock NettyEncoder's output. */
    public byte[] stockFrame(int opaque, long bornTimestamp, int queueId, String uniqKey) {
        RemotingCommand cmd = stockCommand(opaque, bornTimestamp, queueId, uniqKey);
        ByteBuffer header = cmd.encodeHeader(wireBody.length);
        byte[] frame = new byte[header.remaining() + wireBody.length];
        header.get(frame, 0, header.remaining());
        System.arraycopy(wireBody, 0, frame, frame.length - wireBody.length, wireBody.length);
        return frame;
    }

    private void selfCheck() {
        long now = System.currentTimeMillis();
        int[][] cases = {{0, 0}, {7, 17}, {Integer.MAX_VALUE, 123}};
        for (int[] c : cases) {
            String key = keys.next(now);
            byte[] expected = stockFrame(c[0], now, c[1], key);
            ByteBuf ours = io.netty.buffer.Unpooled.buffer(expected.length);
            writeWithKey(ours, c[0], now, c[1], key.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            byte[] actual = new byte[ours.readableBytes()];
            ours.readBytes(actual);
            if (!Arrays.equals(expected, actual)) {
                throw new IllegalStateException("the pre-encoded SEND_MESSAGE_V2 frame differs from stock encoding for opaque " + c[0]
                    + ", queue " + c[1] + ":\nstock: " + new String(expected, java.nio.charset.StandardCharsets.ISO_8859_1)
                    + "\nours:  " + new String(actual, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
    }

    /** Bytes of the frame for these values, length field included. */
    public int frameLength(int opaque, long bornTimestamp, int queueId) {
        return 8 + headerLength(opaque, bornTimestamp, queueId) + wireBody.length;
    }

    private int headerLength(int opaque, long bornTimestamp, int queueId) {
        return template.constantLength() + Decimal.length(opaque) + Decimal.length(bornTimestamp) + Decimal.length(queueId) + keys.length();
    }

    /** Writes one message's frame with a fresh unique key. */
    public void write(ByteBuf out, int opaque, long bornTimestamp, int queueId) {
        writeWithKey(out, opaque, bornTimestamp, queueId, null);
    }

    private void writeWithKey(ByteBuf out, int opaque, long bornTimestamp, int queueId, byte[] fixedKey) {
        int headerLength = headerLength(opaque, bornTimestamp, queueId);
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
                    if (fixedKey != null) {
                        out.writeBytes(fixedKey);
                    } else {
                        keys.write(out, bornTimestamp);
                    }
                    break;
                default:
                    throw new IllegalStateException("variable " + template.variable(k));
            }
        }
        out.writeBytes(template.segment(n));
        out.writeBytes(wireBody);
    }

    /** The body went out compressed (as the stock client does from 4 KiB): its bytes are not the message's. */
    public boolean bodyCompressed() {
        return wireBody != spec.body;
    }

    /** Overwrites the first bytes of the body of a frame just written by {@link #write} (the body ends the frame). */
    public void stampBody(ByteBuf frame, int stream, long sequence, long sendMicros) {
        byte[] stamp = new byte[dev.rmqpatch.bench.delivery.BodyStamp.LENGTH];
        dev.rmqpatch.bench.delivery.BodyStamp.write(stamp, 0, stream, sequence, sendMicros);
        frame.setBytes(frame.writerIndex() - wireBody.length, stamp);
    }

    public String topic() {
        return spec.topic;
    }
}
