package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P23 against 4.9.0's {@code HAConnection$WriteSocketService}: {@link Writer} is a copy of its {@code transferData()}
 * loops and of the part of {@code run()} that starts a transfer or a heartbeat, calling either the socket (stock) or
 * {@link HaGatherWrite} (patched, as the rewritten class does). Over a real loopback connection with a small send
 * buffer and a reader that stalls at random, and over a scripted channel that accepts exactly the bytes it is told
 * to (partial writes ending inside the header, inside the body, zero writes), the receiver gets the same bytes, and
 * every {@code transferData()} result follows stock's rules.
 */
class HaGatherWriteTest {

    private static final int HEADER_SIZE = 12;

    @BeforeEach
    @AfterEach
    void forget() {
        HaGatherWrite.reset();
    }

    /** The write side of one HA connection, as 4.9.0 has it; {@code patched} routes the two calls as P23 does. */
    static final class Writer {
        final SocketChannel channel;
        final boolean patched;
        final ByteBuffer byteBufferHeader = ByteBuffer.allocate(HEADER_SIZE);
        SelectMappedBufferResult selectMappedBufferResult;
        long nextTransferFromWhere;
        boolean lastWriteOver = true;
        /** Sum of the positive values the writes returned, as the loop saw them. */
        long reported;
        int releases;

        Writer(SocketChannel channel, boolean patched) {
            this.channel = channel;
            this.patched = patched;
        }

        /** run()'s heartbeat branch. */
        boolean heartbeat() throws IOException {
            byteBufferHeader.position(0);
            byteBufferHeader.limit(HEADER_SIZE);
            byteBufferHeader.putLong(nextTransferFromWhere);
            byteBufferHeader.putInt(0);
            byteBufferHeader.flip();
            lastWriteOver = transferData();
            return lastWriteOver;
        }

        /** run()'s transfer branch: {@code selectResult.getByteBuffer().limit(size)}, header, transferData(). */
        boolean transfer(ByteBuffer block) throws IOException {
            int size = block.remaining();
            SelectMappedBufferResult selectResult = new SelectMappedBufferResult(nextTransferFromWhere, block, size, null);
            long thisOffset = nextTransferFromWhere;
            nextTransferFromWhere += size;
            (patched ? HaGatherWrite.body(selectResult) : selectResult.getByteBuffer()).limit(size);
            this.selectMappedBufferResult = selectResult;
            byteBufferHeader.position(0);
            byteBufferHeader.limit(HEADER_SIZE);
            byteBufferHeader.putLong(thisOffset);
            byteBufferHeader.putInt(size);
            byteBufferHeader.flip();
            lastWriteOver = transferData();
            return lastWriteOver;
        }

        /** run()'s branch for {@code !lastWriteOver}. */
        boolean resume() throws IOException {
            lastWriteOver = transferData();
            return lastWriteOver;
        }

        private int write(ByteBuffer src) throws IOException {
            return patched ? HaGatherWrite.write(channel, src) : channel.write(src);
        }

        /** 4.9.0's transferData(), line for line (the exceptions are IOExceptions here). */
        boolean transferData() throws IOException {
            int writeSizeZeroTimes = 0;
            while (this.byteBufferHeader.hasRemaining()) {
                int writeSize = write(this.byteBufferHeader);
                if (writeSize > 0) {
                    writeSizeZeroTimes = 0;
                    reported += writeSize;
                } else if (writeSize == 0) {
                    if (++writeSizeZeroTimes >= 3) {
                        break;
                    }
                } else {
                    throw new IOException("ha master write header error < 0");
                }
            }
            if (null == this.selectMappedBufferResult) {
                return !this.byteBufferHeader.hasRemaining();
            }
            writeSizeZeroTimes = 0;
            if (!this.byteBufferHeader.hasRemaining()) {
                while (this.selectMappedBufferResult.getByteBuffer().hasRemaining()) {
                    int writeSize = write(this.selectMappedBufferResult.getByteBuffer());
                    if (writeSize > 0) {
                        writeSizeZeroTimes = 0;
                        reported += writeSize;
                    } else if (writeSize == 0) {
                        if (++writeSizeZeroTimes >= 3) {
                            break;
                        }
                    } else {
                        throw new IOException("ha master write body error < 0");
                    }
                }
            }
            boolean result = !this.byteBufferHeader.hasRemaining()
                && !this.selectMappedBufferResult.getByteBuffer().hasRemaining();
            if (!this.selectMappedBufferResult.getByteBuffer().hasRemaining()) {
                this.selectMappedBufferResult.release();
                this.selectMappedBufferResult = null;
                releases++;
            }
            return result;
        }
    }

