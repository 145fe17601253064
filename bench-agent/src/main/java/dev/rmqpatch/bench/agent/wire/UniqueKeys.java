package dev.rmqpatch.bench.agent.wire;

import io.netty.buffer.ByteBuf;
import java.util.Calendar;
import org.apache.rocketmq.common.message.MessageClientIDSetter;

/**
 * Message unique keys (the UNIQ_KEY property) in the format of the 4.9.0 client's {@code MessageClientIDSetter}: a
 * fixed prefix per process (IP, pid, class-loader hash, taken from stock code once) followed by 12 hex digits, the
 * milliseconds since the start of the current month (4 bytes) and a counter (2 bytes). Written straight into the
 * frame, uppercase as stock's {@code bytes2string}.
 */
public final class UniqueKeys {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final byte[] prefix;
    private long monthStart;
    private long nextMonthStart;
    private int counter;

    public UniqueKeys() {
        String sample = MessageClientIDSetter.createUniqID();
        // Stock's fixed part is everything but the last 6 bytes (12 hex digits).
        this.prefix = sample.substring(0, sample.length() - 12).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        month(System.currentTimeMillis());
    }

    public int length() {
        return prefix.length + 12;
    }

    private void month(long now) {
        Calendar cal = Calendar.getInstance();
        cal.setTimeInMillis(now);
        cal.set(Calendar.DAY_OF_MONTH, 1);
        cal.set(Calendar.HOUR_OF_DAY, 0);
        cal.set(Calendar.MINUTE, 0);
        cal.set(Calendar.SECOND, 0);
        cal.set(Calendar.MILLISECOND, 0);
        monthStart = cal.getTimeInMillis();
        cal.add(Calendar.MONTH, 1);
        nextMonthStart = cal.getTimeInMillis();
    }

    /** Writes the next key; {@code nowMillis} is the message's born time. Thread-safe (one lock per key, uncontended on one loop). */
    synchronized void write(ByteBuf out, long nowMillis) {
        if (nowMillis >= nextMonthStart) {
            month(nowMillis);
        }
        out.writeBytes(prefix);
        // 8 + 4 hex digits as two big-endian writes (a byte at a time was a measurable share of the agent's CPU).
        out.writeLong(hex8((int) (nowMillis - monthStart)));
        out.writeInt((int) hex8(counter++ & 0xFFFF));
    }

    /** The key {@link #write} would write, as a String (tests and the self-check). */
    public String next(long nowMillis) {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer(length());
        write(b, nowMillis);
        return b.toString(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The 8 uppercase hex digits of {@code value} as ASCII bytes, most significant first (the low 4 are the low 16 bits'). */
    static long hex8(int value) {
        long packed = 0;
        for (int shift = 28; shift >= 0; shift -= 4) {
            packed = packed << 8 | HEX[(value >>> shift) & 0xF];
        }
        return packed;
    }
}
