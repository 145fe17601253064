package dev.rmqpatch.codec.store;

import org.apache.rocketmq.store.MappedFile;

/**
 * P14. Where a slave's {@code CommitLog.appendData} appends a block replicated from its master with
 * {@code MappedFile.appendMessage(byte[])} (in 4.9.0 a positioned write through the file channel: a copy of the
 * block into a temporary direct buffer and a {@code pwrite} per block), this copies the block into the file's memory
 * mapping, where the master's own appends go. Same bytes at the same position, the same write position and result;
 * a file that cannot be held, or a failed copy, gets the stock write. Upstream did the same in 4.9.3
 * (apache/rocketmq#3657). Flushing is as described in {@link ConsumeQueueAppend}.
 */
public final class SlaveCommitLogAppend {

    private SlaveCommitLogAppend() {
    }

    /** Replaces {@code mappedFile.appendMessage(data)} in {@code CommitLog.appendData(long, byte[])}. */
    public static boolean appendMessage(MappedFile mappedFile, byte[] data) {
        return ConsumeQueueAppend.appendMapped(mappedFile, data, true);
    }
}
