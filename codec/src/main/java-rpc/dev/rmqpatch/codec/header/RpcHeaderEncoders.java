package dev.rmqpatch.codec.header;

import org.apache.rocketmq.remoting.CommandCustomHeader;

/**
 * The encoders of the 4.9.7+ variants of P4 (send group) and P11 (pull group): 4.9.7 made the send and pull request
 * headers {@code RpcRequestHeader}s (a {@code bname} field; {@code n} in SEND_MESSAGE_V2) and its
 * {@code makeCustomHeaderToNet()} walks the fields of the class and its superclasses through a HashSet, so the keys go
 * into the map in another order than 4.9.0's declaration order. Encode only: P1 and P10 are upstream from 4.9.4 on.
 * Compiled against 4.9.7's headers (src/main/java-rpc, the codec pom's second compile): the encoders call
 * {@code RpcRequestHeader.getBname()}, which 4.9.0's classes lack (V2's {@code n}, which has no getter, through the
 * V1 copy's), so only the variants' hooks ({@code RpcHeaderHooks}) reach them, and ReleasePlan's CodecLinks witness
 * refuses them on a release without those members; its HeaderMirrors checks each group against the release's headers.
 */
public final class RpcHeaderEncoders {

    private static final HeaderEncoder<?>[] SEND = {
        new SendMessageRequestHeaderV2RpcEncoder(),
        new SendMessageResponseHeaderRpcEncoder(),
        new SendMessageRequestHeaderRpcEncoder(),
    };

    private static final HeaderEncoder<?>[] PULL = {
        new PullMessageRequestHeaderRpcEncoder(),
        new PullMessageResponseHeaderRpcEncoder(),
    };

    private RpcHeaderEncoders() {
    }

    /** P4's 4.9.7+ variant: the encoder for exactly this class, or null (stock reflection). */
    public static <T extends CommandCustomHeader> HeaderEncoder<T> sendPath(Class<T> headerClass) {
        return find(SEND, headerClass);
    }

    /** P11's 4.9.7+ variant: the encoder for exactly this class, or null (stock reflection). */
    public static <T extends CommandCustomHeader> HeaderEncoder<T> pullPath(Class<T> headerClass) {
        return find(PULL, headerClass);
    }

    /** Every encoder, send group first. */
    public static HeaderEncoder<?>[] all() {
        HeaderEncoder<?>[] all = new HeaderEncoder<?>[SEND.length + PULL.length];
        System.arraycopy(SEND, 0, all, 0, SEND.length);
        System.arraycopy(PULL, 0, all, SEND.length, PULL.length);
        return all;
    }

    @SuppressWarnings("unchecked")
    private static <T extends CommandCustomHeader> HeaderEncoder<T> find(HeaderEncoder<?>[] group, Class<T> headerClass) {
        for (HeaderEncoder<?> encoder : group) {
            if (encoder.headerClass() == headerClass) {
                return (HeaderEncoder<T>) encoder;
            }
        }
        return null;
    }
}
