package dev.rmqpatch.codec.ha;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import org.apache.rocketmq.store.SelectMappedBufferResult;

/**
 * P23. A SYNC_MASTER's {@code HAConnection$WriteSocketService.transferData()} (4.9.0) sends each replication transfer
 * with two socket writes: the 12-byte header (offset, size), then the body. With TCP_NODELAY (which HAConnection
 * sets) each write is its own segment and its own wake-up of the slave. Here the header write also sends the body,
 * as one gathering write, when the body has bytes left; stock's loops then find what is left (nothing, or the rest
 * of the header or body after a partial write) and continue exactly as they would, so the byte stream, the results
 * and the release of the buffer are stock's.
 *
 * <p>The body is remembered per thread (each HA connection has its own write thread) when {@code run()} takes it
 * from the transfer's {@code SelectMappedBufferResult}; both write call sites of {@code transferData()} come here,
 * and the body's own call site (its argument is the remembered body) is a plain write. A body with nothing left is
 * forgotten; a header written while none is remembered (a heartbeat) is a plain write.
 */
public final class HaGatherWrite {

    private static final ThreadLocal<State> STATE = new ThreadLocal<State>() {
        @Override
        protected State initialValue() {
            return new State();
        }
    };

    private HaGatherWrite() {
    }

    private static final class State {
        /** The current transfer's body, as run() took it; null once nothing is left in it. */
        ByteBuffer body;
        /** The gathering write's two buffers, reused (emptied after each write so no buffer is kept by it). */
        final ByteBuffer[] pair = new ByteBuffer[2];
        long writeCalls;
        long gatherWrites;
    }

    /** Replaces {@code selectResult.getByteBuffer()} in {@code WriteSocketService.run()}: remembers the body. */
    public static ByteBuffer body(SelectMappedBufferResult result) {
        ByteBuffer body = result.getByteBuffer();
        STATE.get().body = body;
        return body;
    }

    /**
     * Replaces both {@code socketChannel.write(ByteBuffer)} of {@code WriteSocketService.transferData()}. For the
     * header, while the remembered body has bytes left: one gathering write of header and body, returning the bytes
     * written (capped to an int; more than 0 whenever anything went out, as stock's loop expects). Otherwise (the
     * body itself, a heartbeat, a body already sent) the plain write.
     */
    public static int write(SocketChannel channel, ByteBuffer src) throws IOException {
        State s = STATE.get();
        s.writeCalls++;
        ByteBuffer body = s.body;
        if (body == null || body == src) {
            return channel.write(src);
        }
        if (!body.hasRemaining() || !src.hasRemaining()) {
            s.body = null;
            return channel.write(src);
        }
        ByteBuffer[] pair = s.pair;
        pair[0] = src;
        pair[1] = body;
        long written;
        try {
            written = channel.write(pair);
        } finally {
            pair[0] = null;
            pair[1] = null;
        }
        s.gatherWrites++;
        if (!body.hasRemaining()) {
            s.body = null;
        }
        return written > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) written;
    }

    /** Socket writes this thread made here (plain and gathering), for tests and benchmarks. */
    public static long writeCalls() {
        return STATE.get().writeCalls;
    }

    /** Gathering writes (header and body in one call) this thread made here, for tests and benchmarks. */
    public static long gatherWrites() {
        return STATE.get().gatherWrites;
    }

    /** Forgets this thread's body and counts, for tests and benchmarks. */
    public static void reset() {
        State s = STATE.get();
        s.body = null;
        s.writeCalls = 0;
        s.gatherWrites = 0;
    }
}
