package dev.rmqpatch.codec.json;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.HashMap;

import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RocketMQSerializable;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * Reads the JSON header of a remoting frame, straight from its UTF-8 bytes, into the {@code RemotingCommand} that
 * stock {@code RemotingSerializable.decode(header, RemotingCommand.class)} (fastjson 1.2.76) gives for it; or
 * declines, and the caller hands the bytes to fastjson.
 *
 * <p>It accepts strict JSON of the command's schema: an object whose keys are {@code code}, {@code language},
 * {@code version}, {@code opaque}, {@code flag}, {@code remark}, {@code extFields}, {@code serializeTypeCurrentRPC}
 * in any order, each at most once, {@code opaque} among them, with JSON whitespace anywhere between tokens;
 * integers in {@code int} range without leading zeros or {@code -0}; enum names spelled exactly; a remark string or
 * null; ext fields as null or an object of string values (later duplicate keys win, as in fastjson's map);
 * the string escapes {@code \" \\ \/ \b \f \n \r \t} and Unicode escapes (backslash, 'u', four hex digits in
 * either case; surrogates are kept as the code units they spell, paired or not); well-formed UTF-8. Other keys are skipped when fastjson would ignore them too: plain
 * names that fastjson's lenient property matching cannot tie to a property, with a string, integer,
 * {@code true}, {@code false} or {@code null} value.
 *
 * <p>It declines everything else, where fastjson's lenient rules or its exceptions decide the result: anything
 * malformed or truncated, malformed UTF-8 (which stock turns into U+FFFD before parsing), numbers as strings or
 * with fractions or exponents, out-of-range numbers, null for a number or enum, unknown enum names, duplicate
 * keys, trailing commas, single quotes, unquoted names, comments, raw control characters inside strings, other
 * escapes, nested objects or arrays, the special keys {@code @type} and {@code $ref}, an absent {@code opaque}
 * (stock leaves the constructor's request id there, which this reader cannot take without drawing another one),
 * and any fastjson configuration other than the shipped defaults. Declining costs at most one scan of the bytes.
 *
 * <p>The command is created as fastjson creates it, by one call of RemotingCommand's no-argument constructor
 * (which draws a request id, like every decode), and filled through its public setters; and only once the whole
 * header has been read, so that a declined header leaves no trace.
 */
public final class JsonHeaderReader {

    private static final Charset LATIN_1 = Charset.forName("ISO-8859-1");

    /**
     * A ROCKETMQ-serialised header of all zeros: code 0, JAVA, version 0, opaque 0, flag 0, no remark, no ext
     * fields. RocketMQSerializable's public decoder is the one public way to the protected constructor that sets
     * nothing else; it leaves a command in its constructed state except opaque, which this reader always sets.
     */
    private static final byte[] BLANK_ROCKETMQ_HEADER = new byte[2 + 1 + 2 + 4 + 4 + 4 + 4];

    private static final byte[] CODE = ascii("code");
    private static final byte[] LANGUAGE = ascii("language");
    private static final byte[] VERSION = ascii("version");
    private static final byte[] OPAQUE = ascii("opaque");
    private static final byte[] FLAG = ascii("flag");
    private static final byte[] REMARK = ascii("remark");
    private static final byte[] EXT_FIELDS = ascii("extFields");
    private static final byte[] SERIALIZE_TYPE = ascii("serializeTypeCurrentRPC");

    private static final int F_CODE = 1;
    private static final int F_LANGUAGE = 1 << 1;
    private static final int F_VERSION = 1 << 2;
    private static final int F_OPAQUE = 1 << 3;
    private static final int F_FLAG = 1 << 4;
    private static final int F_REMARK = 1 << 5;
    private static final int F_EXT_FIELDS = 1 << 6;
    private static final int F_SERIALIZE_TYPE = 1 << 7;
    private static final int F_UNKNOWN = 0;

    /**
     * What fastjson's property matching can tie a key to, in the form it compares: lower case, without '_' and
     * '-' (an "is" prefix is also tried without). Settable properties of RemotingCommand, plus its getter-only
     * and transient names for good measure.
     */
    private static final String[] PROPERTY_NAMES = {
        "code", "language", "version", "opaque", "flag", "remark", "extfields", "serializetypecurrentrpc", "body",
        "customheader", "type", "responsetype", "onewayrpc",
    };

    private static final LanguageCode[] LANGUAGES = LanguageCode.values();
    private static final byte[][] LANGUAGE_NAMES = names(LANGUAGES);
    private static final SerializeType[] SERIALIZE_TYPES = SerializeType.values();
    private static final byte[][] SERIALIZE_TYPE_NAMES = names(SERIALIZE_TYPES);

    /**
     * Ext-field names of one ASCII letter (all of SEND_MESSAGE_V2's), handed out as the interned constants: no copy,
     * a cached hash, and the broker's own lookups ({@code get("b")}) then hit by identity.
     */
    private static final String[] ONE_LETTER = new String[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            ONE_LETTER[c] = String.valueOf(c).intern();
            ONE_LETTER[Character.toUpperCase(c)] = String.valueOf(Character.toUpperCase(c)).intern();
        }
    }

    /** Hex digit values by ASCII code, -1 for non-digits. */
    private static final byte[] HEX = new byte[128];

    static {
        Arrays.fill(HEX, (byte) -1);
        for (int i = 0; i < 10; i++) {
            HEX['0' + i] = (byte) i;
        }
        for (int i = 0; i < 6; i++) {
            HEX['a' + i] = (byte) (10 + i);
            HEX['A' + i] = (byte) (10 + i);
        }
    }

    static final int INITIAL_CHARS = 512;
    static final int MAX_KEPT_CHARS = 16384;

    /** One buffer per thread for strings that need unescaping or UTF-8 decoding, taken out while in use. */
    private static final ThreadLocal<char[][]> CHARS = new ThreadLocal<char[][]>() {
        @Override
        protected char[][] initialValue() {
            return new char[1][];
        }
    };

    private final byte[] in;
    private final int end;
    private int pos;
    private char[] chars;

    private JsonHeaderReader(byte[] in) {
        this.in = in;
        this.end = in.length;
    }

    /**
     * The command stock's fastjson decode gives for {@code json}, or null when this reader declines (see the class
     * comment); then nothing has happened and fastjson must decode it.
     */
    public static RemotingCommand read(byte[] json) {
        if (json == null || !StockFastjson.parsesAsShipped()) {
            return null;
        }
        JsonHeaderReader reader = new JsonHeaderReader(json);
        char[][] holder = CHARS.get();
        reader.chars = holder[0];
        holder[0] = null;
        try {
            return reader.command();
        } catch (Declined e) {
            return null;
        } finally {
            char[] buf = reader.chars;
            // A thread that once read a huge header does not keep a huge buffer.
            holder[0] = buf != null && buf.length <= MAX_KEPT_CHARS ? buf : null;
        }
    }

    private RemotingCommand command() {
        int seen = 0;
        int code = 0;
        int version = 0;
        int opaque = 0;
        int flag = 0;
        LanguageCode language = null;
        String remark = null;
        HashMap<String, String> extFields = null;
        SerializeType serializeType = null;

        skipWhitespace();
        expect('{');
        skipWhitespace();
        if (peek() != '}') {
            for (;;) {
                expect('"');
                int field = fieldName();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                switch (field) {
                    case F_CODE:
                        code = readInt();
                        break;
                    case F_VERSION:
                        version = readInt();
                        break;
                    case F_OPAQUE:
                        opaque = readInt();
                        break;
                    case F_FLAG:
                        flag = readInt();
                        break;
                    case F_LANGUAGE:
                        language = LANGUAGES[readEnumName(LANGUAGE_NAMES)];
                        break;
                    case F_SERIALIZE_TYPE:
                        serializeType = SERIALIZE_TYPES[readEnumName(SERIALIZE_TYPE_NAMES)];
                        break;
                    case F_REMARK:
                        remark = readNull() ? null : readStringValue();
                        break;
                    case F_EXT_FIELDS:
                        extFields = readNull() ? null : readExtFields();
                        break;
                    default:
                        skipScalar();
                        break;
                }
                if ((seen & field) != 0) {
                    throw Declined.INSTANCE;
                }
                seen |= field;
                skipWhitespace();
                int c = next();
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    throw Declined.INSTANCE;
                }
                skipWhitespace();
            }
        } else {
            pos++;
        }
        skipWhitespace();
        if (pos != end || (seen & F_OPAQUE) == 0) {
            throw Declined.INSTANCE;
        }

        RemotingCommand cmd = RocketMQSerializable.rocketMQProtocolDecode(BLANK_ROCKETMQ_HEADER);
        cmd.setOpaque(opaque);
        if ((seen & F_CODE) != 0) {
            cmd.setCode(code);
        }
        if ((seen & F_VERSION) != 0) {
            cmd.setVersion(version);
        }
        if ((seen & F_FLAG) != 0) {
            cmd.setFlag(flag);
        }
        if (language != null) {
            cmd.setLanguage(language);
        }
        if (remark != null) {
            cmd.setRemark(remark);
        }
        if (extFields != null) {
            cmd.setExtFields(extFields);
        }
        if (serializeType != null) {
            cmd.setSerializeTypeCurrentRPC(serializeType);
        }
        return cmd;
    }

    /** After the opening quote of a top-level key: which field it names (F_UNKNOWN for one fastjson ignores). */
    private int fieldName() {
        int start = pos;
        int i = start;
        while (i < end && in[i] != '"') {
            i++;
        }
        if (i == end) {
            throw Declined.INSTANCE;
        }
        pos = i + 1;
        int len = i - start;
        switch (len) {
            case 4:
                if (matches(start, CODE)) {
                    return F_CODE;
                }
                if (matches(start, FLAG)) {
                    return F_FLAG;
                }
                break;
            case 6:
                if (matches(start, OPAQUE)) {
                    return F_OPAQUE;
                }
                if (matches(start, REMARK)) {
                    return F_REMARK;
                }
                break;
            case 7:
                if (matches(start, VERSION)) {
                    return F_VERSION;
                }
                break;
            case 8:
                if (matches(start, LANGUAGE)) {
                    return F_LANGUAGE;
                }
                break;
            case 9:
                if (matches(start, EXT_FIELDS)) {
                    return F_EXT_FIELDS;
                }
                break;
            case 23:
                if (matches(start, SERIALIZE_TYPE)) {
                    return F_SERIALIZE_TYPE;
                }
                break;
            default:
                break;
        }
        if (!ignoredByFastjson(start, i)) {
            throw Declined.INSTANCE;
        }
        return F_UNKNOWN;
    }

    /**
     * True for a key fastjson skips: letters, digits, '_' and '-' only (so no escapes, no {@code @type}, no
     * {@code $ref}), and not a property name under fastjson's "smart match" (case, '_', '-' and an "is" prefix
     * ignored), which would set the property, as {@code "CODE":7} does.
     */
    private boolean ignoredByFastjson(int start, int stop) {
        if (start == stop) {
            return false;
        }
        StringBuilder folded = new StringBuilder(stop - start);
        for (int i = start; i < stop; i++) {
            int c = in[i];
            if (c >= 'A' && c <= 'Z') {
                folded.append((char) (c + ('a' - 'A')));
            } else if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
                folded.append((char) c);
            } else if (c != '_' && c != '-') {
                return false;
            }
        }
        String key = folded.toString();
        for (String name : PROPERTY_NAMES) {
            if (key.equals(name) || key.equals("is" + name)) {
                return false;
            }
        }
        return true;
    }

    private boolean matches(int start, byte[] name) {
        for (int k = 0; k < name.length; k++) {
            if (in[start + k] != name[k]) {
                return false;
            }
        }
        return true;
    }

    /** An int in strict JSON form: optional '-', no leading zeros, no "-0", in range. */
    private int readInt() {
        boolean negative = false;
        if (pos < end && in[pos] == '-') {
            negative = true;
            pos++;
        }
        long v = digits(10);
        if (negative) {
            if (v == 0) {
                throw Declined.INSTANCE;
            }
            v = -v;
        }
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw Declined.INSTANCE;
        }
        return (int) v;
    }

    /** 1 to {@code maxDigits} ASCII digits without a leading zero (a lone "0" is fine); what follows is checked by the caller. */
    private long digits(int maxDigits) {
        int start = pos;
        long v = 0;
        while (pos < end) {
            int d = in[pos] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            v = v * 10 + d;
            pos++;
        }
        int n = pos - start;
        if (n == 0 || n > maxDigits || n > 1 && in[start] == '0') {
            throw Declined.INSTANCE;
        }
        return v;
    }

    /** Index of the enum constant whose name is the quoted string here, exactly, without escapes. */
    private int readEnumName(byte[][] names) {
        expect('"');
        int start = pos;
        int i = start;
        while (i < end && in[i] != '"') {
            i++;
        }
        if (i == end) {
            throw Declined.INSTANCE;
        }
        pos = i + 1;
        int len = i - start;
        for (int k = 0; k < names.length; k++) {
            if (names[k].length == len && matches(start, names[k])) {
                return k;
            }
        }
        throw Declined.INSTANCE;
    }

    private boolean readNull() {
        if (end - pos >= 4 && in[pos] == 'n' && in[pos + 1] == 'u' && in[pos + 2] == 'l' && in[pos + 3] == 'l') {
            pos += 4;
            return true;
        }
        return false;
    }

    /** The value of a key fastjson ignores: read and dropped, so that its end is known and it is well-formed. */
    private void skipScalar() {
        int c = peek();
        if (c == '"') {
            pos++;
            readString(false);
        } else if (c == '-' || c >= '0' && c <= '9') {
            if (c == '-') {
                pos++;
            }
            digits(18);
        } else if (!readNull() && !literal("true") && !literal("false")) {
            throw Declined.INSTANCE;
        }
    }

    private boolean literal(String word) {
        int n = word.length();
        if (end - pos < n) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (in[pos + k] != word.charAt(k)) {
                return false;
            }
        }
        pos += n;
        return true;
    }

    private HashMap<String, String> readExtFields() {
        expect('{');
        // fastjson's own choice for a HashMap property: default capacity, entries put in document order. The same
        // puts into the same kind of map give the same iteration order, which the broker's re-encoding shows.
        HashMap<String, String> map = new HashMap<String, String>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return map;
        }
        for (;;) {
            expect('"');
            String key = readString(true);
            if (!key.isEmpty() && (key.charAt(0) == '@' || key.charAt(0) == '$')) {
                throw Declined.INSTANCE;
            }
            skipWhitespace();
            expect(':');
            skipWhitespace();
            map.put(key, readStringValue());
            skipWhitespace();
            int c = next();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw Declined.INSTANCE;
            }
            skipWhitespace();
        }
    }

    private String readStringValue() {
        expect('"');
        return readString(false);
    }

    /**
     * After an opening quote: the string up to the closing one. Printable ASCII without escapes, nearly every string
     * a Java client sends apart from the properties value, is copied as Latin-1 without decoding.
     */
    private String readString(boolean key) {
        final byte[] b = in;
        int start = pos;
        int i = start;
        while (i < end) {
            int c = b[i];
            if (c == '"') {
                pos = i + 1;
                int len = i - start;
                if (key && len == 1 && ONE_LETTER[b[start]] != null) {
                    return ONE_LETTER[b[start]];
                }
                return new String(b, start, len, LATIN_1);
            }
            // Bytes are signed: everything from 0x80 up (UTF-8 sequences) is negative and takes the slow path too.
            if (c < 0x20 || c == '\\') {
                break;
            }
            i++;
        }
        return decodeString(start, i);
    }

    /** The general case: escapes and multi-byte UTF-8, into this thread's char buffer. */
    private String decodeString(int start, int from) {
        char[] buf = chars;
        int need = Math.max(from - start + 16, INITIAL_CHARS);
        if (buf == null || buf.length < need) {
            buf = new char[need];
        }
        int n = 0;
        for (int k = start; k < from; k++) {
            buf[n++] = (char) in[k];
        }
        int i = from;
        for (;;) {
            if (i >= end) {
                throw Declined.INSTANCE;
            }
            if (n + 2 > buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            int c = in[i] & 0xFF;
            if (c == '"') {
                i++;
                break;
            }
            if (c == '\\') {
                if (i + 1 >= end) {
                    throw Declined.INSTANCE;
                }
                int e = in[i + 1];
                i += 2;
                switch (e) {
                    case '"':
                    case '\\':
                    case '/':
                        buf[n++] = (char) e;
                        break;
                    case 'b':
                        buf[n++] = '\b';
                        break;
                    case 'f':
                        buf[n++] = '\f';
                        break;
                    case 'n':
                        buf[n++] = '\n';
                        break;
                    case 'r':
                        buf[n++] = '\r';
                        break;
                    case 't':
                        buf[n++] = '\t';
                        break;
                    case 'u':
                        buf[n++] = (char) hex4(i);
                        i += 4;
                        break;
                    default:
                        throw Declined.INSTANCE;
                }
            } else if (c < 0x20) {
                throw Declined.INSTANCE;
            } else if (c < 0x80) {
                buf[n++] = (char) c;
                i++;
            } else {
                int cp = codePoint(i, c);
                if (cp < Character.MIN_SUPPLEMENTARY_CODE_POINT) {
                    buf[n++] = (char) cp;
                } else {
                    buf[n++] = Character.highSurrogate(cp);
                    buf[n++] = Character.lowSurrogate(cp);
                }
                i += c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            }
        }
        pos = i;
        chars = buf;
        return new String(buf, 0, n);
    }

    /**
     * The code point of the well-formed UTF-8 sequence whose lead byte {@code c} is at {@code i} (2 bytes for a lead
     * below 0xE0, 3 below 0xF0, else 4). Anything the JDK's decoder would replace with U+FFFD (overlong forms,
     * encoded surrogates, code points above U+10FFFF, stray or missing continuation bytes) declines instead.
     */
    private int codePoint(int i, int c) {
        if (c < 0xC2) {
            throw Declined.INSTANCE;
        }
        if (c < 0xE0) {
            return ((c & 0x1F) << 6) | continuation(i + 1, 0x80, 0xBF);
        }
        if (c < 0xF0) {
            int c1 = continuation(i + 1, c == 0xE0 ? 0xA0 : 0x80, c == 0xED ? 0x9F : 0xBF);
            return ((c & 0x0F) << 12) | (c1 << 6) | continuation(i + 2, 0x80, 0xBF);
        }
        if (c < 0xF5) {
            int c1 = continuation(i + 1, c == 0xF0 ? 0x90 : 0x80, c == 0xF4 ? 0x8F : 0xBF);
            int c2 = continuation(i + 2, 0x80, 0xBF);
            return ((c & 0x07) << 18) | (c1 << 12) | (c2 << 6) | continuation(i + 3, 0x80, 0xBF);
        }
        throw Declined.INSTANCE;
    }

    /** The low six bits of the continuation byte at {@code i}, which must lie in [lo, hi]. */
    private int continuation(int i, int lo, int hi) {
        if (i >= end) {
            throw Declined.INSTANCE;
        }
        int c = in[i] & 0xFF;
        if (c < lo || c > hi) {
            throw Declined.INSTANCE;
        }
        return c & 0x3F;
    }

    private int hex4(int i) {
        if (i + 4 > end) {
            throw Declined.INSTANCE;
        }
        int v = 0;
        for (int k = i; k < i + 4; k++) {
            int c = in[k];
            int d = c < 0 ? -1 : HEX[c];
            if (d < 0) {
                throw Declined.INSTANCE;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    private void skipWhitespace() {
        while (pos < end) {
            int c = in[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private int peek() {
        if (pos >= end) {
            throw Declined.INSTANCE;
        }
        return in[pos];
    }

    private int next() {
        int c = peek();
        pos++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw Declined.INSTANCE;
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(LATIN_1);
    }

    private static byte[][] names(Enum<?>[] constants) {
        byte[][] names = new byte[constants.length][];
        for (int k = 0; k < constants.length; k++) {
            names[k] = ascii(constants[k].name());
        }
        return names;
    }

    /** Unwinds a read that met something this reader leaves to fastjson; preallocated, no stack trace. */
    private static final class Declined extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Declined INSTANCE = new Declined();

        private Declined() {
            super(null, null, false, false);
        }
    }
}
