package dev.rmqpatch.jmh;

import java.lang.reflect.Constructor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.store.BatchPropertySeparator;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.store.CommitLog;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P36 (batch property separator): a batch's encode, stock's {@code CommitLog$MessageExtBatchEncoder.encode} against
 * what the patched method runs: {@code BatchPropertySeparator.encode} first, stock's body when it declines. A batch of
 * 10 messages of 256-byte bodies with {@link Inputs#TYPICAL}'s properties each, as a 4.9.0 client writes them (ending
 * with the separator: the patched method scans the lengths, declines, stock's body encodes) and as a 4.9.1+ client
 * does (without: the codec encodes, stock's body does not run); the batch's properties as the broker sets them
 * (WAIT, CLUSTER).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BatchEncodeBenchmark {

    static final int MAX_MESSAGE_SIZE = 4 * 1024 * 1024;
    static final int MESSAGES = 10;

    /** One batch and one encoder (a send thread's), reused. */
    @State(Scope.Thread)
    public static class Batch {
        /** The client that wrote the batch's messages: "4.9.0" (trailing separator) or "4.9.1" (none). */
        @Param({"4.9.0", "4.9.1"})
        public String client;

        public MessageExtBatch batch;
        public CommitLog.MessageExtBatchEncoder stockEncoder;
        public ByteBuffer patchedBuffer;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            batch = batch(client.equals("4.9.0"));
            // Public class and method, package-private constructor.
            Constructor<CommitLog.MessageExtBatchEncoder> ctor =
                CommitLog.MessageExtBatchEncoder.class.getDeclaredConstructor(int.class);
            ctor.setAccessible(true);
            stockEncoder = ctor.newInstance(MAX_MESSAGE_SIZE);
            // The patched method's own encoder: its buffer is the same kind (direct, maxMessageSize).
            patchedBuffer = ByteBuffer.allocateDirect(MAX_MESSAGE_SIZE);
        }

        ByteBuffer stock() {
            return stockEncoder.encode(batch);
        }
    }

    /** A batch as the broker's asyncSendBatchMessage hands it to the store. */
    static MessageExtBatch batch(boolean trailingSeparator) throws Exception {
        Inputs in = Inputs.of(Inputs.TYPICAL);
        String props = trailingSeparator ? in.properties : in.properties.substring(0, in.properties.length() - 1);
        byte[] pb = props.getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[256];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        ByteBuffer all = ByteBuffer.allocate(MESSAGES * (20 + body.length + 2 + pb.length));
        for (int m = 0; m < MESSAGES; m++) {
            all.putInt(20 + body.length + 2 + pb.length).putInt(0).putInt(0).putInt(0).putInt(body.length).put(body);
            all.putShort((short) pb.length).put(pb);
        }
        MessageExtBatch b = new MessageExtBatch();
        b.setTopic("BenchmarkTopic");
        b.setQueueId(3);
        b.setBody(all.array());
        b.setBornTimestamp(1_700_000_000_000L);
        b.setStoreTimestamp(1_700_000_000_100L);
        b.setBornHost(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 41000));
        b.setStoreHost(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 10911));
        Map<String, String> batchProps = new HashMap<>();
        batchProps.put(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, "true");
        batchProps.put(MessageConst.PROPERTY_CLUSTER, Inputs.CLUSTER_NAME);
        MessageAccessor.setProperties(b, batchProps);
        MessageDecoder.messageProperties2String(batchProps); // warm the class
        return b;
    }

    @Benchmark
    public ByteBuffer stock(Batch b) {
        return b.stock();
    }

    @Benchmark
    public ByteBuffer patched(Batch b) {
        ByteBuffer out = BatchPropertySeparator.encode(b.patchedBuffer, MAX_MESSAGE_SIZE, b.batch);
        return out != null ? out : b.stock();
    }
}
