package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import dev.rmqpatch.codec.TestFields;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.ServiceThread;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MappedFile;
import org.apache.rocketmq.store.MappedFileQueue;
import org.apache.rocketmq.store.PutMessageLock;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P19 against stock, on the slave side: one stream of replicated blocks (a master's CommitLog cut into blocks of
 * random sizes, empty heartbeat blocks among them, each block ending at the latest at a file's end as the master
 * sends them, then one block that does not fit the current file), delivered in reads of random sizes so that blocks
 * and headers split across reads and the read buffer is compacted, goes through two copies of 4.9.0's
 * {@code HAClient.dispatchReadRequest} loop into two real stock stores: one copies each block into a new array and
 * calls stock {@code appendToCommitLog}, the other calls {@link SlaveReadInPlace#appendToCommitLog} with the read
 * buffer. After every read: the same results, offsets, dispatch position and read buffer position, and the read
 * buffer's position right after each append (where stock's copy leaves it); at the end the same CommitLog files.
 * The mapped append of P14 and the channel append used when P14 is off are each compared with stock's
 * {@code MappedFile.appendMessage(byte[])} too.
 */
class SlaveReadInPlaceTest {

    /** A small CommitLog file, so the stream fills several. */
    private static final int FILE_SIZE = 256 * 1024 + 8;
    /** A small read buffer (stock's is 4 MB), so the stream wraps it many times. */
    private static final int READ_BUFFER = 96 * 1024;

    @TempDir
    Path dir;