    /** The header of a transfer, as the slave reads it. */
    private static byte[] header(long offset, int size) {
        return ByteBuffer.allocate(HEADER_SIZE).putLong(offset).putInt(size).array();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Real loopback sockets

    @Test
    void sameBytesAndResultsAsStockOverLoopbackWithPartialWrites() throws Exception {
        long seed = Seeds.seed();
        for (int round = 0; round < 2; round++) {
            long roundSeed = seed + round;
            String replay = Seeds.replay(seed, round);
            Run stock = runOverLoopback(false, roundSeed);
            Run patched = runOverLoopback(true, roundSeed);
            assertArrayEquals(stock.expected, stock.received, "stock copy " + replay);
            assertArrayEquals(patched.expected, patched.received, "patched " + replay);
            assertArrayEquals(stock.expected, patched.expected, replay);
            assertEquals(patched.expected.length, patched.reported, "patched writes report every byte " + replay);
            assertEquals(stock.transfers, patched.releases, "every body released once " + replay);
            System.out.println("[HaGatherWriteTest] " + replay + ": " + patched.transfers + " transfers, "
                + patched.expected.length + " bytes; incomplete transferData() calls stock " + stock.incomplete
                + ", patched " + patched.incomplete + "; patched write calls " + patched.writeCalls + " ("
                + patched.gathers + " gathering)");
        }
    }

    static final class Run {
        byte[] expected;
        byte[] received;
        long reported;
        int transfers;
        int releases;
        int incomplete;
        long writeCalls;
        long gathers;
    }

    private static Run runOverLoopback(boolean patched, long seed) throws Exception {
        HaGatherWrite.reset();
        Random random = new Random(seed);
        ByteBuffer source = ByteBuffer.allocateDirect(256 * 1024);
        byte[] fill = new byte[source.capacity()];
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Run run = new Run();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open();
            client.setOption(StandardSocketOptions.SO_SNDBUF, 8 * 1024);
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            client.connect(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            client.configureBlocking(false);
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            AtomicReference<Throwable> readerError = new AtomicReference<>();
            Random readerRandom = new Random(seed ^ 0x5DEECE66DL);
            Thread reader = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
                try {
                    while (true) {
                        buf.clear();
                        buf.limit(1 + readerRandom.nextInt(buf.capacity()));
                        int n = accepted.read(buf);
                        if (n < 0) {
                            return;
                        }
                        received.write(buf.array(), 0, n);
                        if (readerRandom.nextInt(8) == 0) {
                            Thread.sleep(readerRandom.nextInt(3));
                        }
                    }
                } catch (Throwable t) {
                    readerError.set(t);
                }
            }, "HaGatherWriteTest-reader");
            reader.start();
            // as run() does: wait (at most 1 s) for the socket to take more before each round
            Selector selector = Selector.open();
            client.register(selector, SelectionKey.OP_WRITE);
            Writer w = new Writer(client, patched);
            int transfers = 30;
            while (transfers > 0 || !w.lastWriteOver) {
                if (!w.lastWriteOver) {
                    selector.select(1000);
                    selector.selectedKeys().clear();
                    if (!w.resume()) {
                        run.incomplete++;
                    }
                    continue;
                }
                boolean done;
                if (random.nextInt(4) == 0) {
                    expected.write(header(w.nextTransferFromWhere, 0));
                    done = w.heartbeat();
                } else {
                    int size = random.nextInt(4) == 0 ? random.nextInt(64) : random.nextInt(source.capacity() + 1);
                    random.nextBytes(fill);
                    source.clear();
                    source.put(fill, 0, size);
                    source.flip();
                    expected.write(header(w.nextTransferFromWhere, size));
                    expected.write(fill, 0, size);
                    ByteBuffer block = source.slice();
                    done = w.transfer(block);
                    transfers--;
                    run.transfers++;
                }
                if (!done) {
                    run.incomplete++;
                }
            }
            selector.close();
            client.shutdownOutput();
            reader.join(30_000);
            assertFalse(reader.isAlive(), "reader done");
            assertNull(readerError.get(), "reader error");
            client.close();
            accepted.close();
            run.expected = expected.toByteArray();
            run.received = received.toByteArray();
            run.reported = w.reported;
            run.releases = w.releases;
            run.writeCalls = HaGatherWrite.writeCalls();
            run.gathers = HaGatherWrite.gatherWrites();
        }
        return run;
    }

    @Test
    void aTransferTheSocketTakesWholeIsOneWriteCallAndAHeartbeatAfterItAPlainOne() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                client.configureBlocking(false);
                Writer w = new Writer(client, true);
                ByteBuffer body = ByteBuffer.allocateDirect(1000);
                byte[] bytes = new byte[1000];
                new Random(1).nextBytes(bytes);
                body.put(bytes).flip();
                assertTrue(w.transfer(body.slice()));
                assertEquals(1, HaGatherWrite.writeCalls(), "header and body in one write call");
                assertEquals(1, HaGatherWrite.gatherWrites());
                assertEquals(1, w.releases);
                assertTrue(w.heartbeat());
                assertEquals(2, HaGatherWrite.writeCalls());
                assertEquals(1, HaGatherWrite.gatherWrites(), "a heartbeat is a plain write");
                accepted.configureBlocking(true);
                ByteBuffer in = ByteBuffer.allocate(HEADER_SIZE + 1000 + HEADER_SIZE);
                while (in.hasRemaining()) {
                    accepted.read(in);
                }
                ByteArrayOutputStream want = new ByteArrayOutputStream();
                want.write(header(0, 1000));
                want.write(bytes);
                want.write(header(1000, 0));
                assertArrayEquals(want.toByteArray(), in.array());
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // A scripted channel: each write call accepts the number of bytes it is told to

    /** A SocketChannel that takes, per write call, the next scripted number of bytes (everything when none is left). */
    static final class ScriptedChannel extends FakeSocketChannel {
        final Deque<Integer> accept = new ArrayDeque<>();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        int writeCalls;

        ScriptedChannel(Integer... accepts) {
            accept.addAll(Arrays.asList(accepts));
        }

        private long take(ByteBuffer[] srcs, int offset, int length) {
            writeCalls++;
            long allowance = accept.isEmpty() ? Long.MAX_VALUE : accept.poll();
            long n = 0;
            for (int i = offset; i < offset + length && n < allowance; i++) {
                ByteBuffer src = srcs[i];
                while (src.hasRemaining() && n < allowance) {
                    out.write(src.get());
                    n++;
                }
            }
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            return (int) take(new ByteBuffer[] {src}, 0, 1);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            return take(srcs, offset, length);
        }
    }

    private static ByteBuffer block(int size) {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        for (int i = 0; i < size; i++) {
            b.put((byte) (i * 31 + 7));
        }
        b.flip();
        return b.slice();
    }

    /** The stream one transfer of {@code size} bytes at offset 0 puts on the wire. */
    private static byte[] stream(int size) throws IOException {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.write(header(0, size));
        ByteBuffer b = block(size);
        while (b.hasRemaining()) {
            s.write(b.get());
        }
        return s.toByteArray();
    }

    /**
     * Each script (bytes accepted per write call, 0 for a full socket) on the stock copy and the patched one: same
     * bytes out, and each transferData() result true exactly when the whole transfer is out.
     */
    @Test
    void scriptedPartialWritesGiveStockBytesAndResults() throws Exception {
        int size = 100;
        Integer[][] scripts = {
            {},                    // everything at once
            {5},                   // ends inside the header, the rest in the next call
            {12},                  // exactly the header
            {50},                  // inside the body
            {5, 0, 0, 0},          // inside the header, then a full socket: transferData() gives up
            {0, 0, 0},             // nothing at all
            {50, 0, 0, 0},         // inside the body, then a full socket: the next call starts with the header sent
            {5, 0, 0, 0, 3, 0, 0, 0, 30, 0, 0, 0, 1}, // a transfer over several calls
        };
        for (Integer[] script : scripts) {
            ScriptedChannel stockChannel = new ScriptedChannel(script);
            ScriptedChannel patchedChannel = new ScriptedChannel(script);
            Writer stock = new Writer(stockChannel, false);
            Writer patched = new Writer(patchedChannel, true);
            HaGatherWrite.reset();
            boolean s = stock.transfer(block(size));
            boolean p = patched.transfer(block(size));
            int calls = 1;
            while (!p || !s) {
                if (!s) {
                    s = stock.resume();
                }
                if (!p) {
                    p = patched.resume();
                }
                assertTrue(++calls < 20, Arrays.toString(script));
            }
            assertArrayEquals(stream(size), stockChannel.out.toByteArray(), "stock copy " + Arrays.toString(script));
            assertArrayEquals(stream(size), patchedChannel.out.toByteArray(), "patched " + Arrays.toString(script));
            assertEquals(stream(size).length, patched.reported, Arrays.toString(script));
            assertEquals(1, patched.releases, Arrays.toString(script));
            assertTrue(patchedChannel.writeCalls <= stockChannel.writeCalls, Arrays.toString(script));
            // a heartbeat after it: a plain 12-byte write
            int before = patchedChannel.writeCalls;
            patchedChannel.accept.clear();
            assertTrue(patched.heartbeat());
            assertEquals(before + 1, patchedChannel.writeCalls);
            assertEquals(stream(size).length + HEADER_SIZE, patchedChannel.out.size());
        }
    }

    @Test
    void resultsPerCallFollowStock() throws Exception {
        // {5, 0, 0, 0}: the gather ends inside the header and the socket is full: false, the body untouched
        ScriptedChannel c = new ScriptedChannel(5, 0, 0, 0);
        Writer w = new Writer(c, true);
        ByteBuffer body = block(100);
        assertFalse(w.transfer(body));
        assertEquals(7, w.byteBufferHeader.remaining());
        assertEquals(100, body.remaining());
        assertEquals(0, w.releases);
        assertEquals(4, c.writeCalls);
        // the next call: the rest of the header and the body, in one write
        assertTrue(w.resume());
        assertEquals(5, c.writeCalls);
        assertEquals(1, w.releases);

        // {50, 0, 0, 0}: header sent, the body partly: false; the next call is stock's body loop alone
        HaGatherWrite.reset();
        c = new ScriptedChannel(50, 0, 0, 0);
        w = new Writer(c, true);
        body = block(100);
        assertFalse(w.transfer(body));
        assertEquals(0, w.byteBufferHeader.remaining());
        assertEquals(62, body.remaining());
        assertEquals(1, HaGatherWrite.gatherWrites());
        assertTrue(w.resume());
        assertEquals(1, HaGatherWrite.gatherWrites(), "the body's own write is plain");
        assertEquals(5, c.writeCalls);
        assertArrayEquals(stream(100), c.out.toByteArray());

        // an empty body: the header alone, plainly
        HaGatherWrite.reset();
        c = new ScriptedChannel();
        w = new Writer(c, true);
        assertTrue(w.transfer(block(0)));
        assertEquals(0, HaGatherWrite.gatherWrites());
        assertEquals(1, c.writeCalls);
        assertEquals(1, w.releases);
    }
}
