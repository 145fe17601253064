package dev.rmqpatch.codec.security;

import java.io.IOException;
import java.util.Arrays;
import java.util.zip.InflaterInputStream;

/**
 * S6, the name server's side: a compressed REGISTER_BROKER body ({@code compressed=true}, what 4.9.0 brokers send) is
 * a deflate stream of length-prefixed parts, and stock's {@code RegisterBrokerBody.readBytes(stream, length)}
 * allocates each claimed length at once: a body of a few dozen bytes claiming 2,000,000,000 makes the name server,
 * which has no authentication, throw OutOfMemoryError. This reader grows its buffer with the bytes that actually
 * arrive (at most twice what the stream holds), and gives stock's result and stock's IOException otherwise.
 */
public final class CompressedBodies {

    /** Claims up to this size are allocated at once, as stock does. */
    static final int DIRECT = 64 * 1024;

    private CompressedBodies() {
    }

    /**
     * Replaces the body of {@code RegisterBrokerBody.readBytes(InflaterInputStream, int)}: exactly {@code length}
     * bytes of the stream.
     *
     * @throws IOException as stock, when the stream ends first, or for a negative length
     */
    public static byte[] readBytes(InflaterInputStream in, int length) throws IOException {
        if (length < 0) {
            throw new IOException("rmqpatch S6: negative length " + length + " in a compressed register-broker body");
        }
        byte[] buffer = new byte[Math.min(length, DIRECT)];
        int read = 0;
        while (read < length) {
            if (read == buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(length, 2L * buffer.length));
            }
            int n = in.read(buffer, read, buffer.length - read);
            if (n == -1) {
                throw new IOException("End of compressed data has reached");
            }
            read += n;
        }
        return buffer;
    }
}
