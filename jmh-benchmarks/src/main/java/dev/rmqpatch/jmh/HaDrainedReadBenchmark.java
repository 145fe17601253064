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

import dev.rmqpatch.codec.ha.HaDrainedRead;
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
 * P24 (HA drained read): one replication wake-up on the reading side. The peer end of a loopback connection with
 * TCP_NODELAY (as both HA ends set it) writes {@code bytes}: 8 (a slave's acknowledgement, what the master's HA reader
 * gets per wake-up) or 1,036 (a 1 KB transfer with its 12-byte header, what the slave's HAClient gets); the non-blocking
 * reading end then runs 4.9.0's read loop into its heap buffer (read while the buffer has room, leave after three reads
 * in a row return 0) until it has the bytes, as processReadEvent() does after each select. Stock: the loop calls the
 * channel; patched: it calls {@code HaDrainedRead.read}, as the rewritten classes do. The peer's write is in both.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HaDrainedReadBenchmark {

    @State(Scope.Thread)
    public static class Link {
        @Param({"8", "1036"})
        public int bytes;
        ServerSocketChannel server;
        SocketChannel peer;
        SocketChannel reader;
        final ByteBuffer out = ByteBuffer.allocateDirect(2048);
        final ByteBuffer in = ByteBuffer.allocate(1024 * 1024);

        @Setup(Level.Trial)
        public void open() throws IOException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            peer = SocketChannel.open(server.getLocalAddress());
            peer.setOption(StandardSocketOptions.TCP_NODELAY, true);
            reader = server.accept();
            reader.setOption(StandardSocketOptions.TCP_NODELAY, true);
            reader.configureBlocking(false);
            byte[] payload = new byte[bytes];
            new Random(42).nextBytes(payload);
            out.put(payload).flip();
            HaDrainedRead.reset();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            peer.close();
            reader.close();
            server.close();
        }

        void send() throws IOException {
            out.rewind();
            while (out.hasRemaining()) {
                peer.write(out);
            }
            in.clear();
        }
    }

    @Benchmark
    public int stock(Link l) throws IOException {
        l.send();
        while (l.in.position() < l.bytes) {
            int readSizeZeroTimes = 0;
            while (l.in.hasRemaining()) {
                int readSize = l.reader.read(l.in);
                if (readSize > 0) {
                    readSizeZeroTimes = 0;
                } else if (readSize == 0) {
                    if (++readSizeZeroTimes >= 3) {
                        break;
                    }
                } else {
                    throw new IOException("closed");
                }
            }
        }
        return l.in.position();
    }

    @Benchmark
    public int patched(Link l) throws IOException {
        l.send();
        while (l.in.position() < l.bytes) {
            int readSizeZeroTimes = 0;
            while (l.in.hasRemaining()) {
                int readSize = HaDrainedRead.read(l.reader, l.in);
                if (readSize > 0) {
                    readSizeZeroTimes = 0;
                } else if (readSize == 0) {
                    if (++readSizeZeroTimes >= 3) {
                        break;
                    }
                } else {
                    throw new IOException("closed");
                }
            }
        }
        return l.in.position();
    }
}
