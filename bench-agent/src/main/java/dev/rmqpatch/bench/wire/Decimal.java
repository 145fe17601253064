package dev.rmqpatch.bench.wire;

import io.netty.buffer.ByteBuf;

/** Decimal ASCII of integers straight into a buffer, as {@code Long.toString} would spell them, without a String. */
public final class Decimal {
    private Decimal() {
    }

    /** Characters {@code Long.toString(value)} has. */
    public static int length(long value) {
        if (value < 0) {
            return value == Long.MIN_VALUE ? 20 : 1 + length(-value);
        }
        int n = 1;
        long limit = 10;
        while (n < 19 && value >= limit) {
            n++;
            limit *= 10;
        }
        return n;
    }

    /** Writes {@code Long.toString(value)} in ASCII at the writer index. */
    public static void write(ByteBuf out, long value) {
        if (value == Long.MIN_VALUE) {
            out.writeBytes(Long.toString(value).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return;
        }
        if (value < 0) {
            out.writeByte('-');
            value = -value;
        }
        int n = length(value);
        int start = out.writerIndex();
        out.ensureWritable(n);
        for (int i = n - 1; i >= 0; i--) {
            out.setByte(start + i, (int) ('0' + value % 10));
            value /= 10;
        }
        out.writerIndex(start + n);
    }
}
