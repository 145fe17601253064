package dev.rmqpatch.codec.ha;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The slave's side of 4.9.x replication, copied line for line from {@code HAService$HAClient}:
 * {@code processReadEvent()}, {@code dispatchReadRequest()} (4.9.0's, which copies each body out of the read buffer and
 * puts the position back, or 4.9.1+'s, which appends from the buffer's array: both leave the buffer as the
 * acknowledgement sees it), {@code reallocateByteBuffer()} and {@code reportSlaveMaxOffsetPlus()}, over a small store
 * model. What the patches under test replace is left to subclasses: the socket's read ({@link #read}, P24), the
 * acknowledgement's write ({@link #reportSlaveMaxOffset}), the hook first in {@code reportSlaveMaxOffsetPlus()}
 * ({@link #deferReport}, P37) and {@code closeMaster()}.
 */
abstract class StockHaClient {

    final int readMaxBufferSize;
    final boolean copyOut490;
    ByteBuffer byteBufferRead;
    ByteBuffer byteBufferBackup;
    int dispatchPosition;
    long currentReportedOffset;
    /** The store: its CommitLog's bytes and max offset. */
    final ByteArrayOutputStream commitLog = new ByteArrayOutputStream();
    long maxPhyOffset;
    /** The store's max offset after each append, in order. */
    final List<Long> appends = new ArrayList<>();
    /** Every offset acknowledged to the master, in order (subclasses add what they wrote). */
    final List<Long> reports = new ArrayList<>();

    StockHaClient(int readMaxBufferSize, boolean copyOut490, long storeMax) {
        this.readMaxBufferSize = readMaxBufferSize;
        this.copyOut490 = copyOut490;
        this.byteBufferRead = ByteBuffer.allocate(readMaxBufferSize);
        this.byteBufferBackup = ByteBuffer.allocate(readMaxBufferSize);
        this.maxPhyOffset = storeMax;
        this.currentReportedOffset = storeMax;
    }

    /** {@code socketChannel.read(byteBufferRead)}. */
    abstract int read() throws IOException;

    /** Writes the acknowledgement; false when it could not be written whole. */
    abstract boolean reportSlaveMaxOffset(long maxOffset);

    /** What stock does when an acknowledgement fails. */
    abstract void closeMaster();

    /** A patch's hook first in {@code reportSlaveMaxOffsetPlus()}: true returns true at once. Stock: none. */
    boolean deferReport() {
        return false;
    }

    void appendToCommitLog(long startOffset, byte[] data, int start, int size) {
        commitLog.write(data, start, size);
        maxPhyOffset = startOffset + size;
        appends.add(maxPhyOffset);
    }

    void reallocateByteBuffer() {
        int remain = readMaxBufferSize - this.dispatchPosition;
        if (remain > 0) {
            this.byteBufferRead.position(this.dispatchPosition);

            this.byteBufferBackup.position(0);
            this.byteBufferBackup.limit(readMaxBufferSize);
            this.byteBufferBackup.put(this.byteBufferRead);
        }

        this.swapByteBuffer();

        this.byteBufferRead.position(remain);
        this.byteBufferRead.limit(readMaxBufferSize);
        this.dispatchPosition = 0;
    }

    private void swapByteBuffer() {
        ByteBuffer tmp = this.byteBufferRead;
        this.byteBufferRead = this.byteBufferBackup;
        this.byteBufferBackup = tmp;
    }

    boolean processReadEvent() {
        int readSizeZeroTimes = 0;
        while (this.byteBufferRead.hasRemaining()) {
            try {
                int readSize = read();
                if (readSize > 0) {
                    readSizeZeroTimes = 0;
                    boolean result = this.dispatchReadRequest();
                    if (!result) {
                        return false;
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

    private boolean dispatchReadRequest() {
        final int msgHeaderSize = 8 + 4; // phyoffset + size
        int readSocketPos = this.byteBufferRead.position();

        while (true) {
            int diff = this.byteBufferRead.position() - this.dispatchPosition;
            if (diff >= msgHeaderSize) {
                long masterPhyOffset = this.byteBufferRead.getLong(this.dispatchPosition);
                int bodySize = this.byteBufferRead.getInt(this.dispatchPosition + 8);

                long slavePhyOffset = maxPhyOffset;

                if (slavePhyOffset != 0) {
                    if (slavePhyOffset != masterPhyOffset) {
                        return false;
                    }
                }

                if (diff >= (msgHeaderSize + bodySize)) {
                    if (copyOut490) {
                        byte[] bodyData = new byte[bodySize];
                        this.byteBufferRead.position(this.dispatchPosition + msgHeaderSize);
                        this.byteBufferRead.get(bodyData);
                        appendToCommitLog(masterPhyOffset, bodyData, 0, bodySize);
                        this.byteBufferRead.position(readSocketPos);
                    } else {
                        byte[] bodyData = this.byteBufferRead.array();
                        int dataStart = this.dispatchPosition + msgHeaderSize;
                        appendToCommitLog(masterPhyOffset, bodyData, dataStart, bodySize);
                    }
                    this.dispatchPosition += msgHeaderSize + bodySize;

                    if (!reportSlaveMaxOffsetPlus()) {
                        return false;
                    }

                    continue;
                }
            }

            if (!this.byteBufferRead.hasRemaining()) {
                this.reallocateByteBuffer();
            }

            break;
        }

        return true;
    }

    boolean reportSlaveMaxOffsetPlus() {
        if (deferReport()) {
            return true;
        }
        boolean result = true;
        long currentPhyOffset = maxPhyOffset;
        if (currentPhyOffset > this.currentReportedOffset) {
            this.currentReportedOffset = currentPhyOffset;
            result = this.reportSlaveMaxOffset(this.currentReportedOffset);
            if (!result) {
                this.closeMaster();
            }
        }

        return result;
    }
}
