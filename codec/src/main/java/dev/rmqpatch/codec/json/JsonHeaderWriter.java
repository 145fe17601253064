package dev.rmqpatch.codec.json;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * Writes the JSON header of a {@code RemotingCommand} as the UTF-8 bytes that stock
 * {@code RemotingSerializable.encode(command)} (fastjson 1.2.76 with its shipped defaults, then
 * {@code String.getBytes(UTF-8)}) gives, byte for byte; or declines, and the caller hands the command to fastjson.
 *
 * <p>What fastjson writes for the class: the serialisable properties in alphabetical order, {@code code},
 * {@code extFields}, {@code flag}, {@code language}, {@code opaque}, {@code remark},
 * {@code serializeTypeCurrentRPC}, {@code version}, each left out when null (the {@code @JSONField(serialize =
 * false)} getters and the transient body and custom header never appear); enums by name; the ext fields in the
 * map's iteration order, entries with a null value left out; no whitespace. Strings escape {@code "} and
 * {@code \} with a backslash, {@code \b \f \n \r \t} by letter, the other controls below U+0020, U+007F to
 * U+009F and U+2028/U+2029 as Unicode escapes (backslash, 'u', four upper-case hex digits); everything else goes
 * out raw as UTF-8, a lone surrogate as {@code ?} (what {@code getBytes} makes of it).
 *
 * <p>It declines a subclass of RemotingCommand (whose extra getters fastjson would print), ext fields in a map
 * other than a plain HashMap (fastjson treats some maps specially), a null key or a key or value that is not a
 * String (possible through raw types), and any fastjson configuration other than the shipped one.
 */
public final class JsonHeaderWriter {

    private static final byte[] CODE = field("{\"code\":");
    private static final byte[] EXT_FIELDS = field(",\"extFields\":{");
    private static final byte[] FLAG = field(",\"flag\":");
    private static final byte[] LANGUAGE = field(",\"language\":");
    private static final byte[] OPAQUE = field(",\"opaque\":");
    private static final byte[] REMARK = field(",\"remark\":");
    private static final byte[] SERIALIZE_TYPE = field(",\"serializeTypeCurrentRPC\":");
    private static final byte[] VERSION = field(",\"version\":");
    private static final byte[] MIN_INT = field(Integer.toString(Integer.MIN_VALUE));

    private static final byte[][] LANGUAGE_NAMES = quotedNames(LanguageCode.values());
    private static final byte[][] SERIALIZE_TYPE_NAMES = quotedNames(SerializeType.values());

