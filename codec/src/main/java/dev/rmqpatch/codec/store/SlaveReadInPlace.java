package dev.rmqpatch.codec.store;

import java.nio.ByteBuffer;

import dev.rmqpatch.codec.switches.PatchSwitches;
import org.apache.rocketmq.common.ServiceThread;
import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.store.MappedFile;
import org.apache.rocketmq.store.MappedFileQueue;
import org.apache.rocketmq.store.PutMessageLock;

/**
 * P19. A SLAVE's HAClient appends a block replicated from its master straight from its read buffer, where 4.9.0
 * copies each block into a new {@code byte[bodySize]} first ({@code HAService$HAClient.dispatchReadRequest}) and hands
 * that to {@code DefaultMessageStore.appendToCommitLog} and {@code CommitLog.appendData}. Upstream did the same in
 * 4.9.1 (apache/rocketmq#2886).
 *
 * <p>{@link #appendToCommitLog} is those two stock methods for a slice of the read buffer: the store's shut-down
 * check, the put lock around {@code getLastMappedFile(startOffset)} and the append, the reput thread's wake-up on
 * success, the same log lines and results. The patched class passes in the store's private parts; the read buffer's
 * position is left where stock's copy leaves it. The append itself goes through the file channel as stock, with
 * {@code MappedFile.appendMessage(byte[], int, int)}, or, with P14 enabled (it ships off), copies the slice into the
 * CommitLog mapping as P14 does (from the read buffer to the mapping in one copy): the same bytes either way.
 */
public final class SlaveReadInPlace {

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(LoggerName.STORE_LOGGER_NAME);

    private SlaveReadInPlace() {
    }

    /**
     * Appends {@code length} bytes of {@code block} from {@code start}, replicated at {@code startOffset}: stock's
     * {@code appendToCommitLog(startOffset, copy)} where the copy is what stock reads with
     * {@code block.position(start); block.get(copy)}, and which leaves {@code block}'s position at
     * {@code start + length} as that read does.
     *
     * @param shutdown   the store's {@code shutdown} flag, read on entry as stock does
     * @param queue      the CommitLog's mapped file queue
     * @param putLock    the CommitLog's put lock, held around the append as in {@code CommitLog.appendData}
     * @param reput      the store's reput thread, woken after a successful append
     * @return stock's result: false when the store is shut down or the block does not fit the last file
     */
    public static boolean appendToCommitLog(boolean shutdown, MappedFileQueue queue, PutMessageLock putLock,
                                            ServiceThread reput, long startOffset, ByteBuffer block, int start,
                                            int length) {
        if (length < 0 || !block.hasArray()) {
            // Stock's path, its exception (a negative size) included.
            byte[] copy = new byte[length];
            block.position(start);
            block.get(copy);
            return append(shutdown, queue, putLock, reput, startOffset, copy, 0, length);
        }
        // Where stock's get leaves it; the range is inside the bytes read (the caller checked), as for stock's get.
        block.position(start + length);
        return append(shutdown, queue, putLock, reput, startOffset, block.array(), block.arrayOffset() + start, length);
    }

    private static boolean append(boolean shutdown, MappedFileQueue queue, PutMessageLock putLock, ServiceThread reput,
                                  long startOffset, byte[] data, int offset, int length) {
        // DefaultMessageStore.appendToCommitLog
        if (shutdown) {
            LOG.warn("message store has shutdown, so appendToPhyQueue is forbidden");
            return false;
        }
        boolean result = appendData(queue, putLock, startOffset, data, offset, length);
        if (result) {
            reput.wakeup();
        } else {
            LOG.error("appendToPhyQueue failed " + startOffset + " " + length);
        }
        return result;
    }

    /** CommitLog.appendData. */
    private static boolean appendData(MappedFileQueue queue, PutMessageLock putLock, long startOffset, byte[] data,
                                      int offset, int length) {
        putLock.lock();
        try {
            MappedFile mappedFile = queue.getLastMappedFile(startOffset);
            if (null == mappedFile) {
                LOG.error("appendData getLastMappedFile error  " + startOffset);
                return false;
            }
            return appendMessage(mappedFile, data, offset, length);
        } finally {
            putLock.unlock();
        }
    }

    /**
     * {@code mappedFile.appendMessage} of {@code data[offset, offset + length)}: into the mapping while P14 is on (enabled)
     * (as {@link SlaveCommitLogAppend} does for a whole array), else stock's channel write of the slice. True when
     * it fits in the file (and was written), false when it does not, as stock.
     */
    public static boolean appendMessage(MappedFile mappedFile, byte[] data, int offset, int length) {
        return appendMessage(mappedFile, data, offset, length, PatchSwitches.P14);
    }

    static boolean appendMessage(MappedFile mappedFile, byte[] data, int offset, int length, boolean mapped) {
        if (!mapped) {
            return mappedFile.appendMessage(data, offset, length);
        }
        int position = mappedFile.getWrotePosition();
        if (position + length > mappedFile.getFileSize()) {
            return false;
        }
        if (!mappedFile.hold()) {
            return mappedFile.appendMessage(data, offset, length);
        }
        try {
            ByteBuffer target = mappedFile.getMappedByteBuffer().duplicate();
            target.position(position);
            target.put(data, offset, length);
        } catch (Throwable e) {
            // As in ConsumeQueueAppend: stock catches everything around its channel write, and logs it there.
            return mappedFile.appendMessage(data, offset, length);
        } finally {
            mappedFile.release();
        }
        // One writer (the HAClient, under the put lock), so this set is stock's addAndGet; the volatile write
        // publishes the bytes to readers that see the new position.
        mappedFile.setWrotePosition(position + length);
        return true;
    }
}
