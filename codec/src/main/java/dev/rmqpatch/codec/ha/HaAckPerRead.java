package dev.rmqpatch.codec.ha;

import java.nio.ByteBuffer;

import org.apache.rocketmq.store.ha.HAService;

/**
 * P37. A SLAVE's {@code HAService$HAClient.dispatchReadRequest()} cuts the transfers its master pushed out of the
 * bytes one read brought, and after appending each one calls {@code reportSlaveMaxOffsetPlus()}, which writes the
 * store's new max offset to the master (8 bytes, one write system call, one wake-up of the master's reader) whenever
 * it grew. When one read brings several transfers (about one read in four at a steady rate), every acknowledgement
 * but the last is superseded microseconds later by the next, which covers it: the master only keeps the highest.
 *
 * <p>{@link #deferReport} runs first in {@code reportSlaveMaxOffsetPlus()}. It answers true (report later: the
 * method returns true without writing) only when the bytes already read hold, at {@code dispatchPosition}, a whole
 * next transfer that stock's loop will append at once: a header, a body size that is not negative and fits in what
 * was read, and the master offset stock's check accepts (the slave's max offset, or a slave with an empty store).
 * Then the loop's next turn appends it and calls {@code reportSlaveMaxOffsetPlus()} again, which reports both (or
 * defers again for a third). In every other case, the last transfer of a read, a partial or malformed next one, an
 * offset stock refuses, the call from {@code run()} after the read loop (which has dispatched every whole transfer,
 * or stopped at one with a refused offset), stock's method runs as it is. So every acknowledgement stock writes is
 * written, for the same or a higher offset, before the slave's thread leaves the dispatch of that read; no transfer's
 * acknowledgement waits for another read.
 *
 * <p>A deferral counts on the next append. Stock's append reports a failing store by returning false (its failure
 * paths log and return; none throws), after which the loop's next call finds an offset stock refuses, or no next
 * transfer, and reports at once. Were the append to throw (the exception leaves {@code run()}'s turn and the transfer
 * stays in the buffer), the next call finds the store's max offset where the deferral left it and does not defer
 * again: the offset is reported at the end of the slave's next read loop that completes. The thread remembers its
 * last deferral (each slave's HAClient has a thread of its own).
 */
public final class HaAckPerRead {

    /** The master offset (8) and body size (4) before each transfer's body. */
    static final int HEADER_SIZE = 12;

    /** The store's max offset at this thread's last deferral; {@code NONE} when its last call did not defer. */
    private static final long NONE = Long.MIN_VALUE;

    private static final ThreadLocal<long[]> DEFERRED_AT = new ThreadLocal<long[]>() {
        @Override
        protected long[] initialValue() {
            return new long[] {NONE};
        }
    };

    private HaAckPerRead() {
    }

    /**
     * The hook of {@code HAClient.reportSlaveMaxOffsetPlus()} in a patched store: {@code read} and
     * {@code dispatchPosition} are the client's read buffer and dispatch position, {@code service} its outer
     * HAService (for the store's max offset, read only when a whole next transfer is there).
     *
     * @return true to skip this report (the loop appends and reports the next transfer at once), false to report
     */
    public static boolean deferReport(ByteBuffer read, int dispatchPosition, HAService service) {
        long[] deferredAt = DEFERRED_AT.get();
        if (!wholeTransferAt(read, dispatchPosition)) {
            deferredAt[0] = NONE;
            return false;
        }
        return decide(deferredAt, read.getLong(dispatchPosition), service.getDefaultMessageStore().getMaxPhyOffset());
    }

    /** {@link #deferReport} with the store's max offset given: for tests and benchmarks. */
    public static boolean deferReport(ByteBuffer read, int dispatchPosition, long slaveMaxPhyOffset) {
        long[] deferredAt = DEFERRED_AT.get();
        if (!wholeTransferAt(read, dispatchPosition)) {
            deferredAt[0] = NONE;
            return false;
        }
        return decide(deferredAt, read.getLong(dispatchPosition), slaveMaxPhyOffset);
    }

    /**
     * Defers when stock's check accepts the next transfer's offset, unless this thread deferred last at the same store
     * offset: then the append it counted on did not happen (or added nothing), and stock's report runs.
     */
    private static boolean decide(long[] deferredAt, long masterPhyOffset, long slavePhyOffset) {
        if (deferredAt[0] == slavePhyOffset || !accepted(masterPhyOffset, slavePhyOffset)) {
            deferredAt[0] = NONE;
            return false;
        }
        deferredAt[0] = slavePhyOffset;
        return true;
    }

    /** Forgets this thread's last deferral, for tests and benchmarks. */
    public static void reset() {
        DEFERRED_AT.get()[0] = NONE;
    }

    /**
     * Whether the bytes read so far (up to the buffer's position) hold a header at {@code dispatchPosition} and the
     * whole body it announces, as stock's loop tests before it appends ({@code diff >= msgHeaderSize + bodySize}),
     * here without its int overflow: a negative or overflowing size is not a whole transfer, so stock's method runs
     * before stock's loop meets it.
     */
    static boolean wholeTransferAt(ByteBuffer read, int dispatchPosition) {
        long diff = (long) read.position() - dispatchPosition;
        if (dispatchPosition < 0 || diff < HEADER_SIZE) {
            return false;
        }
        int bodySize = read.getInt(dispatchPosition + 8);
        return bodySize >= 0 && diff >= HEADER_SIZE + (long) bodySize;
    }

    /** Stock's check before an append: a slave with an empty store takes any offset, else only its own max offset. */
    static boolean accepted(long masterPhyOffset, long slavePhyOffset) {
        return slavePhyOffset == 0 || slavePhyOffset == masterPhyOffset;
    }
}
