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
import java.nio.channels.spi.SelectorProvider;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import dev.rmqpatch.codec.Seeds;
import dev.rmqpatch.codec.ha.HaGatherWriteTest.ScriptedChannel;
import dev.rmqpatch.codec.ha.HaGatherWriteTest.Writer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P25 against 4.9.0's {@code HAConnection$WriteSocketService.run()}: its rounds (select, then resume an unfinished
 * transfer, or send a heartbeat or a transfer, or wait) are driven with HaGatherWriteTest's copy of
 * {@code transferData()} routed through P23, and the round's select through {@link HaWriteSelect}. On scripted
 * channels (writes that take part of a buffer or nothing) and over a real loopback connection with a small send buffer
 * and a reader that stalls at random, a select reaches the selector exactly in the rounds where stock's would wait
 * (the last {@code transferData()} returned false), and the receiver gets stock's bytes.
 */
class HaWriteSelectTest {

    private static final int HEADER_SIZE = 12;

    @BeforeEach
    @AfterEach
    void forget() {
        HaGatherWrite.reset();
        HaWriteSelect.reset();
    }

    /** A selector that counts its select(long) calls and hands them to a real one (or answers 0 without one). */
    static final class CountingSelector extends Selector {
        final Selector real;
        int selects;

        CountingSelector(Selector real) {
            this.real = real;
        }

        @Override
        public int select(long timeout) throws IOException {
            selects++;
            return real == null ? 0 : real.select(timeout);
        }

        @Override
        public boolean isOpen() {
            return real == null || real.isOpen();
        }

        @Override
        public SelectorProvider provider() {
            return SelectorProvider.provider();
        }

        @Override
        public Set<SelectionKey> keys() {
            return real.keys();
        }

        @Override
        public Set<SelectionKey> selectedKeys() {
            return real.selectedKeys();
        }

        @Override
        public int selectNow() throws IOException {
            return real.selectNow();
        }

        @Override
        public int select() throws IOException {
            throw new UnsupportedOperationException();
        }

        @Override
        public Selector wakeup() {
            return this;
        }

        @Override
        public void close() throws IOException {
            if (real != null) {
                real.close();
            }
        }
    }

