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
 * String (possible through raw types), and fastjson default serializer features other than the shipped ones
 * ({@link StockFastjson}). Serializers or filters registered with fastjson's global config are not looked for:
 * nothing in RocketMQ registers any.
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

    /** Tens and ones digit of 0..99, to write an int two digits per division. */
    private static final byte[] DIGIT_TENS = new byte[100];
    private static final byte[] DIGIT_ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
        }
    }

    /** More than all fixed parts of a header together: field names, punctuation, ints, enum names. */
    private static final int MARGIN = 192;
    private static final int NAME_SLOTS = 32;
    private static final int MAX_CACHED_NAME = 48;
    /** Bytes one char can take: an escape is 6, and a surrogate pair is 4 bytes for 2 chars. */
    private static final int MAX_BYTES_PER_CHAR = 6;

    static final int INITIAL_BUFFER = 512;
    static final int MAX_KEPT_BUFFER = 65536;

    /** One writer per thread with its buffers, taken out while in use; the result is one exact-size copy. */
    private static final ThreadLocal<JsonHeaderWriter[]> WRITER = new ThreadLocal<JsonHeaderWriter[]>() {
        @Override
        protected JsonHeaderWriter[] initialValue() {
            return new JsonHeaderWriter[1];
        }
    };

    private byte[] buf = new byte[INITIAL_BUFFER];
    private int pos;
    /** The chars of the string being written: a loop over an array beats {@code charAt} on every char. */
    private char[] chars = new char[INITIAL_BUFFER];
    /** Recently written ext-field names and their encoded form (quoted, with the colon); see {@link #putName}. */
    private final String[] names = new String[NAME_SLOTS];
    private final byte[][] nameBytes = new byte[NAME_SLOTS][];

    private JsonHeaderWriter() {
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
        JsonHeaderWriter[] holder = WRITER.get();
        JsonHeaderWriter w = holder[0];
        holder[0] = null;
        if (w == null) {
            w = new JsonHeaderWriter();
        }
        w.pos = 0;
        byte[] json = w.command(cmd, extFields);
        // A thread that once wrote a huge header does not keep huge buffers.
        if (w.buf.length <= MAX_KEPT_BUFFER && w.chars.length <= MAX_KEPT_BUFFER) {
            holder[0] = w;
        }
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
                putName(key);
                putString(value);
            }
            buf[pos++] = '}';
        }
        String remark = cmd.getRemark();
        // One check for everything that follows: the fixed parts fit in the margin room() always leaves.
        room(remark == null ? 0 : remark.length());
        put(FLAG);
        putInt(cmd.getFlag());
        LanguageCode language = cmd.getLanguage();
        if (language != null) {
            put(LANGUAGE);
            put(LANGUAGE_NAMES[language.ordinal()]);
        }
        put(OPAQUE);
        putInt(cmd.getOpaque());
        if (remark != null) {
            put(REMARK);
            putString(remark);
        }
        SerializeType serializeType = cmd.getSerializeTypeCurrentRPC();
        if (serializeType != null) {
            put(SERIALIZE_TYPE);
            put(SERIALIZE_TYPE_NAMES[serializeType.ordinal()]);
        }
        put(VERSION);
        putInt(cmd.getVersion());
        buf[pos++] = '}';
        return Arrays.copyOf(buf, pos);
    }

    /** Makes room for the fixed parts plus {@code chars} chars of escaped text, so the writes need no checks. */
    private void room(int chars) {
        long need = pos + MARGIN + (long) chars * MAX_BYTES_PER_CHAR;
        if (need > buf.length) {
            if (need > Integer.MAX_VALUE - 8) {
                throw new OutOfMemoryError("JSON header of more than 2 GB");
            }
            buf = Arrays.copyOf(buf, (int) Math.max(need, 2L * buf.length));
        }
    }

    /**
     * An ext-field name and its colon. The names are a small set of constants (the header classes' field names,
     * MSG_REGION, TRACE_ON), the same String instances message after message, so their encoded form is kept per
     * thread, by identity, in slots chosen by the hash the map has already computed and cached in each key.
     */
    private void putName(String key) {
        int slot = key.hashCode() & (NAME_SLOTS - 1);
        if (names[slot] == key) {
            put(nameBytes[slot]);
            return;
        }
        int start = pos;
        putString(key);
        buf[pos++] = ':';
        if (pos - start <= MAX_CACHED_NAME) {
            names[slot] = key;
            nameBytes[slot] = Arrays.copyOfRange(buf, start, pos);
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
        int p = pos;
        if (v < 0) {
            buf[p++] = '-';
            v = -v;
        }
        int end = p + digits(v);
        pos = end;
        while (v >= 100) {
            int q = v / 100;
            int r = v - q * 100;
            buf[--end] = DIGIT_ONES[r];
            buf[--end] = DIGIT_TENS[r];
            v = q;
        }
        buf[--end] = DIGIT_ONES[v];
        if (v >= 10) {
            buf[--end] = DIGIT_TENS[v];
        }
    }

    private static int digits(int v) {
        int limit = 10;
        for (int d = 1; d < 10; d++) {
            if (v < limit) {
                return d;
            }
            limit *= 10;
        }
        return 10;
    }

    private void putString(String s) {
        int n = s.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, 2 * chars.length)];
        }
        final char[] c = chars;
        s.getChars(0, n, c, 0);
        final byte[] b = buf;
        int p = pos;
        b[p++] = '"';
        // Most header text is printable ASCII that needs no escape: copied in a tight loop until the first char
        // that is not.
        int i = 0;
        while (i < n) {
            char ch = c[i];
            if (ch >= 0x80 || ASCII_ESCAPE[ch] != 0) {
                break;
            }
            b[p++] = (byte) ch;
            i++;
        }
        if (i < n) {
            p = putSpecial(c, i, n, b, p);
        }
        b[p++] = '"';
        pos = p;
    }

    /** The rest of a string from its first char that needs an escape or more than one UTF-8 byte. */
    private static int putSpecial(char[] c, int from, int n, byte[] b, int p) {
        for (int i = from; i < n; i++) {
            char ch = c[i];
            if (ch < 0x80) {
                int escape = ASCII_ESCAPE[ch];
                if (escape == 0) {
                    b[p++] = (byte) ch;
                } else if (escape == 'u') {
                    p = unicodeEscape(b, p, ch);
                } else {
                    b[p++] = '\\';
                    b[p++] = (byte) escape;
                }
            } else if (ch < 0x800) {
                if (ch < 0xA0) {
                    p = unicodeEscape(b, p, ch);
                } else {
                    b[p++] = (byte) (0xC0 | (ch >> 6));
                    b[p++] = (byte) (0x80 | (ch & 0x3F));
                }
            } else if (Character.isSurrogate(ch)) {
                if (Character.isHighSurrogate(ch) && i + 1 < n && Character.isLowSurrogate(c[i + 1])) {
                    int cp = Character.toCodePoint(ch, c[++i]);
                    b[p++] = (byte) (0xF0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    b[p++] = '?';
                }
            } else if (ch == '\u2028' || ch == '\u2029') {
                p = unicodeEscape(b, p, ch);
            } else {
                b[p++] = (byte) (0xE0 | (ch >> 12));
                b[p++] = (byte) (0x80 | ((ch >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (ch & 0x3F));
            }
        }
        return p;
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
