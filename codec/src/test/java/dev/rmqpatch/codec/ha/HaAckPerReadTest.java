package dev.rmqpatch.codec.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.junit.jupiter.api.Test;

/**
 * P37 against the slave's side of 4.9.x replication: {@link Slave} is {@link StockHaClient}, the copy of
 * {@code HAService$HAClient} (4.9.1+'s dispatch, which appends from the buffer's array, and 4.9.0's, which copies the
 * body out and puts the position back: both leave the buffer as the acknowledgement sees it), with the part of
 * {@code run()} around its read loop, over scripted reads. The patched copy runs
 * {@link HaAckPerRead#deferReport} first in {@code reportSlaveMaxOffsetPlus()}, as the rewritten class does. On the
 * same scripted reads (random transfers split at random points, buffers that fill and are reallocated, empty reads,
 * ends of stream, an offset the slave refuses, a malformed size) both copies append the same bytes, reach the same
 * results, and leave every wake-up having acknowledged the same offset; the patched copy writes no acknowledgement
 * stock does not write (each is one of stock's, at the moment stock wrote a later one of the same read) and one per
 * read where stock writes one per transfer.
 */
class HaAckPerReadTest {

    private static final int HEADER = HaAckPerRead.HEADER_SIZE;

    /** What a scripted read returns: bytes, an empty read, or the end of the stream. */
    private static final byte[] EMPTY = new byte[0];
    private static final byte[] EOF = new byte[0];

    /** The slave's HAClient ({@link StockHaClient}) over scripted reads; {@code patched} runs P37's hook first. */
    static final class Slave extends StockHaClient {
        final boolean patched;
        final Deque<byte[]> script;
        boolean connected = true;
        /** What each wake-up ended with: "ok", "closed" or an exception's class. */
        final List<String> wakeUps = new ArrayList<>();

        Slave(boolean patched, boolean copyOut490, int readMaxBufferSize, Deque<byte[]> script, long storeMax) {
            super(readMaxBufferSize, copyOut490, storeMax);
            this.patched = patched;
            this.script = script;
        }

        /** A read of the script: as much of the next chunk as fits (the rest stays), 0, or -1. */
        @Override
        int read() {
            byte[] chunk = script.poll();
            if (chunk == null || chunk == EMPTY) {
                return 0;
            }
            if (chunk == EOF) {
                return -1;
            }
            int n = Math.min(chunk.length, byteBufferRead.remaining());
            byteBufferRead.put(chunk, 0, n);
            if (n < chunk.length) {
                script.push(Arrays.copyOfRange(chunk, n, chunk.length));
            }
            return n;
        }

        /** The store offset whose append fails, and how many times; -1: none. */
        long failAt = -1;
        int failTimes;
        /** How it fails: as stock's store does (logs, appends nothing, returns false) or by throwing. */
        boolean failByThrowing;

        @Override
        void appendToCommitLog(long startOffset, byte[] data, int start, int size) {
            if (startOffset == failAt && failTimes > 0) {
                failTimes--;
                if (failByThrowing) {
                    throw new IllegalStateException("the store failed at " + startOffset);
                }
                return;
            }
            super.appendToCommitLog(startOffset, data, start, size);
        }

        @Override
        boolean deferReport() {
            return patched && HaAckPerRead.deferReport(byteBufferRead, dispatchPosition, maxPhyOffset);
        }

        /** Stock's write on a closed master connection: its socketChannel is null. */
        @Override
        boolean reportSlaveMaxOffset(long maxOffset) {
            if (!connected) {
                throw new NullPointerException("socketChannel");
            }
            reports.add(maxOffset);
            return true;
        }

        @Override
        void closeMaster() {
            if (connected) {
                connected = false;
                this.dispatchPosition = 0;
                this.byteBufferBackup.position(0);
                this.byteBufferBackup.limit(readMaxBufferSize);
                this.byteBufferRead.position(0);
                this.byteBufferRead.limit(readMaxBufferSize);
            }
        }

