package dev.rmqpatch.jmh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.ha.HaAckPerRead;
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
 * P37 (HA acknowledgement per read): the slave's dispatch of one read. The read buffer holds {@code transfers}
 * transfers of 1 KB each with their 12-byte headers, as one read of the master's stream leaves it; the dispatch loop
 * of {@code HAService$HAClient.dispatchReadRequest()} cuts them (the offset check against the store's max offset, the
 * dispatch position moved; the append itself left out, the same in both) and after each calls the acknowledgement of
 * {@code reportSlaveMaxOffsetPlus()}: when the offset grew, an 8-byte write on a loopback connection with TCP_NODELAY
 * (as the HA ends set it). Stock writes after every transfer; patched first asks {@code HaAckPerRead.deferReport}, as
 * the rewritten class does, and writes once per read. The master's end is drained once per operation in both (the
 * real master wakes, selects and reads once per acknowledgement, which this leaves out: the saving end to end is
 * larger than here). At 1 transfer per read the two do the same work plus the patched check.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HaAckPerReadBenchmark {

    private static final int HEADER = 12;
    private static final int BODY = 1024;
    private static final long START = 1L << 30;

    @State(Scope.Thread)
    public static class Slave {
        @Param({"1", "2", "4"})
        public int transfers;
        ServerSocketChannel server;
        SocketChannel master;
        SocketChannel slave;
        final ByteBuffer read = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer reportOffset = ByteBuffer.allocate(8);
        final ByteBuffer drain = ByteBuffer.allocateDirect(64 * 1024);
        int dispatchPosition;
        long maxPhyOffset;
        long currentReportedOffset;

        @Setup(Level.Trial)
        public void open() throws IOException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            slave = SocketChannel.open(server.getLocalAddress());
            slave.setOption(StandardSocketOptions.TCP_NODELAY, true);
            master = server.accept();
            master.setOption(StandardSocketOptions.TCP_NODELAY, true);
            master.configureBlocking(false);
            long offset = START;
            for (int t = 0; t < transfers; t++) {
                read.putLong(offset).putInt(BODY);
                read.position(read.position() + BODY);
                offset += BODY;
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            slave.close();
            master.close();
            server.close();
        }

        /** The state after the read: nothing dispatched yet, the store at the first transfer's offset. */
        void newRead() {
            dispatchPosition = 0;
            maxPhyOffset = START;
            currentReportedOffset = START;
        }

        /** 4.9.x's dispatch loop without the append; returns false where stock's would. */
        boolean dispatch(boolean patched) throws IOException {
            while (true) {
                int diff = read.position() - dispatchPosition;
                if (diff >= HEADER) {
                    long masterPhyOffset = read.getLong(dispatchPosition);
                    int bodySize = read.getInt(dispatchPosition + 8);
                    if (maxPhyOffset != 0 && maxPhyOffset != masterPhyOffset) {
                        return false;
                    }
                    if (diff >= HEADER + bodySize) {
                        maxPhyOffset = masterPhyOffset + bodySize;
                        dispatchPosition += HEADER + bodySize;
                        if (!(patched ? reportUnlessDeferred() : report())) {
                            return false;
                        }
                        continue;
                    }
                }
                return true;
            }
        }

        private boolean reportUnlessDeferred() throws IOException {
            return HaAckPerRead.deferReport(read, dispatchPosition, maxPhyOffset) || report();
        }

        /** reportSlaveMaxOffsetPlus() and reportSlaveMaxOffset(), 4.9.x's. */
        private boolean report() throws IOException {
            if (maxPhyOffset > currentReportedOffset) {
                currentReportedOffset = maxPhyOffset;
                reportOffset.position(0);
                reportOffset.limit(8);
                reportOffset.putLong(currentReportedOffset);
                reportOffset.position(0);
                reportOffset.limit(8);
                for (int i = 0; i < 3 && reportOffset.hasRemaining(); i++) {
                    slave.write(reportOffset);
                }
                return !reportOffset.hasRemaining();
            }
            return true;
        }

        /** The master's end: everything acknowledged so far, in one read. */
        long drainAcks() throws IOException {
            drain.clear();
            master.read(drain);
            return drain.position() == 0 ? -1 : drain.getLong(drain.position() - 8);
        }
    }

    @Benchmark
    public long stock(Slave s) throws IOException {
        s.newRead();
        if (!s.dispatch(false)) {
            throw new IllegalStateException("refused");
        }
        return s.drainAcks();
    }

    @Benchmark
    public long patched(Slave s) throws IOException {
        s.newRead();
        if (!s.dispatch(true)) {
            throw new IllegalStateException("refused");
        }
        return s.drainAcks();
    }
}
