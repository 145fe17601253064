package dev.rmqpatch.codec.header;

import dev.rmqpatch.codec.hook.HeaderCodecLookup;
import org.apache.rocketmq.remoting.CommandCustomHeader;

/**
 * The registry through which the patched remoting layer finds a hand-written codec for a header class, in two
 * groups because each group is behind its own patches' switches: the send path's headers (P1 decode, P4 encode)
 * and the pull path's (P10 decode, P11 encode). Classes without a codec stay on stock reflection. To add a header:
 * write its {@link HeaderCodec} and list it in the group of the patch that owns it, and its class name in
 * {@code HeaderGroups} (which the remoting hooks ask first, so that remoting alone never loads this class); the
 * tests pick it up from {@link #all()}.
 */
public final class HeaderCodecs {

    // Identity scans over a handful of entries: cheaper than hashing a Class on every request.
    private static final HeaderCodec<?>[] SEND = {
        new SendMessageRequestHeaderV2Codec(),
        new SendMessageResponseHeaderCodec(),
        new SendMessageRequestHeaderCodec(),
    };

    private static final HeaderCodec<?>[] PULL = {
        new PullMessageRequestHeaderCodec(),
        new PullMessageResponseHeaderCodec(),
    };

    private HeaderCodecs() {
    }

    /** The send-path codec (P1, P4) for exactly this class, or null when stock reflection should handle it. */
    public static <T extends CommandCustomHeader> HeaderCodec<T> sendPath(Class<T> headerClass) {
        return find(SEND, headerClass);
    }

    /** The pull-path codec (P10, P11) for exactly this class, or null when stock reflection should handle it. */
    public static <T extends CommandCustomHeader> HeaderCodec<T> pullPath(Class<T> headerClass) {
        return find(PULL, headerClass);
    }

    /** The codec of either group for exactly this class, or null. */
    public static <T extends CommandCustomHeader> HeaderCodec<T> forClass(Class<T> headerClass) {
        HeaderCodec<T> codec = sendPath(headerClass);
        return codec != null ? codec : pullPath(headerClass);
    }

    /** Every registered codec, send path first, in lookup order. */
    public static HeaderCodec<?>[] all() {
        HeaderCodec<?>[] all = new HeaderCodec<?>[SEND.length + PULL.length];
        System.arraycopy(SEND, 0, all, 0, SEND.length);
        System.arraycopy(PULL, 0, all, SEND.length, PULL.length);
        return all;
    }

    @SuppressWarnings("unchecked")
    private static <T extends CommandCustomHeader> HeaderCodec<T> find(HeaderCodec<?>[] group, Class<T> headerClass) {
        for (HeaderCodec<?> codec : group) {
            if (codec.headerClass() == headerClass) {
                return (HeaderCodec<T>) codec;
            }
        }
        return null;
    }

    /** The registry for the remoting hooks, which reach it only for a header class of rocketmq-common ({@code HeaderGroups}). */
    public static final class Lookup implements HeaderCodecLookup {

        @Override
        public HeaderCodec<? extends CommandCustomHeader> sendPath(Class<? extends CommandCustomHeader> headerClass) {
            return HeaderCodecs.sendPath(headerClass);
        }

        @Override
        public HeaderCodec<? extends CommandCustomHeader> pullPath(Class<? extends CommandCustomHeader> headerClass) {
            return HeaderCodecs.pullPath(headerClass);
        }
    }
}
