package dev.rmqpatch.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.store.ConsumeQueueAppend;
import org.apache.rocketmq.store.MappedFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P12 (consume-queue write): one consume-queue entry (CommitLog offset, size, tags code: 20 bytes), filled the way
 * {@code ConsumeQueue.putMessagePositionInfo} fills its reused buffer and appended to a real 6,000,000-byte
 * consume-queue file (4.9.0's default size, mapped as the broker maps it, in a temp folder), once per message on the
 * broker's dispatch thread. Stock: {@code MappedFile.appendMessage(byte[])} (channel position, then write). Patched:
 * {@code ConsumeQueueAppend.appendMessage} (hold, copy into the mapping, release). A full file starts again at 0, so
 * after the first pass both write pages already in the page cache: what a first write of each page costs (a page
 * fault on the mapping, a page allocation in the write) is left out for both; nothing is flushed to disk.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED"})
public class ConsumeQueueAppendBenchmark {

    /** 4.9.0's mapedFileSizeConsumeQueue: 300,000 entries. */
    static final int FILE_SIZE = 300_000 * 20;

    /** One consume-queue file per side and thread, and the entry buffer ConsumeQueue reuses. */
    @State(Scope.Thread)
    public static class Queue {
        public MappedFile stockFile;
        public MappedFile patchedFile;
        private MappedFilePair files;
        private final ByteBuffer index = ByteBuffer.allocate(20);
        private long commitLogOffset;

        @Setup(Level.Trial)
        public void open() throws IOException {
            files = new MappedFilePair("rmqpatch-jmh-cq-", FILE_SIZE);
            stockFile = files.stock;
            patchedFile = files.patched;
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            files.close();
        }

        /** The next entry, as putMessagePositionInfo writes it into its buffer: offset, size, tags code. */
        public byte[] nextEntry() {
            int size = 300 + (int) (commitLogOffset & 63);
            index.flip();
            index.limit(20);
            index.putLong(commitLogOffset);
            index.putInt(size);
            index.putLong(0x4F72646572L);
            commitLogOffset += size;
            return index.array();
        }
    }

    @Benchmark
    public boolean stock(Queue q) {
        byte[] entry = q.nextEntry();
        if (!q.stockFile.appendMessage(entry)) {
            q.stockFile.setWrotePosition(0);
            return q.stockFile.appendMessage(entry);
        }
        return true;
    }

    @Benchmark
    public boolean patched(Queue q) {
        byte[] entry = q.nextEntry();
        if (!ConsumeQueueAppend.appendMessage(q.patchedFile, entry)) {
            q.patchedFile.setWrotePosition(0);
            return ConsumeQueueAppend.appendMessage(q.patchedFile, entry);
        }
        return true;
    }
}
