package dev.rmqpatch.jmh;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.message.MessageDecodes;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P28 (consume decode): a 4.9.0 push consumer's work on one pull response of 32 messages, stock
 * {@code MessageDecoder.decodes} against {@code MessageDecodes.decodes}. Each pair is {@code <op>Stock} /
 * {@code <op>Patched}; one operation is one pull response (32 messages).
 * <ul>
 *   <li>{@code decodes}: the body to 32 MessageClientExt.</li>
 *   <li>{@code pullResult}: that, then what {@code PullAPIWrapper.processPullResult} does per message (the same code
 *       in both: the transaction flag looked up, MIN_OFFSET and MAX_OFFSET put as Strings, the broker name set;
 *       the subscription is "*", so no tag filter), the consumer's whole per-message decode work.</li>
 * </ul>
 * The body is what a stock 4.9.0 broker returns for 32 messages of 300 bytes sent by a 4.9.0 producer: its CommitLog
 * records (written here by stock {@code MessageDecoder.encode}, the CommitLog's layout) with the producer's properties
 * ({@link Inputs#producerProperties}, a fresh UNIQ_KEY per message) plus the CLUSTER the broker adds, as 4.9.0 stores
 * them (WAIT included, trailing separator).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ConsumeDecodeBenchmark {

    static final int MESSAGES = PullInputs.PULL_BATCH_SIZE;
    static final int BODY_SIZE = 300;
    static final String BROKER_NAME = "broker-a";

    /** One pull response's body. */
    @State(Scope.Benchmark)
    public static class PullBody {

        @Param({Inputs.TYPICAL, Inputs.LARGE})
        public String input;

        public byte[] body;
        public long minOffset;
        public long maxOffset;

        /** For tests: a body of one kind, set up as JMH would. */
        public static PullBody of(String input) throws Exception {
            PullBody b = new PullBody();
            b.input = input;
            b.setup();
            return b;
        }

        @Setup
        public void setup() throws Exception {
            String producer = Inputs.producerProperties(input);
            String uniq = MessageDecoder.string2messageProperties(producer)
                .get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            long commitLogOffset = 1_073_741_824L * 3;
            for (int i = 0; i < MESSAGES; i++) {
                Map<String, String> props = MessageDecoder.string2messageProperties(producer);
                String n = Integer.toHexString(0x1000 + i).toUpperCase();
                props.put(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, uniq.substring(0, uniq.length() - 4) + n);
                props.put(MessageConst.PROPERTY_CLUSTER, Inputs.CLUSTER_NAME);
                MessageExt m = new MessageExt();
                m.setTopic(PullInputs.TOPIC);
                byte[] payload = new byte[BODY_SIZE];
                for (int j = 0; j < payload.length; j++) {
                    payload[j] = (byte) ('a' + (i + j) % 26);
                }
                m.setBody(payload);
                m.setBodyCRC(UtilAll.crc32(payload));
                m.setQueueId(PullInputs.QUEUE_ID);
                m.setQueueOffset(PullInputs.QUEUE_OFFSET + i);
                m.setCommitLogOffset(commitLogOffset);
                m.setSysFlag(0);
                m.setBornTimestamp(1_718_000_000_123L + i);
                m.setBornHost(new InetSocketAddress("10.0.0.7", 53_211));
                m.setStoreTimestamp(1_718_000_000_125L + i);
                m.setStoreHost(new InetSocketAddress("10.0.0.1", 10_911));
                MessageAccessor.setProperties(m, props);
                byte[] record = MessageDecoder.encode(m, false);
                out.write(record);
                commitLogOffset += record.length;
            }
            body = out.toByteArray();
            minOffset = 0;
            maxOffset = PullInputs.QUEUE_OFFSET + MESSAGES;
        }
    }

    @Benchmark
    public List<MessageExt> decodesStock(PullBody in) {
        return MessageDecoder.decodes(ByteBuffer.wrap(in.body));
    }

    @Benchmark
    public List<MessageExt> decodesPatched(PullBody in) {
        return MessageDecodes.decodes(ByteBuffer.wrap(in.body), true);
    }

    @Benchmark
    public List<MessageExt> pullResultStock(PullBody in) {
        return processPullResult(MessageDecoder.decodes(ByteBuffer.wrap(in.body)), in);
    }

    @Benchmark
    public List<MessageExt> pullResultPatched(PullBody in) {
        return processPullResult(MessageDecodes.decodes(ByteBuffer.wrap(in.body), true), in);
    }

    /** 4.9.0 {@code PullAPIWrapper.processPullResult}'s loop over the messages (subscription "*", no hooks). */
    static List<MessageExt> processPullResult(List<MessageExt> msgList, PullBody in) {
        for (MessageExt msg : msgList) {
            String traFlag = msg.getProperty(MessageConst.PROPERTY_TRANSACTION_PREPARED);
            if (Boolean.parseBoolean(traFlag)) {
                msg.setTransactionId(msg.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX));
            }
            MessageAccessor.putProperty(msg, MessageConst.PROPERTY_MIN_OFFSET, Long.toString(in.minOffset));
            MessageAccessor.putProperty(msg, MessageConst.PROPERTY_MAX_OFFSET, Long.toString(in.maxOffset));
            msg.setBrokerName(BROKER_NAME);
        }
        return msgList;
    }
}