    @Test
    void sameFilesOffsetsAndBufferPositionsAsStockForAStreamOfBlocks() throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        ByteBuffer stream = stream(r);
        DefaultMessageStore stockStore = slave(dir.resolve("stock"));
        DefaultMessageStore ourStore = slave(dir.resolve("ours"));
        try {
            Client stock = new Client(stockStore, false);
            Client ours = new Client(ourStore, true);
            int reads = 0;
            boolean ok = true;
            while (ok && stream.hasRemaining()) {
                int chunk = 1 + r.nextInt(r.nextBoolean() ? 40 : 48 * 1024);
                String where = Seeds.replay(seed, reads++);
                boolean want = stock.read(stream.duplicate(), chunk);
                ok = ours.read(stream.duplicate(), chunk);
                assertEquals(want, ok, where);
                stream.position(stream.position() + Math.min(chunk, Math.min(stream.remaining(), stock.lastRead)));
                assertEquals(stock.lastRead, ours.lastRead, where);
                assertEquals(stock.appendPositions, ours.appendPositions, where);
                assertEquals(stock.dispatchPosition, ours.dispatchPosition, where);
                assertEquals(stock.read.position(), ours.read.position(), where);
                assertEquals(stock.read.limit(), ours.read.limit(), where);
                assertEquals(stockStore.getMaxPhyOffset(), ourStore.getMaxPhyOffset(), where);
            }
            assertFalse(ok, "the block that does not fit stops both, as the next block's offset is refused");
            assertTrue(stockStore.getMaxPhyOffset() > 3L * FILE_SIZE, "seed=" + seed);
            assertTrue(stock.blocks > 50, stock.blocks + " blocks");
            assertSameFiles(stockStore, ourStore, seed);
        } finally {
            close(stockStore);
            close(ourStore);
        }
    }

    @Test
    void sliceAppendsMatchStockWholeArrayAppendsMappedAndThroughTheChannel() throws IOException {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (boolean mapped : new boolean[] {true, false}) {
            MappedFile stock = new MappedFile(dir.resolve(mapped + "/stock/00000000000000000000").toString(), FILE_SIZE);
            MappedFile ours = new MappedFile(dir.resolve(mapped + "/ours/00000000000000000000").toString(), FILE_SIZE);
            try {
                byte[] source = new byte[64 * 1024];
                for (int i = 0; ; i++) {
                    r.nextBytes(source);
                    int offset = r.nextInt(source.length);
                    int length = r.nextInt(source.length - offset + 1);
                    byte[] block = new byte[length];
                    System.arraycopy(source, offset, block, 0, length);
                    boolean want = stock.appendMessage(block);
                    String where = Seeds.replay(seed, i) + " mapped=" + mapped;
                    assertEquals(want, SlaveReadInPlace.appendMessage(ours, source, offset, length, mapped), where);
                    assertEquals(stock.getWrotePosition(), ours.getWrotePosition(), where);
                    if (!want) {
                        break;
                    }
                }
                assertEquals(mapped ? 0 : ours.getWrotePosition(), ours.getFileChannel().position(), "mapped=" + mapped);
                stock.flush(0);
                ours.flush(0);
                assertArrayEquals(Files.readAllBytes(Path.of(stock.getFileName())),
                    Files.readAllBytes(Path.of(ours.getFileName())), "seed=" + seed + " mapped=" + mapped);
            } finally {
                stock.destroy(0);
                ours.destroy(0);
            }
        }
    }

    /** Blocks as a master's HAConnection sends them: offset, size, body; the last one crosses a file's end. */
    private static ByteBuffer stream(Random r) {
        ByteBuffer out = ByteBuffer.allocate(5 * FILE_SIZE);
        long offset = 0;
        while (true) {
            int inFile = (int) (FILE_SIZE - offset % FILE_SIZE);
            int size = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(32 * 1024);
            boolean last = offset > 3L * FILE_SIZE && size > inFile;
            if (!last) {
                size = Math.min(size, inFile);
            }
            if (out.remaining() < 12 + size) {
                throw new IllegalStateException("stream buffer too small");
            }
            out.putLong(offset).putInt(size);
            for (int i = 0; i < size; i++) {
                out.put((byte) r.nextInt());
            }
            offset += size;
            if (last) {
                // What a master would send next; refused by both, as the block before was not appended.
                out.putLong(offset).putInt(0);
                break;
            }
        }
        out.flip();
        return out;
    }

    /** 4.9.0's HAClient read and dispatch, with the block append stock's or P19's. */
    private static final class Client {
        final DefaultMessageStore store;
        final boolean inPlace;
        ByteBuffer read = ByteBuffer.allocate(READ_BUFFER);
        ByteBuffer backup = ByteBuffer.allocate(READ_BUFFER);
        int dispatchPosition;
        int lastRead;
        int blocks;
        /** The read buffer's position right after each append (before dispatch moves it back). */
        final List<Integer> appendPositions = new ArrayList<Integer>();

        Client(DefaultMessageStore store, boolean inPlace) {
            this.store = store;
            this.inPlace = inPlace;
        }

        /** One socket read of at most {@code chunk} bytes of {@code from}, then dispatchReadRequest. */
        boolean read(ByteBuffer from, int chunk) throws Exception {
            int n = Math.min(Math.min(chunk, from.remaining()), read.remaining());
            from.limit(from.position() + n);
            read.put(from);
            lastRead = n;
            return n == 0 || dispatch();
        }

        private boolean dispatch() throws Exception {
            final int msgHeaderSize = 8 + 4;
            int readSocketPos = read.position();
            while (true) {
                int diff = read.position() - dispatchPosition;
                if (diff >= msgHeaderSize) {
                    long masterPhyOffset = read.getLong(dispatchPosition);
                    int bodySize = read.getInt(dispatchPosition + 8);
                    long slavePhyOffset = store.getMaxPhyOffset();
                    if (slavePhyOffset != 0 && slavePhyOffset != masterPhyOffset) {
                        return false;
                    }
                    if (diff >= (msgHeaderSize + bodySize)) {
                        if (inPlace) {
                            SlaveReadInPlace.appendToCommitLog(TestFields.get(store, "shutdown", Boolean.class),
                                TestFields.get(commitLog(store), "mappedFileQueue", MappedFileQueue.class),
                                TestFields.get(commitLog(store), "putMessageLock", PutMessageLock.class),
                                TestFields.get(store, "reputMessageService", ServiceThread.class), masterPhyOffset, read,
                                dispatchPosition + msgHeaderSize, bodySize);
                        } else {
                            byte[] bodyData = new byte[bodySize];
                            read.position(dispatchPosition + msgHeaderSize);
                            read.get(bodyData);
                            store.appendToCommitLog(masterPhyOffset, bodyData);
                        }
                        appendPositions.add(read.position());
                        read.position(readSocketPos);
                        dispatchPosition += msgHeaderSize + bodySize;
                        blocks++;
                        continue;
                    }
                }
                if (!read.hasRemaining()) {
                    reallocate();
                }
                break;
            }
            return true;
        }

        private void reallocate() {
            int remain = READ_BUFFER - dispatchPosition;
            if (remain > 0) {
                read.position(dispatchPosition);
                backup.position(0);
                backup.limit(READ_BUFFER);
                backup.put(read);
            }
            ByteBuffer tmp = read;
            read = backup;
            backup = tmp;
            read.position(remain);
            read.limit(READ_BUFFER);
            dispatchPosition = 0;
        }
    }

    private static DefaultMessageStore slave(Path root) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setBrokerRole(BrokerRole.SLAVE);
        config.setStorePathRootDir(root.toString());
        config.setStorePathCommitLog(root.resolve("commitlog").toString());
        config.setMappedFileSizeCommitLog(FILE_SIZE);
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager("test"), null,
            new BrokerConfig());
        // Running, as start() leaves it, without the threads and the HA listener start() opens.
        TestFields.set(store, "shutdown", false);
        return store;
    }

    private static void assertSameFiles(DefaultMessageStore stock, DefaultMessageStore ours, long seed) throws Exception {
        List<MappedFile> a = TestFields.get(commitLog(stock), "mappedFileQueue", MappedFileQueue.class).getMappedFiles();
        List<MappedFile> b = TestFields.get(commitLog(ours), "mappedFileQueue", MappedFileQueue.class).getMappedFiles();
        assertEquals(names(a), names(b), "seed=" + seed);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).getWrotePosition(), b.get(i).getWrotePosition(), "seed=" + seed + " file " + i);
            a.get(i).flush(0);
            b.get(i).flush(0);
            assertArrayEquals(Files.readAllBytes(Path.of(a.get(i).getFileName())),
                Files.readAllBytes(Path.of(b.get(i).getFileName())), "seed=" + seed + " file " + i);
        }
    }

    private static List<String> names(List<MappedFile> files) {
        List<String> names = new ArrayList<String>();
        for (MappedFile f : files) {
            names.add(new File(f.getFileName()).getName());
        }
        return names;
    }

    private static void close(DefaultMessageStore store) throws Exception {
        TestFields.set(store, "shutdown", true);
        TestFields.get(store, "allocateMappedFileService", ServiceThread.class).shutdown();
        store.destroy();
    }

    private static CommitLog commitLog(DefaultMessageStore store) {
        return store.getCommitLog();
    }
}
