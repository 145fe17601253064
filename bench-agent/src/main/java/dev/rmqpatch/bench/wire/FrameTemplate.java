package dev.rmqpatch.bench.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The constant bytes of a remoting frame's header, cut around the values that change from one frame to the next.
 *
 * <p>The header is encoded once by stock RocketMQ code ({@link RemotingCommand#encodeHeader(int)}, fastjson for JSON
 * headers) from a command whose variable fields hold sentinel values; the sentinels are then found in the encoded text
 * and cut out. Field order, ext-field order (HashMap iteration) and escaping are therefore whatever the stock code
 * produces, never a guess of ours; writing the segments with real values in between gives the bytes stock code would
 * give for those values, without padding. Each sentinel must occur exactly once in the header, or the template is
 * refused.
 */
public final class FrameTemplate {
    private final byte[][] segments;
    private final int[] variables;
    private final int constantLength;
    private final byte serializeType;

    private FrameTemplate(byte[][] segments, int[] variables, byte serializeType) {
        this.segments = segments;
        this.variables = variables;
        this.serializeType = serializeType;
        int n = 0;
        for (byte[] s : segments) {
            n += s.length;
        }
        this.constantLength = n;
    }

    /**
     * Encodes {@code command}'s header with stock code and cuts it around {@code sentinels}; sentinel {@code i} becomes
     * variable {@code i}. Throws when a sentinel is missing, repeated or overlaps another.
     */
    public static FrameTemplate of(RemotingCommand command, String... sentinels) {
        return cut(stockHeader(command), command.getSerializeTypeCurrentRPC().getCode(), sentinels);
    }

    /** The header bytes stock code writes for {@code command} (without the frame's length and header-length fields). */
    public static byte[] stockHeader(RemotingCommand command) {
        ByteBuffer framed = command.encodeHeader(0);
        framed.getInt();
        framed.getInt();
        byte[] header = new byte[framed.remaining()];
        framed.get(header);
        return header;
    }

    static FrameTemplate cut(byte[] header, byte serializeType, String... sentinels) {
        int[] positions = new int[sentinels.length];
        byte[][] needles = new byte[sentinels.length][];
        for (int i = 0; i < sentinels.length; i++) {
            needles[i] = sentinels[i].getBytes(StandardCharsets.UTF_8);
            int first = indexOf(header, needles[i], 0);
            if (first < 0) {
                throw new IllegalStateException("sentinel " + sentinels[i] + " not found in the encoded header: "
                    + new String(header, StandardCharsets.UTF_8));
            }
            if (indexOf(header, needles[i], first + 1) >= 0) {
                throw new IllegalStateException("sentinel " + sentinels[i] + " occurs more than once in the encoded header");
            }
            positions[i] = first;
        }
        Integer[] order = new Integer[sentinels.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(positions[a], positions[b]));
        byte[][] segments = new byte[sentinels.length + 1][];
        int[] variables = new int[sentinels.length];
        int from = 0;
        for (int k = 0; k < order.length; k++) {
            int v = order[k];
            if (positions[v] < from) {
                throw new IllegalStateException("sentinels " + sentinels[v] + " and another overlap in the encoded header");
            }
            segments[k] = Arrays.copyOfRange(header, from, positions[v]);
            variables[k] = v;
            from = positions[v] + needles[v].length;
        }
        segments[sentinels.length] = Arrays.copyOfRange(header, from, header.length);
        return new FrameTemplate(segments, variables, serializeType);
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Number of variables; segments are one more. */
    public int variableCount() {
        return variables.length;
    }

    /** The id (sentinel index) of the k-th variable in header order. */
    public int variable(int k) {
        return variables[k];
    }

    public byte[] segment(int k) {
        return segments[k];
    }

    /** Bytes of the header without the variables. */
    public int constantLength() {
        return constantLength;
    }

    /** The serialize-type byte of the header-length field (0 = JSON, 1 = ROCKETMQ). */
    public byte serializeType() {
        return serializeType;
    }

    /** The header-length field: serialize type in the high byte, length in the low three, as stock's markProtocolType. */
    public int headerLengthField(int headerLength) {
        return (serializeType & 0xFF) << 24 | (headerLength & 0xFFFFFF);
    }
}
