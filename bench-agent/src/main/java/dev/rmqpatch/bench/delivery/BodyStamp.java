package dev.rmqpatch.bench.delivery;

import java.time.Instant;

/**
 * The first 24 bytes of every message body in a run with consumers: who sent it, its place in that sender's sequence,
 * and when. The rest of the body stays the agent's random bytes, so the stored size does not change. Big-endian:
 *
 * <pre>
 *  0  4  magic 0x524D5142 ("RMQB"): a body without it is not the harness's (counted as a consume error)
 *  4  4  stream: agent index * 65536 + sender index; one sequence per stream, so senders never share a counter
 *  8  8  sequence within the stream, from 0
 * 16  8  send time, microseconds since the epoch, on the coordinator's clock (the agent's wall clock minus the offset
 *        the coordinator measured at prepare; on one host the offset is 0 and both ends read the same clock)
 * </pre>
 *
 * A body prefix rather than a user property: a client that writes pre-encoded frames only has to overwrite 24 bytes at
 * a fixed place of its frame per message, and the properties string (what the broker parses) stays as without stamps.
 */
public final class BodyStamp {
    public static final int LENGTH = 24;
    public static final int MAGIC = 0x524D5142;
    /** Senders per agent a stream id can name. */
    public static final int STREAMS_PER_AGENT = 65536;

    private BodyStamp() {
    }

    public static int stream(int agentIndex, int senderIndex) {
        if (agentIndex < 0 || senderIndex < 0 || senderIndex >= STREAMS_PER_AGENT || agentIndex >= Integer.MAX_VALUE / STREAMS_PER_AGENT) {
            throw new IllegalArgumentException("no stream id for agent " + agentIndex + ", sender " + senderIndex);
        }
        return agentIndex * STREAMS_PER_AGENT + senderIndex;
    }

    /** Writes the stamp over the first {@link #LENGTH} bytes of {@code body}, from {@code offset}. */
    public static void write(byte[] body, int offset, int stream, long sequence, long sendMicros) {
        putInt(body, offset, MAGIC);
        putInt(body, offset + 4, stream);
        putLong(body, offset + 8, sequence);
        putLong(body, offset + 16, sendMicros);
    }

    /** True when the body starts with a stamp. */
    public static boolean present(byte[] body) {
        return body != null && body.length >= LENGTH && getInt(body, 0) == MAGIC;
    }

    public static int stream(byte[] body) {
        return getInt(body, 4);
    }

    public static long sequence(byte[] body) {
        return getLong(body, 8);
    }

    public static long sendMicros(byte[] body) {
        return getLong(body, 16);
    }

    /** Wall-clock microseconds (CLOCK_REALTIME through {@link Instant#now()}, which has microsecond resolution on Linux). */
    public static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static void putLong(byte[] b, int at, long v) {
        putInt(b, at, (int) (v >>> 32));
        putInt(b, at + 4, (int) v);
    }

    private static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    private static long getLong(byte[] b, int at) {
        return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xFFFFFFFFL);
    }
}