    /** For each ASCII char: 0 when written as is, 'u' for a backslash-u escape, else the letter after the backslash. */
    private static final byte[] ASCII_ESCAPE = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ASCII_ESCAPE[c] = 'u';
        }
        ASCII_ESCAPE['\b'] = 'b';
        ASCII_ESCAPE['\t'] = 't';
        ASCII_ESCAPE['\n'] = 'n';
        ASCII_ESCAPE['\f'] = 'f';
        ASCII_ESCAPE['\r'] = 'r';
        ASCII_ESCAPE['"'] = '"';
        ASCII_ESCAPE['\\'] = '\\';
        ASCII_ESCAPE[0x7F] = 'u';
    }

    private static final byte[] HEX_DIGITS = field("0123456789ABCDEF");

    /** The longest a fixed part gets: the longest field name with its punctuation, or an int. */
    private static final int FIXED_PART = 32;
    /** Bytes one char can take: an escape is 6, and a surrogate pair is 4 bytes for 2 chars. */
    private static final int MAX_BYTES_PER_CHAR = 6;

    static final int INITIAL_BUFFER = 512;
    static final int MAX_KEPT_BUFFER = 65536;

    /** One buffer per thread, taken out while in use; the result is one exact-size copy of its start. */
    private static final ThreadLocal<byte[][]> BUFFER = new ThreadLocal<byte[][]>() {
        @Override
        protected byte[][] initialValue() {
            return new byte[1][];
        }
    };

    private byte[] buf;
    private int pos;

    private JsonHeaderWriter(byte[] buf) {
        this.buf = buf;
    }

    /**
     * The bytes stock's fastjson encode gives for {@code command}, or null when this writer declines (see the
     * class comment) and fastjson must write it.
     */
    public static byte[] write(Object command) {
        if (command == null || command.getClass() != RemotingCommand.class || !StockFastjson.printsAsShipped()) {
            return null;
        }
        RemotingCommand cmd = (RemotingCommand) command;
        HashMap<?, ?> extFields = cmd.getExtFields();
        if (extFields != null && extFields.getClass() != HashMap.class) {
            return null;
        }
        byte[][] holder = BUFFER.get();
        byte[] buf = holder[0];
        holder[0] = null;
        JsonHeaderWriter w = new JsonHeaderWriter(buf != null ? buf : new byte[INITIAL_BUFFER]);
        byte[] json = w.command(cmd, extFields);
        // A thread that once wrote a huge header does not keep a huge buffer.
        holder[0] = w.buf.length <= MAX_KEPT_BUFFER ? w.buf : null;
        return json;
    }

    /** The header bytes, or null for ext fields this writer cannot print as fastjson does. */
    private byte[] command(RemotingCommand cmd, HashMap<?, ?> extFields) {
        room(0);
        put(CODE);
        putInt(cmd.getCode());
        if (extFields != null) {
            put(EXT_FIELDS);
            boolean first = true;
            for (Map.Entry<?, ?> e : extFields.entrySet()) {
                Object v = e.getValue();
                if (v == null) {
                    continue;
                }
                Object k = e.getKey();
                // Only through raw types: fastjson prints a null key bare and other types by their own rules.
                if (!(k instanceof String) || !(v instanceof String)) {
                    return null;
                }
                String key = (String) k;
                String value = (String) v;
                room(key.length() + value.length());
                if (!first) {
                    buf[pos++] = ',';
                }
                first = false;
                putString(key);
                buf[pos++] = ':';
                putString(value);
            }
            buf[pos++] = '}';
        }
        room(0);
        put(FLAG);
        putInt(cmd.getFlag());
        LanguageCode language = cmd.getLanguage();
        if (language != null) {
            put(LANGUAGE);
            put(LANGUAGE_NAMES[language.ordinal()]);
        }
        room(0);
        put(OPAQUE);
        putInt(cmd.getOpaque());
        String remark = cmd.getRemark();
        if (remark != null) {
            room(remark.length());
            put(REMARK);
            putString(remark);
        }
        SerializeType serializeType = cmd.getSerializeTypeCurrentRPC();
        room(0);
        if (serializeType != null) {
            put(SERIALIZE_TYPE);
            put(SERIALIZE_TYPE_NAMES[serializeType.ordinal()]);
        }
        room(0);
        put(VERSION);
        putInt(cmd.getVersion());
        buf[pos++] = '}';
        return Arrays.copyOf(buf, pos);
    }

    /** Makes room for a fixed part or two plus {@code chars} chars of escaped text, so the writes need no checks. */
    private void room(int chars) {
        long need = pos + 2L * FIXED_PART + (long) chars * MAX_BYTES_PER_CHAR;
        if (need > buf.length) {
            if (need > Integer.MAX_VALUE - 8) {
                throw new OutOfMemoryError("JSON header of more than 2 GB");
            }
            buf = Arrays.copyOf(buf, (int) Math.max(need, 2L * buf.length));
        }
    }

    private void put(byte[] part) {
        System.arraycopy(part, 0, buf, pos, part.length);
        pos += part.length;
    }

    private void putInt(int v) {
        if (v == Integer.MIN_VALUE) {
            put(MIN_INT);
            return;
        }
        if (v < 0) {
            buf[pos++] = '-';
            v = -v;
        }
        int digits = 1;
        for (int t = v; t >= 10; t /= 10) {
            digits++;
        }
        int p = pos + digits;
        pos = p;
        do {
            buf[--p] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
    }

    private void putString(String s) {
        final byte[] b = buf;
        int p = pos;
        b[p++] = '"';
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                int escape = ASCII_ESCAPE[c];
                if (escape == 0) {
                    b[p++] = (byte) c;
                } else if (escape == 'u') {
                    p = unicodeEscape(b, p, c);
                } else {
                    b[p++] = '\\';
                    b[p++] = (byte) escape;
                }
            } else if (c < 0x800) {
                if (c < 0xA0) {
                    p = unicodeEscape(b, p, c);
                } else {
                    b[p++] = (byte) (0xC0 | (c >> 6));
                    b[p++] = (byte) (0x80 | (c & 0x3F));
                }
            } else if (Character.isSurrogate(c)) {
                char low;
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(low = s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, low);
                    b[p++] = (byte) (0xF0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                    i++;
                } else {
                    b[p++] = '?';
                }
            } else if (c == '\u2028' || c == '\u2029') {
                p = unicodeEscape(b, p, c);
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[p++] = '"';
        pos = p;
    }

    private static int unicodeEscape(byte[] b, int p, char c) {
        b[p++] = '\\';
        b[p++] = 'u';
        b[p++] = HEX_DIGITS[c >> 12];
        b[p++] = HEX_DIGITS[(c >> 8) & 0xF];
        b[p++] = HEX_DIGITS[(c >> 4) & 0xF];
        b[p++] = HEX_DIGITS[c & 0xF];
        return p;
    }

    private static byte[] field(String ascii) {
        byte[] b = new byte[ascii.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) ascii.charAt(i);
        }
        return b;
    }

    private static byte[][] quotedNames(Enum<?>[] constants) {
        byte[][] names = new byte[constants.length][];
        for (Enum<?> e : constants) {
            names[e.ordinal()] = field("\"" + e.name() + "\"");
        }
        return names;
    }
}
