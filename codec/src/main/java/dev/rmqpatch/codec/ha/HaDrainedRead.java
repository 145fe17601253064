package dev.rmqpatch.codec.ha;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * P24. Both read loops of 4.9.0's replication, the master's {@code HAConnection$ReadSocketService.processReadEvent()}
 * (the slave's acknowledgements) and the slave's {@code HAService$HAClient.processReadEvent()} (the master's
 * transfers), run after each wake-up of their selector as:
 * <pre>
 * while (buffer.hasRemaining()) {
 *     int readSize = socketChannel.read(buffer);
 *     if (readSize &gt; 0) { readSizeZeroTimes = 0; ...process... }
 *     else if (readSize == 0) { if (++readSizeZeroTimes &gt;= 3) break; }
 *     else { ...-1: return false... }
 * }</pre>
 * so a wake-up that brings one acknowledgement or one transfer costs four read system calls: the one that returns
 * the bytes and three that return 0. Here the loops' {@code socketChannel.read} comes to {@link #read}, which makes
 * the system call only when it can learn something: after a read that left room in the buffer (the kernel had no more
 * bytes for it) or that returned 0, the calls stock's loop still makes before it leaves (three, or two after a 0) are
 * answered 0 without a system call. The loop then counts, processes and leaves exactly as stock's; bytes that arrive
 * meanwhile are read at its next wake-up (the selector is level-triggered, so it returns at once for them), as stock
 * reads bytes that arrive just after its third empty read.
 *
 * <p>A call is answered 0 here only while the loop that made the draining read is still running: the same thread
 * (each HA connection's reader and the slave's client have a thread of their own), the same channel and buffer, the
 * buffer's position unchanged since (no byte read in between), and no more such calls than stock's loop makes before
 * it leaves. Anything else (a loop left early by an error, a reconnected channel, a swapped or reset buffer) gets a
 * real read. A read that fills the buffer, an end of stream and an exception are stock's, untouched.
 */
public final class HaDrainedRead {

    /** Stock's loops leave after this many reads in a row that return 0. */
    static final int STOCK_EMPTY_READS = 3;

    private static final ThreadLocal<State> STATE = new ThreadLocal<State>() {
        @Override
        protected State initialValue() {
            return new State();
        }
    };

    private HaDrainedRead() {
    }

    private static final class State {
        /** The channel and buffer of the draining read; null when no call is to be answered here. */
        SocketChannel channel;
        ByteBuffer buffer;
        /** The buffer's position just after the draining read. */
        int position;
        /** How many more calls of the same loop are answered 0 here. */
        int emptyLeft;
        long reads;
        long answered;

        void remember(SocketChannel c, ByteBuffer b, int left) {
            channel = c;
            buffer = b;
            position = b.position();
            emptyLeft = left;
        }

        void forget() {
            channel = null;
            buffer = null;
            emptyLeft = 0;
        }
    }

    /**
     * Replaces {@code socketChannel.read(byteBufferRead)} in both processReadEvent() loops: 0 without a system call
     * while the loop that just drained the socket is finishing (see the class comment), else the channel's read.
     */
    public static int read(SocketChannel channel, ByteBuffer dst) throws IOException {
        State s = STATE.get();
        if (s.emptyLeft > 0) {
            if (s.channel == channel && s.buffer == dst && dst.position() == s.position) {
                if (--s.emptyLeft == 0) {
                    s.forget();
                }
                s.answered++;
                return 0;
            }
            s.forget();
        }
        int room = dst.remaining();
        s.reads++;
        int n = channel.read(dst);
        if (room > 0) {
            if (n == 0) {
                // stock's loop has counted this one; it reads twice more before it leaves
                s.remember(channel, dst, STOCK_EMPTY_READS - 1);
            } else if (n > 0 && n < room) {
                // the kernel had no more bytes: stock's loop reads three more times, each returning 0 unless bytes
                // arrived within those microseconds, which the next wake-up reads instead
                s.remember(channel, dst, STOCK_EMPTY_READS);
            }
        }
        return n;
    }

    /** Read system calls this thread made here, for tests and benchmarks. */
    public static long reads() {
        return STATE.get().reads;
    }

    /** Calls this thread had answered 0 here without a system call, for tests and benchmarks. */
    public static long answered() {
        return STATE.get().answered;
    }

    /** Forgets this thread's loop and counts, for tests and benchmarks. */
    public static void reset() {
        State s = STATE.get();
        s.forget();
        s.reads = 0;
        s.answered = 0;
    }
}
