package dev.rmqpatch.bench.wire;

import io.netty.buffer.ByteBuf;

/**
 * Reads a remoting frame's code, opaque and flag without decoding its header into a command: what a load generator and
 * a no-op sink need per message. Holds the last frame's values, so one instance per channel handler reads every frame
 * without allocating.
 *
 * <p>JSON headers are scanned for the three top-level keys (strings and nested objects skipped, so an ext field or a
 * remark that happens to contain {@code "opaque":} does not confuse it); ROCKETMQ (binary) headers have them at fixed
 * offsets.
 */
public final class HeaderFields {
    private static final byte[] CODE = {'c', 'o', 'd', 'e'};
    private static final byte[] OPAQUE = {'o', 'p', 'a', 'q', 'u', 'e'};
    private static final byte[] FLAG = {'f', 'l', 'a', 'g'};
    private static final int RESPONSE_BIT = 1;

    public int code;
    public int opaque;
    public int flag;
    /** Where the header ends and the body starts, as a reader index into the frame. */
    public int bodyIndex;

    /**
     * Reads the header of one frame: {@code frame} starts at its header-length field (the frame's own length field already
     * removed, as netty's length-field decoder leaves it). Does not move the reader index. Throws on a malformed header.
     */
    public void read(ByteBuf frame) {
        int start = frame.readerIndex();
        int field = frame.getInt(start);
        int type = field >>> 24;
        int length = field & 0xFFFFFF;
        int header = start + 4;
        int end = header + length;
        if (end > frame.writerIndex()) {
            throw new IllegalArgumentException("header length " + length + " exceeds the frame");
        }
        bodyIndex = end;
        if (type == 1) {
            code = frame.getShort(header);
            opaque = frame.getInt(header + 5);
            flag = frame.getInt(header + 9);
            return;
        }
        if (type != 0) {
            throw new IllegalArgumentException("unknown serialize type " + type);
        }
        scanJson(frame, header, end);
    }

    public boolean isResponse() {
        return (flag & RESPONSE_BIT) == RESPONSE_BIT;
    }

    private void scanJson(ByteBuf b, int from, int end) {
        boolean haveCode = false;
        boolean haveOpaque = false;
        boolean haveFlag = false;
        int depth = 0;
        int i = from;
        while (i < end) {
            byte c = b.getByte(i);
            if (c == '"') {
                int keyStart = i + 1;
                i = skipString(b, i + 1, end);
                int keyEnd = i - 1;
                if (depth == 1) {
                    int j = skipSpace(b, i, end);
                    if (j < end && b.getByte(j) == ':') {
                        int valueStart = skipSpace(b, j + 1, end);
                        if (matches(b, keyStart, keyEnd, CODE)) {
                            code = (int) parseLong(b, valueStart, end);
                            haveCode = true;
                        } else if (matches(b, keyStart, keyEnd, OPAQUE)) {
                            opaque = (int) parseLong(b, valueStart, end);
                            haveOpaque = true;
                        } else if (matches(b, keyStart, keyEnd, FLAG)) {
                            flag = (int) parseLong(b, valueStart, end);
                            haveFlag = true;
                        }
                        if (haveCode && haveOpaque && haveFlag) {
                            return;
                        }
                        i = valueStart;
                    }
                }
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
            i++;
        }
        if (!haveCode || !haveOpaque) {
            throw new IllegalArgumentException("JSON header without " + (haveCode ? "opaque" : "code"));
        }
        if (!haveFlag) {
            flag = 0;
        }
    }

    /** Index after the closing quote of a string whose content starts at {@code i}. */
    private static int skipString(ByteBuf b, int i, int end) {
        while (i < end) {
            byte c = b.getByte(i++);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        throw new IllegalArgumentException("unterminated string in JSON header");
    }

    private static int skipSpace(ByteBuf b, int i, int end) {
        while (i < end) {
            byte c = b.getByte(i);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return i;
            }
            i++;
        }
        return i;
    }

    private static boolean matches(ByteBuf b, int from, int to, byte[] key) {
        if (to - from != key.length) {
            return false;
        }
        for (int k = 0; k < key.length; k++) {
            if (b.getByte(from + k) != key[k]) {
                return false;
            }
        }
        return true;
    }

    private static long parseLong(ByteBuf b, int i, int end) {
        boolean negative = false;
        if (i < end && b.getByte(i) == '-') {
            negative = true;
            i++;
        }
        long v = 0;
        int digits = 0;
        while (i < end) {
            byte c = b.getByte(i);
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
            digits++;
            i++;
        }
        if (digits == 0) {
            throw new IllegalArgumentException("number expected in JSON header at offset " + i);
        }
        return negative ? -v : v;
    }
}
