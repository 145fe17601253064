package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import dev.rmqpatch.codec.Seeds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P24 against 4.9.0's two HA read loops: {@link MasterReader} is a copy of {@code HAConnection$ReadSocketService}'s
 * {@code processReadEvent()} (the master reading a slave's acknowledgements), {@link SlaveClient} is
 * {@link StockHaClient}, the copy of {@code HAService$HAClient} (the slave reading its master's transfers, appending
 * them and acknowledging them) with 4.9.0's dispatch, over a socket; each line for line with a small store model; their one {@code socketChannel.read} calls the channel (stock)
 * or {@link HaDrainedRead} (patched, as the rewritten classes do). On scripted channels (random streams, random split
 * points, empty reads, ends of stream, errors, buffers that fill) stock and patched copies process the same bytes into
 * the same appends, acknowledgements and results, the patched one with fewer read system calls; over real loopback
 * sockets with a sender that stalls at random, both receive and acknowledge everything, and the selector never has to
 * time out for bytes the patched loop left.
 */
class HaDrainedReadTest {

    private static final int HEADER_SIZE = 12;

    @BeforeEach
    @AfterEach
    void forget() {
        HaDrainedRead.reset();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The stock loops, copied

    /** The master's side: 4.9.0's {@code HAConnection$ReadSocketService.processReadEvent()}. */
    static final class MasterReader {
        final SocketChannel socketChannel;
        final boolean patched;
        final ByteBuffer byteBufferRead;
        int processPosition = 0;
        long slaveAckOffset = -1;
        long slaveRequestOffset = -1;
        /** Every {@code haService.notifyTransferSome(slaveAckOffset)}, in order. */
        final List<Long> notified = new ArrayList<>();
        /** Reads that returned bytes (stock updates lastReadTimestamp for each). */
        int timestamps;
        /** The stock copy's read system calls. */
        long stockReads;

        MasterReader(SocketChannel socketChannel, boolean patched, int bufferSize) {
            this.socketChannel = socketChannel;
            this.patched = patched;
            this.byteBufferRead = ByteBuffer.allocate(bufferSize);
        }

        private int read() throws IOException {
            if (patched) {
                return HaDrainedRead.read(socketChannel, byteBufferRead);
            }
            stockReads++;
            return socketChannel.read(byteBufferRead);
        }

        boolean processReadEvent() {
            int readSizeZeroTimes = 0;

            if (!this.byteBufferRead.hasRemaining()) {
                this.byteBufferRead.flip();
                this.processPosition = 0;
            }

            while (this.byteBufferRead.hasRemaining()) {
                try {
                    int readSize = read();
                    if (readSize > 0) {
                        readSizeZeroTimes = 0;
                        timestamps++;
                        if ((this.byteBufferRead.position() - this.processPosition) >= 8) {
                            int pos = this.byteBufferRead.position() - (this.byteBufferRead.position() % 8);
                            long readOffset = this.byteBufferRead.getLong(pos - 8);
                            this.processPosition = pos;

                            this.slaveAckOffset = readOffset;
                            if (this.slaveRequestOffset < 0) {
                                this.slaveRequestOffset = readOffset;
                            }

                            notified.add(this.slaveAckOffset);
                        }
                    } else if (readSize == 0) {
                        if (++readSizeZeroTimes >= 3) {
                            break;
                        }
                    } else {
                        return false;
                    }
                } catch (IOException e) {
                    return false;
                }
            }

            return true;
        }

        long reads() {
            return patched ? HaDrainedRead.reads() : stockReads;
        }
    }

    /**
     * The slave's side: 4.9.0's {@code HAService$HAClient} read path, over a store model (the CommitLog's bytes and its
     * max offset, as {@code appendToCommitLog} leaves it).
     */
    static final class SlaveClient extends StockHaClient {
        final SocketChannel socketChannel;
        final boolean patched;
        final ByteBuffer reportOffset = ByteBuffer.allocate(8);
        boolean closed;
        long stockReads;

        SlaveClient(SocketChannel socketChannel, boolean patched, int readMaxBufferSize) {
            super(readMaxBufferSize, true, 0);
            this.socketChannel = socketChannel;
            this.patched = patched;
        }

        @Override
        int read() throws IOException {
            if (patched) {
                return HaDrainedRead.read(socketChannel, byteBufferRead);
            }
            stockReads++;
            return socketChannel.read(byteBufferRead);
        }

        long reads() {
            return patched ? HaDrainedRead.reads() : stockReads;
        }

        @Override
        boolean reportSlaveMaxOffset(final long maxOffset) {
            this.reportOffset.position(0);
            this.reportOffset.limit(8);
            this.reportOffset.putLong(maxOffset);
            this.reportOffset.position(0);
            this.reportOffset.limit(8);

            for (int i = 0; i < 3 && this.reportOffset.hasRemaining(); i++) {
                try {
                    this.socketChannel.write(this.reportOffset);
                } catch (IOException e) {
                    return false;
                }
            }
            if (!this.reportOffset.hasRemaining()) {
                reports.add(maxOffset);
            }
            return !this.reportOffset.hasRemaining();
        }

        @Override
        void closeMaster() {
            closed = true;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // A scripted channel: each read returns the next chunk (as much as the buffer takes), an empty read, the end of the
    // stream or an error; writes take everything

    private static final Object EMPTY = "empty read";
    private static final Object END = "end of stream";
    private static final Object ERROR = "error";

    static final class ScriptedChannel extends FakeSocketChannel {
        final Deque<Object> script = new ArrayDeque<>();
        private int headUsed;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        long readCalls;

        ScriptedChannel(List<Object> items) {
            script.addAll(items);
        }

        /** Something is left to read (an end of stream stays, as a socket's does). */
        boolean pending() {
            return !script.isEmpty();
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            readCalls++;
            Object item = script.peek();
            if (item == null) {
                return 0;
            }
            if (item == EMPTY) {
                script.poll();
                return 0;
            }
            if (item == END) {
                return -1;
            }
            if (item == ERROR) {
                script.poll();
                throw new IOException("scripted error");
            }
            byte[] chunk = (byte[]) item;
            int n = Math.min(chunk.length - headUsed, dst.remaining());
            dst.put(chunk, headUsed, n);
            headUsed += n;
            if (headUsed == chunk.length) {
                script.poll();
                headUsed = 0;
            }
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            while (src.hasRemaining()) {
                out.write(src.get());
            }
            return n;
        }
    }

    /** A stream cut at random points, with random runs of empty reads between the pieces and a random ending. */
    private static List<Object> script(byte[] stream, int maxPiece, Random random) {
        List<Object> items = new ArrayList<>();
        int at = 0;
        while (at < stream.length) {
            int n = Math.min(stream.length - at, 1 + random.nextInt(maxPiece));
            byte[] piece = new byte[n];
            System.arraycopy(stream, at, piece, 0, n);
            items.add(piece);
            at += n;
            for (int e = random.nextInt(6) - 1; e > 0; e--) {
                items.add(EMPTY);
            }
        }
        switch (random.nextInt(4)) {
            case 0:
                items.add(END);
                break;
            case 1:
                items.add(ERROR);
                break;
            default:
                break; // the socket stays open and idle
        }
        return items;
    }

    private static byte[] header(long offset, int size) {
        return ByteBuffer.allocate(HEADER_SIZE).putLong(offset).putInt(size).array();
    }

    /** What the slave copy did, for comparison. */
    private static String slaveOutcome(SlaveClient c, ScriptedChannel ch, boolean lastResult) {
        return "appended " + c.commitLog.size() + " bytes up to " + c.maxPhyOffset + ", reports " + c.reports
            + ", wire " + ch.out.size() + " bytes, closed " + c.closed + ", last result " + lastResult;
    }

    /** run()'s loop, the selector aside: processReadEvent, then reportSlaveMaxOffsetPlus, until it fails. */
    private static boolean drive(SlaveClient c, ScriptedChannel ch) {
        for (int calls = 0; ch.pending(); calls++) {
            assertTrue(calls < 100_000, "the slave loop does not progress");
            if (!c.processReadEvent()) {
                return false;
            }
            if (!c.reportSlaveMaxOffsetPlus()) {
                return false;
            }
        }
        return true;
    }

    private static boolean drive(MasterReader r, ScriptedChannel ch) {
        for (int calls = 0; ch.pending(); calls++) {
            assertTrue(calls < 100_000, "the master loop does not progress");
            if (!r.processReadEvent()) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Scripted: stock and patched on the same inputs

    @Test
    void slaveAppendsAndReportsWhatStockDoesOnRandomScripts() {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        long stockReads = 0;
        long patchedReads = 0;
        for (int round = 0; round < 400; round++) {
            String replay = Seeds.replay(seed, round);
            int bufferSize = new int[] {64, 100, 256, 1000, 4096}[random.nextInt(5)];
            int maxBody = bufferSize / 2 - HEADER_SIZE;
            long offset = random.nextBoolean() ? 0 : 1 + random.nextInt(1 << 20);
            int transfers = 1 + random.nextInt(40);
            int corruptAt = random.nextInt(4) == 0 ? random.nextInt(transfers) : -1;
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            ByteArrayOutputStream bodies = new ByteArrayOutputStream();
            for (int t = 0; t < transfers; t++) {
                int size = random.nextInt(5) == 0 ? 0 : random.nextInt(maxBody + 1);
                byte[] body = new byte[size];
                random.nextBytes(body);
                stream.write(header(t == corruptAt ? offset + 1 + random.nextInt(100) : offset, size), 0, HEADER_SIZE);
                stream.write(body, 0, size);
                if (corruptAt < 0) {
                    bodies.write(body, 0, size);
                }
                offset += size;
            }
            List<Object> items = script(stream.toByteArray(), random.nextBoolean() ? 16 : 2 * bufferSize, random);

            ScriptedChannel stockChannel = new ScriptedChannel(items);
            SlaveClient stock = new SlaveClient(stockChannel, false, bufferSize);
            boolean stockResult = drive(stock, stockChannel);
            HaDrainedRead.reset();
            ScriptedChannel patchedChannel = new ScriptedChannel(items);
            SlaveClient patched = new SlaveClient(patchedChannel, true, bufferSize);
            boolean patchedResult = drive(patched, patchedChannel);

            assertEquals(slaveOutcome(stock, stockChannel, stockResult),
                slaveOutcome(patched, patchedChannel, patchedResult), replay);
            assertArrayEquals(stock.commitLog.toByteArray(), patched.commitLog.toByteArray(), replay);
            assertArrayEquals(stockChannel.out.toByteArray(), patchedChannel.out.toByteArray(), "acks on the wire " + replay);
            if (corruptAt < 0) {
                assertArrayEquals(bodies.toByteArray(), stock.commitLog.toByteArray(), "the stock copy " + replay);
            }
            assertEquals(patchedChannel.readCalls, patched.reads(), replay);
            assertTrue(patched.reads() <= stock.reads(), patched.reads() + " > " + stock.reads() + " " + replay);
            stockReads += stock.reads();
            patchedReads += patched.reads();
        }
        System.out.println("[HaDrainedReadTest] slave, 400 scripts: read calls stock " + stockReads + ", patched "
            + patchedReads);
        assertTrue(patchedReads < stockReads);
    }

    @Test
    void masterAcknowledgesWhatStockDoesOnRandomScripts() {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        long stockReads = 0;
        long patchedReads = 0;
        for (int round = 0; round < 400; round++) {
            String replay = Seeds.replay(seed, round);
            int bufferSize = 8 * new int[] {1, 2, 8, 128}[random.nextInt(4)];
            int acks = 1 + random.nextInt(60);
            ByteBuffer stream = ByteBuffer.allocate(8 * acks);
            long offset = random.nextInt(1000);
            for (int a = 0; a < acks; a++) {
                offset += random.nextInt(5000);
                stream.putLong(offset);
            }
            List<Object> items = script(stream.array(), random.nextBoolean() ? 5 : 40, random);

            ScriptedChannel stockChannel = new ScriptedChannel(items);
            MasterReader stock = new MasterReader(stockChannel, false, bufferSize);
            boolean stockResult = drive(stock, stockChannel);
            HaDrainedRead.reset();
            ScriptedChannel patchedChannel = new ScriptedChannel(items);
            MasterReader patched = new MasterReader(patchedChannel, true, bufferSize);
            boolean patchedResult = drive(patched, patchedChannel);

            assertEquals(stock.notified, patched.notified, replay);
            assertEquals(stockResult, patchedResult, replay);
            assertEquals(stock.slaveAckOffset, patched.slaveAckOffset, replay);
            assertEquals(stock.slaveRequestOffset, patched.slaveRequestOffset, replay);
            assertEquals(stock.timestamps, patched.timestamps, replay);
            assertEquals(offset, stock.slaveAckOffset, "the stock copy acknowledges the last offset " + replay);
            assertEquals(patchedChannel.readCalls, patched.reads(), replay);
            assertTrue(patched.reads() <= stock.reads(), patched.reads() + " > " + stock.reads() + " " + replay);
            stockReads += stock.reads();
            patchedReads += patched.reads();
        }
        System.out.println("[HaDrainedReadTest] master, 400 scripts: read calls stock " + stockReads + ", patched "
            + patchedReads);
        assertTrue(patchedReads < stockReads);
    }

    /** Fixed scripts with the calls each side makes, read call by read call. */
    @Test
    void readCallsPerWakeUp() {
        byte[] ack = ByteBuffer.allocate(8).putLong(4096).array();
        // one acknowledgement: stock reads it and three empty reads; patched one read
        ScriptedChannel s = new ScriptedChannel(List.of(ack));
        MasterReader stock = new MasterReader(s, false, 64);
        assertTrue(stock.processReadEvent());
        assertEquals(4, s.readCalls);
        ScriptedChannel p = new ScriptedChannel(List.of(ack));
        MasterReader patched = new MasterReader(p, true, 64);
        assertTrue(patched.processReadEvent());
        assertEquals(1, p.readCalls);
        assertEquals(3, HaDrainedRead.answered());
        assertEquals(List.of(4096L), patched.notified);
        // a wake-up with nothing to read (the selector's timeout): stock three empty reads, patched one
        assertTrue(stock.processReadEvent());
        assertEquals(7, s.readCalls);
        assertTrue(patched.processReadEvent());
        assertEquals(2, p.readCalls);
        assertEquals(5, HaDrainedRead.answered());
        // the next wake-up reads again (nothing left over from the last loop)
        HaDrainedRead.reset();
        p = new ScriptedChannel(List.of(ack, EMPTY, ack));
        patched = new MasterReader(p, true, 64);
        assertTrue(patched.processReadEvent());
        assertEquals(1, p.readCalls, "the second piece waits for the next wake-up");
        assertTrue(patched.processReadEvent());
        assertEquals(2, p.readCalls, "the scripted empty read");
        assertTrue(patched.processReadEvent());
        assertEquals(3, p.readCalls);
        assertEquals(List.of(4096L, 4096L), patched.notified);
    }

    @Test
    void aReadThatFillsTheBufferIsFollowedByARealRead() throws IOException {
        ScriptedChannel ch = new ScriptedChannel(List.of(new byte[100]));
        ByteBuffer buf = ByteBuffer.allocate(40);
        assertEquals(40, HaDrainedRead.read(ch, buf));
        buf.clear();
        assertEquals(40, HaDrainedRead.read(ch, buf));
        buf.clear();
        assertEquals(20, HaDrainedRead.read(ch, buf), "short: the socket is drained");
        assertEquals(0, HaDrainedRead.read(ch, buf));
        assertEquals(3, ch.readCalls);
        assertEquals(1, HaDrainedRead.answered());
    }

    @Test
    void anythingButTheSameLoopGetsARealRead() throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(64);
        // another channel
        ScriptedChannel a = new ScriptedChannel(List.of(new byte[8]));
        ScriptedChannel b = new ScriptedChannel(List.of(new byte[8]));
        assertEquals(8, HaDrainedRead.read(a, buf));
        assertEquals(8, HaDrainedRead.read(b, buf));
        assertEquals(1, b.readCalls);
        // another buffer
        HaDrainedRead.reset();
        a = new ScriptedChannel(List.of(new byte[8], new byte[8]));
        assertEquals(8, HaDrainedRead.read(a, ByteBuffer.allocate(64)));
        assertEquals(8, HaDrainedRead.read(a, ByteBuffer.allocate(64)));
        assertEquals(2, a.readCalls);
        // the position moved (a loop left by an error, its buffer reset)
        HaDrainedRead.reset();
        a = new ScriptedChannel(List.of(new byte[8], new byte[8]));
        buf.clear();
        assertEquals(8, HaDrainedRead.read(a, buf));
        buf.position(0);
        assertEquals(8, HaDrainedRead.read(a, buf));
        assertEquals(2, a.readCalls);
        // after an empty read: two calls answered here, then the system's again
        HaDrainedRead.reset();
        a = new ScriptedChannel(List.of(EMPTY, new byte[8]));
        buf.clear();
        assertEquals(0, HaDrainedRead.read(a, buf));
        assertEquals(0, HaDrainedRead.read(a, buf));
        assertEquals(0, HaDrainedRead.read(a, buf));
        assertEquals(8, HaDrainedRead.read(a, buf));
        assertEquals(2, a.readCalls);
        assertEquals(2, HaDrainedRead.answered());
        // end of stream and errors are the channel's, every time
        HaDrainedRead.reset();
        a = new ScriptedChannel(List.of(END));
        assertEquals(-1, HaDrainedRead.read(a, buf));
        assertEquals(-1, HaDrainedRead.read(a, buf));
        assertEquals(2, a.readCalls);
        ScriptedChannel failing = new ScriptedChannel(List.of(new byte[8], ERROR, ERROR));
        assertEquals(8, HaDrainedRead.read(failing, buf));
        ByteBuffer other = ByteBuffer.allocate(64);
        assertThrows(IOException.class, () -> HaDrainedRead.read(failing, other));
        assertThrows(IOException.class, () -> HaDrainedRead.read(failing, other));
        assertEquals(3, failing.readCalls);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Real loopback sockets

    /** One transfer that arrived whole: stock makes four read system calls for it, patched one. */
    @Test
    void oneTransferIsOneReadOverLoopback() throws Exception {
        for (boolean patched : new boolean[] {false, true}) {
            HaDrainedRead.reset();
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                try (SocketChannel master = SocketChannel.open(server.getLocalAddress());
                     SocketChannel slave = server.accept();
                     Selector selector = Selector.open()) {
                    slave.configureBlocking(false);
                    slave.register(selector, SelectionKey.OP_READ);
                    SlaveClient c = new SlaveClient(slave, patched, 4096);
                    byte[] body = new byte[100];
                    new Random(7).nextBytes(body);
                    ByteBuffer out = ByteBuffer.allocate(HEADER_SIZE + body.length);
                    out.put(header(0, body.length)).put(body).flip();
                    while (out.hasRemaining()) {
                        master.write(out);
                    }
                    assertEquals(1, selector.select(10_000));
                    assertTrue(c.processReadEvent());
                    assertArrayEquals(body, c.commitLog.toByteArray());
                    assertEquals(List.of(100L), c.reports);
                    assertEquals(patched ? 1 : 4, c.reads(), patched ? "patched" : "stock");
                    ByteBuffer ack = ByteBuffer.allocate(8);
                    while (ack.hasRemaining()) {
                        master.read(ack);
                    }
                    assertEquals(100L, ack.getLong(0));
                }
            }
        }
    }

    static final class LoopbackRun {
        byte[] sent;
        byte[] appended;
        List<Long> reports;
        List<Long> notified;
        long slaveReads;
        long masterReads;
        int emptySelects;
    }

    /**
     * A master thread sends random transfers with random split points and stalls and reads the acknowledgements with
     * the master's loop; the slave's loop (this thread, a selector as run() has) appends and reports. Everything is
     * appended and acknowledged, and no select of either side times out while bytes are waiting.
     */
    @Test
    void everythingArrivesAndIsAcknowledgedOverLoopbackWithStalls() throws Exception {
        long seed = Seeds.seed();
        for (int round = 0; round < 2; round++) {
            String replay = Seeds.replay(seed, round);
            LoopbackRun stock = runOverLoopback(false, seed + round);
            LoopbackRun patched = runOverLoopback(true, seed + round);
            for (LoopbackRun r : new LoopbackRun[] {stock, patched}) {
                String who = (r == stock ? "stock " : "patched ") + replay;
                assertArrayEquals(r.sent, r.appended, who);
                long last = -1;
                for (long report : r.reports) {
                    assertTrue(report > last, "reports rise " + who);
                    last = report;
                }
                assertEquals(r.sent.length, last, "the last report is the end " + who);
                assertEquals(Long.valueOf(last), r.notified.get(r.notified.size() - 1), who);
                assertTrue(r.reports.containsAll(r.notified), "the master saw only reported offsets " + who);
                assertEquals(0, r.emptySelects, "a select timed out with bytes waiting " + who);
            }
            System.out.println("[HaDrainedReadTest] " + replay + ": " + patched.sent.length + " bytes; read calls "
                + "slave stock " + stock.slaveReads + ", patched " + patched.slaveReads + "; master stock "
                + stock.masterReads + ", patched " + patched.masterReads);
        }
    }

    private static LoopbackRun runOverLoopback(boolean patched, long seed) throws Exception {
        HaDrainedRead.reset();
        Random random = new Random(seed);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        ByteArrayOutputStream bodies = new ByteArrayOutputStream();
        long offset = 0;
        for (int t = 0; t < 300; t++) {
            int size = random.nextInt(8) == 0 ? 0 : random.nextInt(4000);
            byte[] body = new byte[size];
            random.nextBytes(body);
            stream.write(header(offset, size), 0, HEADER_SIZE);
            stream.write(body, 0, size);
            bodies.write(body, 0, size);
            offset += size;
        }
        byte[] bytes = stream.toByteArray();
        long end = offset;
        LoopbackRun run = new LoopbackRun();
        run.sent = bodies.toByteArray();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel masterEnd = SocketChannel.open(server.getLocalAddress());
                 SocketChannel slaveEnd = server.accept()) {
                masterEnd.setOption(StandardSocketOptions.TCP_NODELAY, true);
                slaveEnd.setOption(StandardSocketOptions.TCP_NODELAY, true);
                masterEnd.configureBlocking(false);
                slaveEnd.configureBlocking(false);
                AtomicReference<Throwable> masterError = new AtomicReference<>();
                MasterReader reader = new MasterReader(masterEnd, patched, 1024);
                long[] masterReads = new long[1];
                int[] masterEmptySelects = new int[1];
                Random senderRandom = new Random(seed ^ 0x9E3779B97F4A7C15L);
                Thread master = new Thread(() -> {
                    try (Selector selector = Selector.open()) {
                        masterEnd.register(selector, SelectionKey.OP_READ);
                        int at = 0;
                        boolean timedOut = false;
                        while (at < bytes.length || reader.slaveAckOffset < end) {
                            if (at < bytes.length) {
                                ByteBuffer piece = ByteBuffer.wrap(bytes, at,
                                    Math.min(bytes.length - at, 1 + senderRandom.nextInt(6000)));
                                while (piece.hasRemaining()) {
                                    int written = masterEnd.write(piece);
                                    at += written;
                                    if (written == 0) {
                                        Thread.yield();
                                    }
                                }
                                if (senderRandom.nextInt(4) == 0) {
                                    Thread.sleep(senderRandom.nextInt(3));
                                }
                                selector.selectNow();
                            } else {
                                timedOut = selector.select(1000) == 0;
                            }
                            selector.selectedKeys().clear();
                            int before = reader.notified.size();
                            if (!reader.processReadEvent()) {
                                throw new IOException("the master's loop failed");
                            }
                            if (timedOut && reader.notified.size() > before) {
                                masterEmptySelects[0]++;
                            }
                            timedOut = false;
                        }
                        masterReads[0] = reader.reads();
                    } catch (Throwable t) {
                        masterError.set(t);
                    }
                }, "HaDrainedReadTest-master");
                master.start();
                SlaveClient client = new SlaveClient(slaveEnd, patched, 64 * 1024);
                try (Selector selector = Selector.open()) {
                    slaveEnd.register(selector, SelectionKey.OP_READ);
                    long deadline = System.currentTimeMillis() + 60_000;
                    while (client.commitLog.size() < run.sent.length && System.currentTimeMillis() < deadline) {
                        int selected = selector.select(1000);
                        selector.selectedKeys().clear();
                        long before = client.commitLog.size();
                        assertTrue(client.processReadEvent(), "the slave's loop failed");
                        assertTrue(client.reportSlaveMaxOffsetPlus());
                        if (selected == 0 && client.commitLog.size() > before) {
                            run.emptySelects++;
                        }
                    }
                }
                master.join(30_000);
                assertFalse(master.isAlive(), "the master saw every acknowledgement");
                assertNull(masterError.get(), "master error");
                run.appended = client.commitLog.toByteArray();
                run.reports = client.reports;
                run.notified = reader.notified;
                run.slaveReads = client.reads();
                run.masterReads = masterReads[0];
                run.emptySelects += masterEmptySelects[0];
            }
        }
        return run;
    }
}
