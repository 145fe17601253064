package dev.rmqpatch.codec.security;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * S6: every length a remoting frame claims is checked against the bytes it has before stock allocates it. Stock
 * 4.9.0 trusts them: {@code RemotingCommand.decode} allocates the header length the frame's second word claims (up
 * to 16 MB) before it looks at the frame's size, and the ROCKETMQ binary header format
 * ({@code RocketMQSerializable.rocketMQProtocolDecode}, chosen by the header-length word's top byte = 1) allocates
 * whatever its remark, ext-fields, key and value length fields claim: a 21-byte frame claiming a 2,000,000,000-byte
 * remark throws OutOfMemoryError (upstream bounded them in 4.9.3/4.9.4). A bad length throws {@link ClaimExceedsFrame},
 * a {@link BufferUnderflowException} as stock's decode of a header shorter than it claims throws (after allocating),
 * which {@code NettyDecoder} treats as every undecodable frame: the connection is closed and the server serves the
 * others. A well-formed frame goes on to the stock decode unchanged.
 */
public final class FrameBounds {

    /** code (2), language (1), version (2), opaque (4), flag (4): then the remark length. */
    private static final int FIXED = 13;

    private FrameBounds() {
    }

    /**
     * Entry of {@code RemotingCommand.decode(ByteBuffer)} (a frame without its total-length word): null, for the
     * stock decode, when the header fits in the frame.
     *
     * @throws ClaimExceedsFrame when the header length exceeds the frame
     */
    public static RemotingCommand checkFrame(ByteBuffer frame) {
        int available = frame.remaining() - 4;
        if (available >= 0) {
            int headerLength = frame.getInt(frame.position()) & 0xFFFFFF;
            if (headerLength > available) {
                throw new ClaimExceedsFrame("rmqpatch S6: frame header length " + headerLength
                    + " exceeds the " + available + " bytes the frame has after it");
            }
        }
        return null;
    }

    /**
     * Entry of {@code RocketMQSerializable.rocketMQProtocolDecode(byte[])}: null, for the stock decode, when every
     * length the header claims fits in the bytes left after it; otherwise nothing is allocated.
     *
     * @throws ClaimExceedsFrame naming the field, its length and the bytes left
     */
    public static RemotingCommand checkRocketMQHeader(byte[] header) {
        ByteBuffer b = ByteBuffer.wrap(header);
        int all = header.length;
        need(b, all, FIXED + 4, "fixed fields and remark length");
        b.position(FIXED);
        int remark = b.getInt();
        if (remark > 0) {
            need(b, all, remark, "remark");
            b.position(b.position() + remark);
        }
        need(b, all, 4, "ext-fields length");
        int ext = b.getInt();
        if (ext > 0) {
            need(b, all, ext, "ext fields");
            int end = b.position() + ext;
            while (b.position() < end) {
                need(b, end, 2, "ext-field key length");
                short key = b.getShort();
                need(b, end, key, "ext-field key");
                b.position(b.position() + key);
                need(b, end, 4, "ext-field value length");
                int value = b.getInt();
                need(b, end, value, "ext-field value");
                b.position(b.position() + value);
            }
        }
        return null;
    }

    /** Throws unless {@code claimed} is at least 0 and at most the bytes from the position up to {@code end}. */
    private static void need(ByteBuffer b, int end, int claimed, String what) {
        int left = end - b.position();
        if (claimed < 0 || claimed > left) {
            throw new ClaimExceedsFrame("rmqpatch S6: ROCKETMQ-format header's " + what + " (" + claimed
                + " bytes) exceeds the " + left + " bytes left in the header");
        }
    }

    /** A length that does not fit: stock's exception type for a short header, with a message naming the field. */
    public static final class ClaimExceedsFrame extends BufferUnderflowException {

        private static final long serialVersionUID = 1L;
        private final String message;

        ClaimExceedsFrame(String message) {
            this.message = message;
        }

        @Override
        public String getMessage() {
            return message;
        }
    }
}
