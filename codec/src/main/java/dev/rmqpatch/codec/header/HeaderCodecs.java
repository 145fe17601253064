package dev.rmqpatch.codec.header;

import org.apache.rocketmq.remoting.CommandCustomHeader;

/**
 * The registry through which the patched remoting layer finds a hand-written codec for a header class.
 * Classes without one stay on stock reflection. To add a header: write its {@link HeaderCodec}, list it here,
 * and add it to the differential test's list; the broker patches need no change.
 */
public final class HeaderCodecs {

    // Identity scan over a handful of entries: cheaper than hashing a Class on every request.
    private static final HeaderCodec<?>[] CODECS = {
        new SendMessageRequestHeaderV2Codec(),
        new SendMessageResponseHeaderCodec(),
        new SendMessageRequestHeaderCodec(),
    };

    private HeaderCodecs() {
    }

    /** The codec for exactly this class, or null when stock reflection should handle it. */
    @SuppressWarnings("unchecked")
    public static <T extends CommandCustomHeader> HeaderCodec<T> forClass(Class<T> headerClass) {
        for (HeaderCodec<?> codec : CODECS) {
            if (codec.headerClass() == headerClass) {
                return (HeaderCodec<T>) codec;
            }
        }
        return null;
    }

    /** Every registered codec, in lookup order. */
    public static HeaderCodec<?>[] all() {
        return CODECS.clone();
    }
}
