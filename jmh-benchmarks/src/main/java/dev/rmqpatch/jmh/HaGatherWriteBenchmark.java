package dev.rmqpatch.jmh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.ha.HaGatherWrite;
import org.apache.rocketmq.store.SelectMappedBufferResult;
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
 * P23 (HA gather write): one replication transfer, a 12-byte header and a body from a direct buffer (as the CommitLog
 * mapping's slice is), written by a master's HA write thread to a non-blocking loopback socket with TCP_NODELAY (as
 * HAConnection sets it) that a thread drains. {@code body}: 1,024 bytes (a few messages: a SYNC_MASTER under light
 * load, where each send waits for its transfer) and 32,768 (4.9.0's haTransferBatchSize). Stock: 4.9.0's two loops,
 * header write then body write. Patched: the same loops through {@code HaGatherWrite} (one gathering write when the
 * socket takes everything). The socket's and the reader's work is in both.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HaGatherWriteBenchmark {

    @State(Scope.Thread)
    public static class Link {
        @Param({"1024", "32768"})
        public int body;
        ServerSocketChannel server;
        SocketChannel writer;
        SocketChannel accepted;
        Thread drain;
        final ByteBuffer header = ByteBuffer.allocate(12);
        ByteBuffer block;
        SelectMappedBufferResult result;
        long offset;

        @Setup(Level.Trial)
        public void open() throws IOException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            writer = SocketChannel.open(server.getLocalAddress());
            writer.setOption(StandardSocketOptions.TCP_NODELAY, true);
            writer.configureBlocking(false);
            accepted = server.accept();
            drain = new Thread(() -> {
                ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
                try {
                    while (accepted.read(in) >= 0) {
                        in.clear();
                    }
                } catch (IOException closed) {
                    // the trial is over
                }
            }, "HaGatherWriteBenchmark-drain");
            drain.setDaemon(true);
            drain.start();
            block = ByteBuffer.allocateDirect(body);
            byte[] bytes = new byte[body];
            new Random(42).nextBytes(bytes);
            block.put(bytes).flip();
            result = new SelectMappedBufferResult(0, block, body, null);
            HaGatherWrite.reset();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException, InterruptedException {
            writer.close();
            drain.join(5_000);
            accepted.close();
            server.close();
        }

        /** run()'s header for the next transfer, and the body from its start. */
        void next() {
            header.clear();
            header.putLong(offset).putInt(body).flip();
            block.clear();
            offset += body;
        }
    }

    @Benchmark
    public long stock(Link l) throws IOException {
        l.next();
        ByteBuffer b = l.result.getByteBuffer();
        b.limit(l.body);
        long written = 0;
        while (l.header.hasRemaining()) {
            written += l.writer.write(l.header);
        }
        while (b.hasRemaining()) {
            written += l.writer.write(b);
        }
        return written;
    }

    @Benchmark
    public long patched(Link l) throws IOException {
        l.next();
        ByteBuffer b = HaGatherWrite.body(l.result);
        b.limit(l.body);
        long written = 0;
        while (l.header.hasRemaining()) {
            written += HaGatherWrite.write(l.writer, l.header);
        }
        while (b.hasRemaining()) {
            written += HaGatherWrite.write(l.writer, b);
        }
        return written;
    }
}
