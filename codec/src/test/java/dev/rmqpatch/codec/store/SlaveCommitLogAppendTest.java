package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.store.MappedFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P14 against stock {@code MappedFile.appendMessage(byte[])}: replicated blocks of random sizes (a slave's HAClient
 * hands over up to 32 KB at a time) appended the stock way to one file and through the mapping to another, from a
 * write position recovery left, until the file is full.
 */
class SlaveCommitLogAppendTest {

    private static final int FILE_SIZE = 1024 * 1024 + 13;

    @TempDir
    Path dir;

    @Test
    void sameResultsPositionsAndBytesAsStockForReplicatedBlocks() throws IOException {
        MappedFile stock = new MappedFile(dir.resolve("stock/00000000000000000000").toString(), FILE_SIZE);
        MappedFile ours = new MappedFile(dir.resolve("ours/00000000000000000000").toString(), FILE_SIZE);
        try {
            appendAlike(stock, ours);
        } finally {
            stock.destroy(0);
            ours.destroy(0);
        }
    }

    private static void appendAlike(MappedFile stock, MappedFile ours) throws IOException {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        int start = 8 * r.nextInt(1000);
        for (MappedFile f : new MappedFile[] {stock, ours}) {
            f.setWrotePosition(start);
            f.setFlushedPosition(start);
            f.setCommittedPosition(start);
        }
        int blocks = 0;
        for (int i = 0; ; i++) {
            byte[] block = new byte[1 + r.nextInt(32 * 1024)];
            r.nextBytes(block);
            String where = Seeds.replay(seed, i);
            boolean want = stock.appendMessage(block);
            assertEquals(want, SlaveCommitLogAppend.appendMessage(ours, block), where);
            assertEquals(stock.getWrotePosition(), ours.getWrotePosition(), where);
            if (!want) {
                break;
            }
            blocks++;
        }
        assertTrue(blocks > 30, blocks + " blocks");
        assertEquals(0, ours.getFileChannel().position(), "the channel is never written");
        stock.flush(0);
        ours.flush(0);
        assertArrayEquals(Files.readAllBytes(Path.of(stock.getFileName())), Files.readAllBytes(Path.of(ours.getFileName())),
            "file contents, seed=" + seed);
    }
}
