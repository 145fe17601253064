package dev.rmqpatch.bench.wire;

import io.netty.buffer.ByteBuf;

/**
 * Reads a remoting frame's code, opaque and flag without decoding its header into a command: what a load generator and
 * a no-op sink need per message. Holds the last frame's values, so one instance per thread reads every frame without
 * allocating.
 *
 * <p>JSON headers: the header is copied into a reusable array (one bulk copy) and the three top-level numbers are found
 * by where fastjson puts them, since it writes the fields sorted by name: {@code "code"} first, {@code "flag"} and
 * {@code "opaque"} after {@code extFields}, so they are searched from the end. A match counts only when the key's
 * opening quote is not escaped (so text inside a remark cannot match) and a digit or minus follows the colon (ext-field
 * values are strings, so an ext field named "opaque" cannot match either). Headers not shaped like that (another JSON
 * writer, whitespace) fall back to a scan that tracks strings and nesting. ROCKETMQ (binary) headers have the three
 * at fixed offsets. Profiles of the harness ceiling showed the byte-by-byte scan as the largest single cost of both
 * the agent and the raw sink; this is why it is not the first choice.
 */
public final class HeaderFields {
    private static final byte[] CODE = {'c', 'o', 'd', 'e'};
    private static final byte[] OPAQUE = {'o', 'p', 'a', 'q', 'u', 'e'};
    private static final byte[] FLAG = {'f', 'l', 'a', 'g'};
    private static final byte[] CODE_FIRST = {'{', '"', 'c', 'o', 'd', 'e', '"', ':'};
    private static final byte[] OPAQUE_KEY = {'"', 'o', 'p', 'a', 'q', 'u', 'e', '"', ':'};
    private static final byte[] FLAG_KEY = {'"', 'f', 'l', 'a', 'g', '"', ':'};
    private static final int RESPONSE_BIT = 1;

    public int code;
    public int opaque;
    public int flag;
    /** Where the header ends and the body starts, as a reader index into the frame. */
    public int bodyIndex;

    private byte[] scratch = new byte[1024];

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
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, 2 * scratch.length)];
        }
        frame.getBytes(header, scratch, 0, length);
        readJson(scratch, length);
    }

    /** Reads the three numbers of a JSON header held in {@code b[0, length)}. */
    public void readJson(byte[] b, int length) {
        int c = startsWith(b, length, CODE_FIRST) ? CODE_FIRST.length : -1;
        int o = lastNumberAfter(b, length, OPAQUE_KEY);
        int f = lastNumberAfter(b, length, FLAG_KEY);
        if (c < 0 || o < 0 || f < 0) {
            scanJson(b, length);
            return;
        }
        code = (int) parseLong(b, c, length);
        opaque = (int) parseLong(b, o, length);
        flag = (int) parseLong(b, f, length);
    }

    public boolean isResponse() {
        return (flag & RESPONSE_BIT) == RESPONSE_BIT;
    }

    private static boolean startsWith(byte[] b, int length, byte[] prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (b[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Index of the number after the last unescaped occurrence of {@code key} (quote, name, quote, colon) that a digit
     * or '-' follows, or -1.
     */
    private static int lastNumberAfter(byte[] b, int length, byte[] key) {
        for (int i = length - key.length - 1; i >= 0; i--) {
            if (b[i] != '"') {
                continue;
            }
            int k = 1;
            while (k < key.length && b[i + k] == key[k]) {
                k++;
            }
            if (k < key.length) {
                continue;
            }
            byte next = b[i + key.length];
            if ((next < '0' || next > '9') && next != '-') {
                continue;
            }
            if (!escaped(b, i)) {
                return i + key.length;
            }
        }
        return -1;
    }

    /** Whether the quote at {@code i} is escaped: preceded by an odd number of backslashes. */
    private static boolean escaped(byte[] b, int i) {
        int n = 0;
        while (i - 1 - n >= 0 && b[i - 1 - n] == '\\') {
            n++;
        }
        return (n & 1) == 1;
    }

    /** The general case: every top-level key, strings and nesting tracked. */
    void scanJson(byte[] b, int end) {
        boolean haveCode = false;
        boolean haveOpaque = false;
        boolean haveFlag = false;
        int depth = 0;
        int i = 0;
        while (i < end) {
            byte c = b[i];
            if (c == '"') {
                int keyStart = i + 1;
                i = skipString(b, i + 1, end);
                int keyEnd = i - 1;
                if (depth == 1) {
                    int j = skipSpace(b, i, end);
                    if (j < end && b[j] == ':') {
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
    private static int skipString(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i++];
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        throw new IllegalArgumentException("unterminated string in JSON header");
    }

    private static int skipSpace(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return i;
            }
            i++;
        }
        return i;
    }

    private static boolean matches(byte[] b, int from, int to, byte[] key) {
        if (to - from != key.length) {
            return false;
        }
        for (int k = 0; k < key.length; k++) {
            if (b[from + k] != key[k]) {
                return false;
            }
        }
        return true;
    }

    private static long parseLong(byte[] b, int i, int end) {
        boolean negative = false;
        if (i < end && b[i] == '-') {
            negative = true;
            i++;
        }
        long v = 0;
        int digits = 0;
        while (i < end) {
            byte c = b[i];
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
