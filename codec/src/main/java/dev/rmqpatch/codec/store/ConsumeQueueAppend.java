package dev.rmqpatch.codec.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;

import org.apache.rocketmq.store.MappedFile;

/**
 * P12. Where stock {@code ConsumeQueue} appends an entry with {@code MappedFile.appendMessage(byte[])}, which
 * writes through the file channel (a positioned {@code write} system call, and a copy into a temporary direct
 * buffer, for every 20-byte entry on the dispatch thread), this copies the bytes into the file's memory mapping,
 * which is the same page cache, as the CommitLog's own appends do.
 *
 * <p>Same bytes at the same position, and the same write position afterwards, as stock. The mapping is held
 * ({@code hold()}/{@code release()}) while it is written: a consume queue file that is being deleted (a topic
 * deleted, an expired file cleaned) is unmapped by its cleaner, and a store into an unmapped region would crash
 * the JVM, where the channel write of stock only logs an error. When the file cannot be held, or the mapped write
 * fails, the stock method does the append, with stock's result and stock's logging.
 *
 * <p>Flushing is untouched: {@code MappedFile.flush} forces the mapping when the file channel was never written
 * (its position is 0), and the channel otherwise; either writes the file's dirty pages to disk, so the same
 * flush service flushes the same data at the same moments.
 */
public final class ConsumeQueueAppend {

    private ConsumeQueueAppend() {
    }

    /**
     * Replaces {@code mappedFile.appendMessage(data)} in {@code ConsumeQueue}: true when the entry fits in the file
     * (and was written), false when the file is full, as stock.
     */
    public static boolean appendMessage(MappedFile mappedFile, byte[] data) {
        return appendMapped(mappedFile, data, false);
    }

    /**
     * The mapped append of P12 and P14: {@code bulk} copies with one bulk put into a duplicate of the mapping (for
     * the slave's blocks of up to 32 KB, where the copy dominates), else with absolute puts (for 20-byte entries,
     * where the duplicate's allocation would).
     */
    static boolean appendMapped(MappedFile mappedFile, byte[] data, boolean bulk) {
        int position = mappedFile.getWrotePosition();
        if (position + data.length > mappedFile.getFileSize()) {
            return false;
        }
        if (!mappedFile.hold()) {
            return mappedFile.appendMessage(data);
        }
        try {
            if (bulk) {
                ByteBuffer target = mappedFile.getMappedByteBuffer().duplicate();
                target.position(position);
                target.put(data);
            } else {
                put(mappedFile.getMappedByteBuffer(), position, data);
            }
        } catch (Throwable e) {
            // Stock catches everything around its channel write too; its own write then logs what goes wrong.
            return mappedFile.appendMessage(data);
        } finally {
            mappedFile.release();
        }
        // One writer per file (a consume queue's dispatch thread; the slave's HAClient under the put lock), so this
        // set is stock's addAndGet; the volatile write publishes the bytes to readers that see the new position.
        mappedFile.setWrotePosition(position + data.length);
        return true;
    }

    /**
     * Absolute puts: the buffer's own position, which readers' slices start from, is never moved, and nothing is
     * allocated (JDK 8 has no absolute bulk put).
     */
    static void put(MappedByteBuffer buffer, int position, byte[] data) {
        int i = 0;
        if (buffer.order() == ByteOrder.BIG_ENDIAN) {
            for (; i + 8 <= data.length; i += 8) {
                buffer.putLong(position + i, longAt(data, i));
            }
            if (i + 4 <= data.length) {
                buffer.putInt(position + i, intAt(data, i));
                i += 4;
            }
        }
        for (; i < data.length; i++) {
            buffer.put(position + i, data[i]);
        }
    }

    private static long longAt(byte[] b, int i) {
        return ((long) intAt(b, i) << 32) | (intAt(b, i + 4) & 0xFFFFFFFFL);
    }

    private static int intAt(byte[] b, int i) {
        return (b[i] << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }
}