        /** One turn of run() after the selector woke: the read loop, then the report after it. */
        void wakeUp() {
            if (!connected) {
                // run() would connect again and the master resend from the slave's offset, which a script cannot
                // follow: the copy stops here
                wakeUps.add("disconnected");
                return;
            }
            try {
                boolean ok = this.processReadEvent();
                if (!ok) {
                    this.closeMaster();
                }
                if (!reportSlaveMaxOffsetPlus()) {
                    wakeUps.add("report failed");
                    return;
                }
                wakeUps.add(connected ? "ok" : "closed");
            } catch (RuntimeException e) {
                wakeUps.add(e.getClass().getSimpleName());
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Scripts

    private static byte[] transfer(long offset, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(HEADER + body.length);
        b.putLong(offset).putInt(body.length).put(body);
        return b.array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.write(p, 0, p.length);
        }
        return out.toByteArray();
    }

    private static Deque<byte[]> script(byte[]... reads) {
        Deque<byte[]> d = new ArrayDeque<>();
        for (byte[] r : reads) {
            d.add(r.length == 0 && r != EOF ? EMPTY : r);
        }
        return d;
    }

    private static Deque<byte[]> copy(Deque<byte[]> script) {
        Deque<byte[]> d = new ArrayDeque<>();
        for (byte[] r : script) {
            d.add(r == EMPTY || r == EOF ? r : r.clone());
        }
        return d;
    }

    /** Runs stock and patched over the same script, {@code wakeUps} turns of run(), and compares what they did. */
    private static Slave[] both(Deque<byte[]> script, int bufferSize, long storeMax, int wakeUps, boolean copyOut) {
        HaAckPerRead.reset();
        Slave stock = new Slave(false, copyOut, bufferSize, copy(script), storeMax);
        Slave patched = new Slave(true, copyOut, bufferSize, copy(script), storeMax);
        for (int i = 0; i < wakeUps; i++) {
            stock.wakeUp();
            patched.wakeUp();
            assertEquals(stock.wakeUps, patched.wakeUps, "wake-up " + i);
            assertEquals(stock.maxPhyOffset, patched.maxPhyOffset, "wake-up " + i);
            assertEquals(stock.currentReportedOffset, patched.currentReportedOffset,
                "the offset acknowledged at the end of wake-up " + i);
            assertEquals(last(stock.reports), last(patched.reports), "the last acknowledgement after wake-up " + i);
        }
        assertArrayEquals(stock.commitLog.toByteArray(), patched.commitLog.toByteArray());
        assertEquals(stock.appends, patched.appends);
        assertTrue(stock.reports.containsAll(patched.reports), "patched " + patched.reports
            + " writes only offsets stock writes " + stock.reports);
        assertTrue(patched.reports.size() <= stock.reports.size());
        return new Slave[] {stock, patched};
    }

    private static Long last(List<Long> l) {
        return l.isEmpty() ? null : l.get(l.size() - 1);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Cases

    @Test
    void threeTransfersInOneReadAreAcknowledgedOnce() {
        byte[] read = concat(transfer(1000, new byte[10]), transfer(1010, new byte[20]), transfer(1030, new byte[5]));
        for (boolean copyOut : new boolean[] {false, true}) {
            Slave[] s = both(script(read), 4096, 1000, 1, copyOut);
            assertEquals(Arrays.asList(1010L, 1030L, 1035L), s[0].reports);
            assertEquals(Arrays.asList(1035L), s[1].reports);
        }
    }

    @Test
    void aTransferPerReadIsAcknowledgedAsStockDoes() {
        Deque<byte[]> script = script(transfer(0, new byte[7]), EMPTY, EMPTY, EMPTY, transfer(7, new byte[3]));
        Slave[] s = both(script, 4096, 0, 2, false);
        assertEquals(Arrays.asList(7L, 10L), s[0].reports);
        assertEquals(s[0].reports, s[1].reports);
    }

    @Test
    void aPartialNextTransferDoesNotDeferTheAcknowledgement() {
        byte[] second = transfer(110, new byte[50]);
        byte[] read = concat(transfer(100, new byte[10]), Arrays.copyOf(second, 30));
        Slave[] s = both(script(read, EMPTY, EMPTY, EMPTY, Arrays.copyOfRange(second, 30, second.length)), 4096, 100, 2,
            false);
        assertEquals(Arrays.asList(110L, 160L), s[1].reports);
        assertEquals(s[0].reports, s[1].reports);
    }

    @Test
    void aRefusedOffsetNextDoesNotDeferTheAcknowledgement() {
        byte[] read = concat(transfer(100, new byte[10]), transfer(999, new byte[10]));
        Slave[] s = both(script(read), 4096, 100, 1, false);
        assertEquals(Arrays.asList(110L), s[1].reports);
        assertEquals(Arrays.asList("closed"), s[1].wakeUps);
        assertEquals(s[0].reports, s[1].reports);
    }

    @Test
    void aNegativeSizeNextDoesNotDeferTheAcknowledgement() {
        ByteBuffer bad = ByteBuffer.allocate(HEADER).putLong(110).putInt(-5);
        byte[] read = concat(transfer(100, new byte[10]), bad.array());
        for (boolean copyOut : new boolean[] {false, true}) {
            Slave[] s = both(script(read), 4096, 100, 1, copyOut);
            assertEquals(Arrays.asList(110L), s[1].reports);
            assertEquals(s[0].reports, s[1].reports);
        }
    }

    @Test
    void anAppendThatThrowsDoesNotHoldBackTheAcknowledgementBeforeIt() {
        byte[] read = concat(transfer(100, new byte[10]), transfer(110, new byte[10]));
        for (int failTimes : new int[] {1, Integer.MAX_VALUE}) {
            Slave stock = new Slave(false, false, 4096, script(read, EMPTY, EMPTY, EMPTY, transfer(120, new byte[5])), 100);
            HaAckPerRead.reset();
            Slave patched = new Slave(true, false, 4096, script(read, EMPTY, EMPTY, EMPTY, transfer(120, new byte[5])), 100);
            for (Slave s : new Slave[] {stock, patched}) {
                s.failAt = 110;
                s.failTimes = failTimes;
                s.failByThrowing = true;
            }
            stock.wakeUp();
            patched.wakeUp();
            assertEquals(List.of("IllegalStateException"), stock.wakeUps);
            assertEquals(stock.wakeUps, patched.wakeUps);
            assertEquals(List.of(110L), stock.reports);
            assertEquals(List.of(), patched.reports, "deferred, counting on the append that threw");
            stock.wakeUp();
            patched.wakeUp();
            assertEquals(stock.wakeUps, patched.wakeUps, "failing " + failTimes);
            assertEquals(stock.currentReportedOffset, patched.currentReportedOffset, "failing " + failTimes);
            assertEquals(last(stock.reports), last(patched.reports), "failing " + failTimes);
            for (int i = 0; i < 3; i++) {
                stock.wakeUp();
                patched.wakeUp();
                assertEquals(stock.currentReportedOffset, patched.currentReportedOffset, "failing " + failTimes);
                assertEquals(last(stock.reports), last(patched.reports), "failing " + failTimes);
            }
            assertEquals(stock.appends, patched.appends);
            assertEquals(failTimes == 1 ? 125L : 110L, patched.currentReportedOffset);
        }
    }

    @Test
    void anAppendThatFailsAsStocksDoesReportsTheOffsetBeforeItAtOnce() {
        byte[] read = concat(transfer(100, new byte[10]), transfer(110, new byte[10]), transfer(120, new byte[5]));
        for (boolean copyOut : new boolean[] {false, true}) {
            HaAckPerRead.reset();
            Slave stock = new Slave(false, copyOut, 4096, script(read), 100);
            Slave patched = new Slave(true, copyOut, 4096, script(read), 100);
            for (Slave s : new Slave[] {stock, patched}) {
                s.failAt = 110;
                s.failTimes = 1;
            }
            stock.wakeUp();
            patched.wakeUp();
            assertEquals(List.of("closed"), stock.wakeUps, "the next transfer's offset is refused");
            assertEquals(stock.wakeUps, patched.wakeUps);
            assertEquals(List.of(110L), stock.reports);
            assertEquals(stock.reports, patched.reports, "written before the loop met the refused offset");
        }
    }

    @Test
    void theHookAloneReadsOnlyWhatStockWouldAppendAtOnce() {
        HaAckPerRead.reset();
        ByteBuffer b = ByteBuffer.allocate(64);
        b.put(transfer(500, new byte[4]));
        int next = b.position();
        assertFalse(HaAckPerRead.deferReport(b, next, 516), "nothing after it");
        b.put(transfer(516, new byte[8]));
        assertTrue(HaAckPerRead.deferReport(b, next, 516));
        assertFalse(HaAckPerRead.deferReport(b, next, 516), "deferred at this offset before: the append did not come");
        assertTrue(HaAckPerRead.deferReport(b, next, 516), "and after one report, again");
        assertFalse(HaAckPerRead.deferReport(b, next, 517), "an offset stock refuses");
        assertTrue(HaAckPerRead.deferReport(b, next, 0), "an empty store takes any offset, as stock");
        HaAckPerRead.reset();
        b.position(b.position() - 1);
        assertFalse(HaAckPerRead.deferReport(b, next, 516), "one byte short");
        b.position(next + HEADER - 1);
        assertFalse(HaAckPerRead.deferReport(b, next, 516), "a partial header");
        ByteBuffer huge = ByteBuffer.allocate(HEADER + 4).putLong(516).putInt(Integer.MAX_VALUE).putInt(0);
        assertFalse(HaAckPerRead.deferReport(huge, 0, 516), "a size whose sum with the header overflows");
        assertFalse(HaAckPerRead.deferReport(huge, -1, 516), "a position before the buffer");
    }

    @Test
    void randomStreamsAppendAndAcknowledgeAsStock() {
        long seed = Seeds.seed();
        Random rnd = new Random(seed);
        int fewerWrites = 0;
        for (int round = 0; round < 400; round++) {
            String where = "seed " + seed + ", round " + round;
            long start = rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(1 << 20);
            int bufferSize = 64 + rnd.nextInt(rnd.nextBoolean() ? 256 : 4096);
            boolean copyOut = rnd.nextBoolean();
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            long offset = start;
            int transfers = 1 + rnd.nextInt(40);
            for (int t = 0; t < transfers; t++) {
                int size = rnd.nextInt(8) == 0 ? 0 : rnd.nextInt(Math.min(bufferSize - HEADER, 200));
                byte[] body = new byte[size];
                rnd.nextBytes(body);
                long written = offset;
                int damage = rnd.nextInt(60);
                if (damage == 0) {
                    written = offset + 1 + rnd.nextInt(100);
                }
                ByteBuffer h = ByteBuffer.allocate(HEADER).putLong(written).putInt(damage == 1 ? -1 - rnd.nextInt(9)
                    : size);
                stream.write(h.array(), 0, HEADER);
                stream.write(body, 0, size);
                offset += size;
            }
            byte[] all = stream.toByteArray();
            Deque<byte[]> script = new ArrayDeque<>();
            int at = 0;
            int wakeUps = 1;
            while (at < all.length) {
                int n = Math.min(all.length - at, 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 600));
                script.add(Arrays.copyOfRange(all, at, at + n));
                at += n;
                if (rnd.nextInt(3) == 0) {
                    script.add(EMPTY);
                    script.add(EMPTY);
                    script.add(EMPTY);
                    wakeUps++;
                }
            }
            if (rnd.nextInt(10) == 0) {
                script.add(EOF);
            }
            Slave[] s;
            try {
                s = both(script, bufferSize, start, wakeUps + 1, copyOut);
            } catch (AssertionError e) {
                throw new AssertionError(where + ": " + e.getMessage(), e);
            }
            if (s[1].reports.size() < s[0].reports.size()) {
                fewerWrites++;
            }
        }
        assertTrue(fewerWrites > 100, "seed " + seed + ": reads bringing several transfers were acknowledged once in "
            + fewerWrites + " of 400 rounds");
    }
}
