package dev.rmqpatch.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.store.SlaveCommitLogAppend;
import dev.rmqpatch.codec.store.SlaveReadInPlace;
import org.apache.rocketmq.store.MappedFile;
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
 * P19 (slave read in place): one replicated block taken from a SLAVE's 4 MB HA read buffer and appended to a real
 * 64 MB CommitLog file, both with P14's mapped append. {@code block}: 4,096 and 32,768 bytes (as in
 * {@link SlaveCommitLogAppendBenchmark}). Stock (4.9.0's HAClient, P14 on): a new {@code byte[block]}, the block
 * copied into it ({@code position}, {@code get}), {@code SlaveCommitLogAppend.appendMessage}. Patched:
 * {@code SlaveReadInPlace.appendMessage} of the read buffer's slice. A full file starts again at 0; nothing is
 * flushed to disk. The store's lock and bookkeeping around the append are the same on both sides and left out.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED"})
public class SlaveReadInPlaceBenchmark {

    /** 4.9.0's HAClient read buffer. */
    static final int READ_BUFFER = 4 * 1024 * 1024;

    @State(Scope.Thread)
    public static class Log {
        @Param({"4096", "32768"})
        public int block;
        public MappedFile stockFile;
        public MappedFile patchedFile;
        private MappedFilePair files;
        public ByteBuffer read;
        /** Where the block starts in the read buffer: after a 12-byte header, not aligned. */
        public int start;

        @Setup(Level.Trial)
        public void open() throws IOException {
            files = new MappedFilePair("rmqpatch-jmh-slave-read-", SlaveCommitLogAppendBenchmark.FILE_SIZE);
            stockFile = files.stock;
            patchedFile = files.patched;
            read = ByteBuffer.allocate(READ_BUFFER);
            new Random(42).nextBytes(read.array());
            start = 1024 * 1024 + 12;
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            files.close();
        }
    }

    @Benchmark
    public boolean stock(Log l) {
        byte[] bodyData = new byte[l.block];
        l.read.position(l.start);
        l.read.get(bodyData);
        if (!SlaveCommitLogAppend.appendMessage(l.stockFile, bodyData)) {
            l.stockFile.setWrotePosition(0);
            return SlaveCommitLogAppend.appendMessage(l.stockFile, bodyData);
        }
        return true;
    }

    @Benchmark
    public boolean patched(Log l) {
        if (!SlaveReadInPlace.appendMessage(l.patchedFile, l.read.array(), l.start, l.block)) {
            l.patchedFile.setWrotePosition(0);
            return SlaveReadInPlace.appendMessage(l.patchedFile, l.read.array(), l.start, l.block);
        }
        return true;
    }
}
