package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.store.MappedFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P12 against stock {@code MappedFile.appendMessage(byte[])} on real mapped files: the same sequence of appends goes
 * to one file the stock way and to another through the mapping, and the results, write positions and file bytes
 * must be the same, and equal to what was appended.
 */
class ConsumeQueueAppendTest {

    /** 20-byte consume-queue entries: 1,000 fit, plus 7 bytes that no entry fits into. */
    private static final int FILE_SIZE = 20 * 1000 + 7;

    @TempDir
    Path dir;

    private MappedFile stock;
    private MappedFile ours;

    @BeforeEach
    void files() throws IOException {
        stock = new MappedFile(dir.resolve("stock").resolve("00000000000000000000").toString(), FILE_SIZE);
        ours = new MappedFile(dir.resolve("ours").resolve("00000000000000000000").toString(), FILE_SIZE);
    }

    @AfterEach
    void unmap() {
        stock.destroy(0);
        ours.destroy(0);
    }

    @Test
    void sameResultsPositionsAndBytesAsStockUntilTheFileIsFull() throws IOException {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteBuffer entry = ByteBuffer.allocate(20);
        int appended = 0;
        for (int i = 0; ; i++) {
            byte[] data;
            if (r.nextInt(10) == 0) {
                // Other lengths exercise every tail of the copy (longs, an int, single bytes).
                data = new byte[1 + r.nextInt(40)];
                r.nextBytes(data);
            } else {
                // A consume-queue entry as ConsumeQueue writes it: CommitLog offset, size, tags hash code.
                entry.clear();
                entry.putLong(r.nextLong()).putInt(r.nextInt()).putLong(r.nextLong());
                data = entry.array();
            }
            String where = Seeds.replay(seed, i);
            boolean want = stock.appendMessage(data);
            assertEquals(want, ConsumeQueueAppend.appendMessage(ours, data), where);
            assertEquals(stock.getWrotePosition(), ours.getWrotePosition(), where);
            if (!want) {
                assertTrue(FILE_SIZE - stock.getWrotePosition() < data.length, where + ": full only when it does not fit");
                break;
            }
            expected.write(data);
            appended++;
        }
        assertTrue(appended > 900, appended + " appends");
        assertEquals(0, ours.getFileChannel().position(),
            "the channel is never written, so MappedFile.flush forces the mapping");
        assertEquals(stock.getWrotePosition(), stock.flush(0));
        assertEquals(ours.getWrotePosition(), ours.flush(0));
        byte[] want = Files.readAllBytes(Path.of(stock.getFileName()));
        byte[] got = Files.readAllBytes(Path.of(ours.getFileName()));
        assertArrayEquals(want, got, "file contents, seed=" + seed);
        assertArrayEquals(expected.toByteArray(), Arrays.copyOf(got, expected.size()), "what was appended, seed=" + seed);
    }

    @Test
    void appendsAfterAPositionSetByRecoveryGoThere() throws IOException {
        // ConsumeQueue.recover and truncateDirtyLogicFiles set the write position; appends continue from it.
        byte[] data = new byte[20];
        Arrays.fill(data, (byte) 0x5A);
        for (MappedFile f : new MappedFile[] {stock, ours}) {
            f.setWrotePosition(20 * 7);
            f.setFlushedPosition(20 * 7);
            f.setCommittedPosition(20 * 7);
        }
        assertTrue(stock.appendMessage(data));
        assertTrue(ConsumeQueueAppend.appendMessage(ours, data));
        assertEquals(20 * 8, ours.getWrotePosition());
        stock.flush(0);
        ours.flush(0);
        byte[] got = Files.readAllBytes(Path.of(ours.getFileName()));
        assertArrayEquals(Files.readAllBytes(Path.of(stock.getFileName())), got);
        assertArrayEquals(data, Arrays.copyOfRange(got, 140, 160));
        assertArrayEquals(new byte[140], Arrays.copyOfRange(got, 0, 140));
    }

    @Test
    void theBytesDoNotDependOnTheBuffersByteOrder() throws IOException {
        ours.getMappedByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        byte[] data = new byte[23];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 37 + 1);
        }
        assertTrue(ConsumeQueueAppend.appendMessage(ours, data));
        ours.flush(0);
        assertArrayEquals(data, Arrays.copyOf(Files.readAllBytes(Path.of(ours.getFileName())), data.length));
    }

    /**
     * A file whose mapping was released (a deleted topic's queue, a cleaned expired file) cannot be held: the append
     * is stock's, which fails on the closed channel and logs, instead of a store into unmapped memory, which would
     * crash this JVM (upstream's mapped write had exactly that crash until it held the file: apache/rocketmq#10288).
     */
    @Test
    void aReleasedFileGetsStocksAppendNotAWriteIntoTheUnmappedRegion() {
        byte[] data = new byte[20];
        assertTrue(ConsumeQueueAppend.appendMessage(ours, data));
        assertTrue(stock.appendMessage(data));
        assertTrue(stock.destroy(0));
        assertTrue(ours.destroy(0));
        assertFalse(ours.isAvailable());
        boolean want = stock.appendMessage(data);
        assertEquals(want, ConsumeQueueAppend.appendMessage(ours, data));
        assertEquals(stock.getWrotePosition(), ours.getWrotePosition());
    }
}
