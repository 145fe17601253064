package dev.rmqpatch.jmh;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import dev.rmqpatch.codec.store.SlaveCommitLogAppend;
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
 * P14 (slave CommitLog append): one block replicated from the master, as a SLAVE's HAClient hands it to
 * {@code CommitLog.appendData}, appended to a real 64 MB CommitLog file (mapped as the broker maps it, in a temp
 * folder). {@code block}: 4,096 bytes (about a dozen 300-byte messages: a master under light load) and 32,768 (4.9.0's
 * haTransferBatchSize: a busy master). Stock: {@code MappedFile.appendMessage(byte[])} (channel position, a copy into a
 * temporary direct buffer, write). Patched: {@code SlaveCommitLogAppend.appendMessage} (hold, copy into the mapping,
 * release). A full file starts again at 0, so after the first pass both write pages already in the page cache; nothing
 * is flushed to disk.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED"})
public class SlaveCommitLogAppendBenchmark {

    /** A test-sized CommitLog file (4.9.0's default is 1 GB); large enough that a pass takes thousands of blocks. */
    static final int FILE_SIZE = 64 * 1024 * 1024;

    @State(Scope.Thread)
    public static class Log {
        @Param({"4096", "32768"})
        public int block;
        public MappedFile stockFile;
        public MappedFile patchedFile;
        private MappedFilePair files;
        public byte[] data;

        @Setup(Level.Trial)
        public void open() throws IOException {
            files = new MappedFilePair("rmqpatch-jmh-slave-", FILE_SIZE);
            stockFile = files.stock;
            patchedFile = files.patched;
            data = new byte[block];
            new Random(42).nextBytes(data);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            files.close();
        }
    }

    @Benchmark
    public boolean stock(Log l) {
        if (!l.stockFile.appendMessage(l.data)) {
            l.stockFile.setWrotePosition(0);
            return l.stockFile.appendMessage(l.data);
        }
        return true;
    }

    @Benchmark
    public boolean patched(Log l) {
        if (!SlaveCommitLogAppend.appendMessage(l.patchedFile, l.data)) {
            l.patchedFile.setWrotePosition(0);
            return SlaveCommitLogAppend.appendMessage(l.patchedFile, l.data);
        }
        return true;
    }
}
