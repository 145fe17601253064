package dev.rmqpatch.jmh;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.rmqpatch.codec.store.EncodeOutsideLock;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.store.AppendMessageCallback;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageLock;
import org.apache.rocketmq.store.StockAppendCallback;
import org.apache.rocketmq.store.config.MessageStoreConfig;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P20 (encode outside the lock): the single-message append of one send, from the put lock's point of view. A
 * {@code body}-byte message (1,024 by default) with a send's usual properties and IPv4 hosts is appended to a 64 MB
 * direct buffer (the CommitLog file's mapping; position back to 0 when full; never flushed). Stock: 4.9.0's
 * {@code DefaultAppendMessageCallback.doAppend} (everything it does runs under the put lock) and the msgId read.
 * Patched: {@code EncodeOutsideLock}'s encode (before the lock), its {@code doAppend} (under the lock) and the msgId
 * read (made then). {@code beforeLock} (unpaired) is the patched side's part before the lock, so the patched lock is
 * held about {@code patched - beforeLock}. The put's other work (CRC, statistics, flush and HA hand-off) is the same on
 * both sides and left out.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED"})
public class EncodeOutsideLockBenchmark {

    static final int FILE_SIZE = 64 * 1024 * 1024;
    static final int MAX_MESSAGE_SIZE = 4 * 1024 * 1024;

    @State(Scope.Thread)
    public static class Put {
        @Param({"1024"})
        public int body;
        private Path dir;
        private DefaultMessageStore store;
        private CommitLog commitLog;
        private AppendMessageCallback stockCallback;
        private HashMap<String, Long> table;
        private ByteBuffer file;
        private MessageExtBrokerInner msg;
        private final PutMessageLock noLock = new PutMessageLock() {
            @Override
            public void lock() {
            }

            @Override
            public void unlock() {
            }
        };

        @Setup(Level.Trial)
        public void open() throws Exception {
            dir = Files.createTempDirectory("rmqpatch-jmh-encode-");
            MessageStoreConfig config = new MessageStoreConfig();
            config.setStorePathRootDir(dir.toString());
            config.setStorePathCommitLog(dir.resolve("commitlog").toString());
            store = new DefaultMessageStore(config, null, null, new BrokerConfig());
            commitLog = store.getCommitLog();
            stockCallback = StockAppendCallback.create(commitLog, MAX_MESSAGE_SIZE);
            table = commitLog.getTopicQueueTable();
            file = ByteBuffer.allocateDirect(FILE_SIZE);
            msg = message(body);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            store.destroy();
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }

        int room() {
            if (file.remaining() < 2 * body + 1024) {
                file.clear();
            }
            return file.remaining();
        }
    }

    static MessageExtBrokerInner message(int bodySize) throws IOException {
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic("TopicTest");
        msg.setQueueId(3);
        byte[] body = new byte[bodySize];
        new Random(42).nextBytes(body);
        msg.setBody(body);
        msg.setBodyCRC(12345);
        msg.setBornTimestamp(System.currentTimeMillis());
        msg.setStoreTimestamp(System.currentTimeMillis());
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "7F0000010B5C18B4AAC2550DFE7A0000");
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_TAGS, "TagA");
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_WAIT_STORE_MSG_OK, "true");
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_MSG_REGION, "DefaultRegion");
        msg.setPropertiesString(MessageDecoder.messageProperties2String(msg.getProperties()));
        msg.setBornHost(new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 7}), 53412));
        msg.setStoreHost(new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 10911));
        return msg;
    }

    @Benchmark
    public String stock(Put p) {
        int room = p.room();
        AppendMessageResult r = p.stockCallback.doAppend(0L, p.file, room, p.msg);
        return r.getMsgId();
    }

    @Benchmark
    public String patched(Put p) {
        EncodeOutsideLock.beginPut(p.commitLog, p.msg);
        EncodeOutsideLock.lock(p.noLock);
        int room = p.room();
        AppendMessageResult r = EncodeOutsideLock.doAppend(MAX_MESSAGE_SIZE, p.table, p.store, 0L, p.file, room, p.msg);
        return r.getMsgId();
    }

    /** The patched side's work before the lock (no append): what moved out of the lock. */
    @Benchmark
    public Object beforeLock(Put p) {
        EncodeOutsideLock.beginPut(p.commitLog, p.msg);
        EncodeOutsideLock.lock(p.noLock);
        return p.msg;
    }
}
