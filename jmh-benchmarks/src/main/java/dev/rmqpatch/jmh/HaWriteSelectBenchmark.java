package dev.rmqpatch.jmh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.ha.HaGatherWrite;
import dev.rmqpatch.codec.ha.HaWriteSelect;
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
 * P25 (HA write select): the select that starts a round of a master's HA write loop, on a non-blocking loopback socket
 * registered for OP_WRITE (as {@code WriteSocketService} registers its socket) that has room, after a 12-byte write
 * the socket took whole (a heartbeat, sent through P23's {@code HaGatherWrite}, as the patched transferData() does).
 * Stock: {@code selector.select(1000)}, which returns at once; patched: {@code HaWriteSelect.select}. The write, and a
 * drain of the peer every 1,024 rounds so the socket keeps room, are in both.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HaWriteSelectBenchmark {

    @State(Scope.Thread)
    public static class Link {
        ServerSocketChannel server;
        SocketChannel writer;
        SocketChannel peer;
        Selector selector;
        final ByteBuffer header = ByteBuffer.allocate(12);
        final ByteBuffer drain = ByteBuffer.allocateDirect(64 * 1024);
        int rounds;

        @Setup(Level.Trial)
        public void open() throws IOException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            writer = SocketChannel.open(server.getLocalAddress());
            writer.configureBlocking(false);
            peer = server.accept();
            peer.configureBlocking(false);
            selector = Selector.open();
            writer.register(selector, SelectionKey.OP_WRITE);
            HaGatherWrite.reset();
            HaWriteSelect.reset();
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            selector.close();
            writer.close();
            peer.close();
            server.close();
        }

        /** A heartbeat through P23's write, as transferData() sends it; the peer drained now and then. */
        void heartbeat() throws IOException {
            header.clear();
            header.putLong(rounds).putInt(0).flip();
            while (header.hasRemaining()) {
                HaGatherWrite.write(writer, header);
            }
            if ((++rounds & 1023) == 0) {
                drain.clear();
                while (peer.read(drain) > 0) {
                    drain.clear();
                }
            }
        }
    }

    @Benchmark
    public int stock(Link l) throws IOException {
        l.heartbeat();
        return l.selector.select(1000);
    }

    @Benchmark
    public int patched(Link l) throws IOException {
        l.heartbeat();
        return HaWriteSelect.select(l.selector, 1000);
    }
}