    private static ByteBuffer block(Random random, int size, ByteArrayOutputStream expected, long offset) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        expected.write(ByteBuffer.allocate(HEADER_SIZE).putLong(offset).putInt(size).array(), 0, HEADER_SIZE);
        expected.write(bytes, 0, size);
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        b.put(bytes).flip();
        return b.slice();
    }

    /**
     * One of run()'s rounds after its select: resume an unfinished transfer (no random draw, so the actions do not
     * depend on how the socket took the bytes), else a heartbeat, a transfer or nothing (the wait for the next put),
     * chosen at random. Returns 0 for a resume, 1 for a transfer, 2 otherwise.
     */
    private static int round(Writer w, Random random, ByteArrayOutputStream expected, int maxBody) throws IOException {
        if (!w.lastWriteOver) {
            w.resume();
            return 0;
        }
        switch (random.nextInt(4)) {
            case 0:
                expected.write(ByteBuffer.allocate(HEADER_SIZE).putLong(w.nextTransferFromWhere).putInt(0).array(), 0,
                    HEADER_SIZE);
                w.heartbeat();
                return 2;
            case 1:
                return 2; // nothing to send
            default:
                int size = 1 + random.nextInt(maxBody);
                w.transfer(block(random, size, expected, w.nextTransferFromWhere));
                return 1;
        }
    }

    @Test
    void aSelectReachesTheSelectorExactlyAfterAnUnfinishedTransferOnRandomScripts() throws Exception {
        long seed = Seeds.seed();
        Random random = new Random(seed);
        int skipped = 0;
        int selected = 0;
        for (int c = 0; c < 200; c++) {
            String replay = Seeds.replay(seed, c);
            HaGatherWrite.reset();
            Integer[] accepts = new Integer[random.nextInt(200)];
            for (int i = 0; i < accepts.length; i++) {
                accepts[i] = random.nextInt(3) == 0 ? 0 : random.nextInt(300);
            }
            ScriptedChannel channel = new ScriptedChannel(accepts);
            Writer w = new Writer(channel, true);
            CountingSelector selector = new CountingSelector(null);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            int transfers = 0;
            for (int r = 0; r < 60 || !w.lastWriteOver; r++) {
                assertTrue(r < 10_000, replay);
                boolean stockWaits = !w.lastWriteOver;
                int before = selector.selects;
                HaWriteSelect.select(selector, 1000, true);
                assertEquals(stockWaits ? 1 : 0, selector.selects - before, "round " + r + " " + replay);
                if (stockWaits) {
                    selected++;
                } else {
                    skipped++;
                }
                transfers += round(w, random, expected, 500) == 1 ? 1 : 0;
            }
            assertArrayEquals(expected.toByteArray(), channel.out.toByteArray(), replay);
            assertEquals(transfers, w.releases, replay);
        }
        System.out.println("[HaWriteSelectTest] scripted rounds: " + selected + " selects made, " + skipped + " answered");
        assertTrue(selected > 0 && skipped > 0);
    }

    @Test
    void withGatherWriteOffEverySelectIsStocks() throws Exception {
        CountingSelector selector = new CountingSelector(null);
        Writer w = new Writer(new ScriptedChannel(), true);
        w.heartbeat();
        assertTrue(w.lastWriteOver);
        HaWriteSelect.select(selector, 1000, false);
        HaWriteSelect.select(selector, 1000, false);
        assertEquals(2, selector.selects);
        HaWriteSelect.select(selector, 1000, true);
        assertEquals(2, selector.selects);
        assertEquals(1, HaWriteSelect.skipped());
    }

    @Test
    void sameBytesOverLoopbackWithAFullSocket() throws Exception {
        long seed = Seeds.seed();
        for (int round = 0; round < 2; round++) {
            String replay = Seeds.replay(seed, round);
            byte[][] stock = runOverLoopback(false, seed + round, replay);
            byte[][] patched = runOverLoopback(true, seed + round, replay);
            assertArrayEquals(stock[0], stock[1], "stock copy " + replay);
            assertArrayEquals(patched[0], patched[1], "patched " + replay);
            assertArrayEquals(stock[0], patched[0], replay);
        }
    }

    /** run()'s rounds over a real socket; returns {expected, received}. */
    private static byte[][] runOverLoopback(boolean patched, long seed, String replay) throws Exception {
        HaGatherWrite.reset();
        HaWriteSelect.reset();
        Random random = new Random(seed);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
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
            }, "HaWriteSelectTest-reader");
            reader.start();
            CountingSelector selector = new CountingSelector(Selector.open());
            client.register(selector.real, SelectionKey.OP_WRITE);
            Writer w = new Writer(client, true);
            int unfinished = 0;
            for (int actions = 0; actions < 200 || !w.lastWriteOver; ) {
                if (!w.lastWriteOver) {
                    unfinished++;
                }
                if (patched) {
                    HaWriteSelect.select(selector, 1000);
                } else {
                    selector.select(1000);
                }
                selector.selectedKeys().clear();
                if (round(w, random, expected, 64 * 1024) != 0) {
                    actions++;
                }
            }
            if (patched) {
                assertEquals(unfinished, selector.selects, "selects made exactly after unfinished transfers " + replay);
            }
            selector.close();
            client.shutdownOutput();
            reader.join(30_000);
            assertFalse(reader.isAlive(), "reader done");
            assertNull(readerError.get(), "reader error");
            client.close();
            accepted.close();
            System.out.println("[HaWriteSelectTest] " + replay + (patched ? " patched" : " stock") + ": "
                + expected.size() + " bytes, " + unfinished + " unfinished rounds, " + selector.selects + " selects");
            return new byte[][] {expected.toByteArray(), received.toByteArray()};
        }
    }
}
