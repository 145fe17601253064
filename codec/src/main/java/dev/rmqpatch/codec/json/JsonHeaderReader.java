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
 * either case; surrogates are kept as the code units they spell, paired or not); well-formed UTF-8. Other keys are
 * skipped when fastjson would ignore them too: plain names that fastjson's lenient property matching cannot tie to
 * a property, with a string, integer, {@code true}, {@code false} or {@code null} value.
 *
 * <p>It declines everything else, where fastjson's lenient rules or its exceptions decide the result: anything
 * malformed or truncated, malformed UTF-8 (which stock turns into U+FFFD before parsing), numbers as strings or
 * with fractions or exponents, out-of-range numbers, null for a number or enum, unknown enum names, a top-level
 * key given twice, trailing commas, single quotes, unquoted names, comments, raw control characters inside strings,
 * other escapes, nested objects or arrays, ext-field names that begin with '@' or '$' (fastjson's {@code @type} and
 * {@code $ref}), top-level names with anything but letters, digits, '_' and '-', an absent {@code opaque}
 * (stock leaves the constructor's request id there, which this reader cannot take without drawing another one),
 * and fastjson default parser features other than the shipped ones ({@link StockFastjson}). Declining costs at
 * most one scan of the bytes.
 *
 * <p>The command is created as fastjson creates it, by one call of RemotingCommand's no-argument constructor
 * (which draws a request id, like every decode), and filled through its public setters; and only once the whole
 * header has been read, so that a declined header leaves no trace. Its strings are equal to fastjson's; those of one
 * ASCII char and "true"/"false" are shared constants rather than fresh copies.
 */
public final class JsonHeaderReader {

    private static final Charset LATIN_1 = Charset.forName("ISO-8859-1");

    /**
     * A ROCKETMQ-serialised header of all zeros: code 0, JAVA, version 0, opaque 0, flag 0, no remark, no ext
     * fields. RocketMQSerializable's public decoder is the one public way to the protected constructor that sets
     * nothing else; it leaves a command in its constructed state except opaque, which this reader always sets.
     */
    private static final byte[] BLANK_ROCKETMQ_HEADER = new byte[2 + 1 + 2 + 4 + 4 + 4 + 4];

    /** The field names with their closing quote. */
    private static final byte[] CODE = ascii("code\"");
    private static final byte[] LANGUAGE = ascii("language\"");
    private static final byte[] VERSION = ascii("version\"");
    private static final byte[] OPAQUE = ascii("opaque\"");
    private static final byte[] FLAG = ascii("flag\"");
    private static final byte[] REMARK = ascii("remark\"");
    private static final byte[] EXT_FIELDS = ascii("extFields\"");
    private static final byte[] SERIALIZE_TYPE = ascii("serializeTypeCurrentRPC\"");

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
     * Strings of one ASCII char from the space up, interned: every ext-field name of SEND_MESSAGE_V2 ("a".."n") and
     * most of its values ("0", "4"). Handing out the constant saves the allocation, and the hash HashMap.put
     * computes; the broker's own lookups ({@code get("b")}) then hit by identity. Strings are immutable and compared
     * by {@code equals} throughout RocketMQ, so a shared instance is indistinguishable from a fresh one.
     */
    private static final String[] ONE_CHAR = new String[128];

    static {
        for (char c = ' '; c < ONE_CHAR.length; c++) {
            ONE_CHAR[c] = String.valueOf(c).intern();
        }
    }

    /** The boolean values of the send headers, shared for the same reason. */
    private static final String TRUE = "true";
    private static final String FALSE = "false";

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

    /** The bytes a string copies as they are: printable ASCII but the quote and the backslash. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    static final int INITIAL_BUFFER = 512;
    static final int MAX_KEPT_BUFFER = 16384;

    /**
     * One reader per thread, for its buffers, taken out while in use. The command and its strings never point into
     * the buffers: every String copies what it needs.
     */
    private static final ThreadLocal<JsonHeaderReader[]> READER = new ThreadLocal<JsonHeaderReader[]>() {
        @Override
        protected JsonHeaderReader[] initialValue() {
            return new JsonHeaderReader[1];
        }
    };

    private byte[] in;
    private int end;
    private int pos;
    /** Strings that need unescaping or UTF-8 decoding: Latin-1 bytes while they fit, else chars. */
    private byte[] latin;
    private char[] chars;

    /** The last header {@link #parse} read, for {@link #into}: the F_ bits of the keys present and their values. */
    private int seen;
    private int code;
    private int version;
    private int opaque;
    private int flag;
    private LanguageCode language;
    private String remark;
    private HashMap<String, String> extFields;
    private SerializeType serializeType;

    private JsonHeaderReader() {
    }

    /**
     * The command stock's fastjson decode gives for {@code json}, or null when this reader declines (see the class
     * comment); then nothing has happened and fastjson must decode it. 4.9.0's remoting: the blank command comes from
     * {@code RocketMQSerializable.rocketMQProtocolDecode(byte[])}, which 4.9.4+ replaced by a ByteBuf decoder; there
     * P5's variant hook ({@code JsonHeaderHooks}, src/main/java-rpc) calls {@link #parse} and {@link #into} itself.
     */
    public static RemotingCommand read(byte[] json) {
        JsonHeaderReader reader = parse(json);
        return reader == null ? null : reader.into(RocketMQSerializable.rocketMQProtocolDecode(BLANK_ROCKETMQ_HEADER));
    }

    /**
     * The first half of {@link #read}: the header read into this thread's reader, or null when this reader declines
     * (then nothing has happened and fastjson must decode it). The caller then makes one blank command, as
     * {@code RemotingCommand}'s protected constructor leaves it (which draws one request id), and hands it to
     * {@link #into} on the same thread before it parses another header; nothing else may use the reader between.
     */
    public static JsonHeaderReader parse(byte[] json) {
        if (json == null || !StockFastjson.parsesAsShipped()) {
            return null;
        }
        JsonHeaderReader[] holder = READER.get();
        JsonHeaderReader reader = holder[0];
        holder[0] = null;
        if (reader == null) {
            reader = new JsonHeaderReader();
        }
        reader.in = json;
        reader.end = json.length;
        reader.pos = 0;
        boolean read = false;
        try {
            reader.header();
            read = true;
        } catch (Declined e) {
            reader.clear();
        } finally {
            reader.in = null;
            // A thread that once read a huge header does not keep huge buffers.
            if ((reader.latin == null || reader.latin.length <= MAX_KEPT_BUFFER)
                && (reader.chars == null || reader.chars.length <= MAX_KEPT_BUFFER)) {
                holder[0] = reader;
            }
        }
        return read ? reader : null;
    }

    /**
     * The second half of {@link #read}: sets on {@code cmd}, a command as RemotingCommand's constructor leaves it, what
     * the header {@link #parse} read gives (fastjson's setters for the keys present, opaque always), and returns it.
     */
    public RemotingCommand into(RemotingCommand cmd) {
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
        clear();
        return cmd;
    }

    /** Drops what the last header left, so the thread's reader holds no command's strings or map. */
    private void clear() {
        language = null;
        remark = null;
        extFields = null;
        serializeType = null;
    }

    /** Reads the whole header into the fields below, or throws Declined. */
    private void header() {
        int seen = 0;
        int code = 0;
        int version = 0;
        int opaque = 0;
        int flag = 0;
        LanguageCode language = null;
        String remark = null;
        HashMap<String, String> extFields = null;
        SerializeType serializeType = null;

        expectToken('{');
        int c = token();
        if (c != '}') {
            for (;;) {
                if (c != '"') {
                    throw Declined.INSTANCE;
                }
                int field = fieldName();
                expectToken(':');
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
                c = token();
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    throw Declined.INSTANCE;
                }
                c = token();
            }
        }
        skipWhitespace();
        if (pos != end || (seen & F_OPAQUE) == 0) {
            throw Declined.INSTANCE;
        }

        this.seen = seen;
        this.code = code;
        this.version = version;
        this.opaque = opaque;
        this.flag = flag;
        this.language = language;
        this.remark = remark;
        this.extFields = extFields;
        this.serializeType = serializeType;
    }

    /**
     * After the opening quote of a top-level key: which field it names (F_UNKNOWN for one fastjson ignores). The
     * first byte picks the one field name it can be, compared with its closing quote in place.
     */
    private int fieldName() {
        int start = pos;
        byte[] name;
        int field;
        switch (start < end ? in[start] : 0) {
            case 'c':
                name = CODE;
                field = F_CODE;
                break;
            case 'e':
                name = EXT_FIELDS;
                field = F_EXT_FIELDS;
                break;
            case 'f':
                name = FLAG;
                field = F_FLAG;
                break;
            case 'l':
                name = LANGUAGE;
                field = F_LANGUAGE;
                break;
            case 'o':
                name = OPAQUE;
                field = F_OPAQUE;
                break;
            case 'r':
                name = REMARK;
                field = F_REMARK;
                break;
            case 's':
                name = SERIALIZE_TYPE;
                field = F_SERIALIZE_TYPE;
                break;
            case 'v':
                name = VERSION;
                field = F_VERSION;
                break;
            default:
                name = null;
                field = F_UNKNOWN;
                break;
        }
        if (name != null && start + name.length <= end && matches(start, name)) {
            pos = start + name.length;
            return field;
        }
        int i = start;
        while (i < end && in[i] != '"') {
            i++;
        }
        if (i == end || !ignoredByFastjson(start, i)) {
            throw Declined.INSTANCE;
        }
        pos = i + 1;
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

    /**
     * 1 to {@code maxDigits} ASCII digits without a leading zero (a lone "0" is fine); what follows is checked by the
     * caller.
     */
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
            readString();
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
        int c = token();
        if (c == '}') {
            return map;
        }
        for (;;) {
            if (c != '"' || pos >= end) {
                throw Declined.INSTANCE;
            }
            boolean escapedFirst = in[pos] == '\\';
            if (in[pos] == '@' || in[pos] == '$') {
                throw Declined.INSTANCE;
            }
            String key = readString();
            // fastjson treats "@type" and "$ref" specially, escaped or not.
            if (escapedFirst && (key.charAt(0) == '@' || key.charAt(0) == '$')) {
                throw Declined.INSTANCE;
            }
            // The separators fastjson writes, without whitespace, are checked in place; anything else goes the
            // general way.
            int p = pos;
            if (p + 1 < end && in[p] == ':' && in[p + 1] == '"') {
                pos = p + 2;
            } else {
                expectToken(':');
                expectToken('"');
            }
            map.put(key, readString());
            p = pos;
            if (p + 1 < end && in[p] == ',' && in[p + 1] == '"') {
                pos = p + 1;
                c = next();
                continue;
            }
            c = token();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw Declined.INSTANCE;
            }
            c = token();
        }
    }

    private String readStringValue() {
        expect('"');
        return readString();
    }

    /**
     * After an opening quote: the string up to the closing one. Printable ASCII without escapes, nearly every string
     * a Java client sends apart from the properties value, is copied as Latin-1 without decoding.
     */
    private String readString() {
        int start = pos;
        int i = plainRunEnd(start);
        if (i < end && in[i] == '"') {
            pos = i + 1;
            return plainString(in, start, i - start);
        }
        return decodeString(start, i);
    }

    /**
     * The index of the first byte from {@code i} on that is a quote, a backslash, a control character or not
     * ASCII (end of header if none): where a run of text that needs no decoding ends. One table load per byte
     * instead of three comparisons: about 3% on the typical header in JMH. Eight bytes at a time measured no faster
     * there: through a ByteBuffer view its index and scope checks eat the gain, and through Unsafe words (which a
     * Java 8 build reaches only by a method handle) it pays off only on long strings; the typical header's are short.
     */
    private int plainRunEnd(int i) {
        final byte[] b = in;
        final boolean[] plain = PLAIN;
        final int limit = end;
        while (i < limit && plain[b[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    /** Printable ASCII without escapes, {@code len} bytes at {@code start}: a shared constant where there is one. */
    private static String plainString(byte[] b, int start, int len) {
        if (len == 1) {
            return ONE_CHAR[b[start]];
        }
        if (len == 4 && b[start] == 't' && b[start + 1] == 'r' && b[start + 2] == 'u' && b[start + 3] == 'e') {
            return TRUE;
        }
        if (len == 5 && b[start] == 'f' && b[start + 1] == 'a' && b[start + 2] == 'l' && b[start + 3] == 's'
            && b[start + 4] == 'e') {
            return FALSE;
        }
        return latin1(b, start, len);
    }

    /**
     * The general case: escapes and multi-byte UTF-8 from {@code from} on. While every char fits in Latin-1 (the
     * properties value with its escaped separators, accented Latin text) the string is built as Latin-1 bytes: runs
     * of plain ASCII are copied with {@code arraycopy}, and the String is made from bytes without compressing chars
     * (JDK 9+). The first char above U+00FF moves the rest to {@link #decodeWide}. The buffer holds as many bytes as
     * the header has left, which no string can exceed (no escape or UTF-8 sequence is shorter than its chars).
     */
    private String decodeString(int start, int from) {
        final byte[] b = in;
        final int limit = end;
        byte[] out = latin;
        if (out == null || out.length < limit - start) {
            out = new byte[Math.max(limit - start, INITIAL_BUFFER)];
            latin = out;
        }
        int n = from - start;
        System.arraycopy(b, start, out, 0, n);
        int i = from;
        for (;;) {
            int run = plainRunEnd(i);
            int len = run - i;
            if (len < 16) {
                // Between two escapes: shorter than what an arraycopy call costs to set up.
                for (int k = 0; k < len; k++) {
                    out[n + k] = b[i + k];
                }
            } else {
                System.arraycopy(b, i, out, n, len);
            }
            n += len;
            i = run;
            if (i >= limit) {
                throw Declined.INSTANCE;
            }
            int c = b[i];
            if (c == '"') {
                pos = i + 1;
                return latin1(out, 0, n);
            }
            int ch;
            int next;
            if (c == '\\') {
                if (i + 5 < limit && b[i + 1] == 'u' && b[i + 2] == '0' && b[i + 3] == '0') {
                    // The properties value's separators, and every other char below U+0100, take this branch.
                    int hi = hexDigit(b[i + 4]);
                    int lo = hexDigit(b[i + 5]);
                    if ((hi | lo) >= 0) {
                        out[n++] = (byte) (hi << 4 | lo);
                        i += 6;
                        continue;
                    }
                }
                ch = escape(i);
                next = i + (b[i + 1] == 'u' ? 6 : 2);
            } else if (c >= 0) {
                // A raw control character.
                throw Declined.INSTANCE;
            } else {
                int lead = c & 0xFF;
                ch = codePoint(i, lead);
                next = i + (lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4);
            }
            if (ch > 0xFF) {
                return decodeWide(out, n, i);
            }
            out[n++] = (byte) ch;
            i = next;
        }
    }

    /**
     * Continues a string from byte {@code i} as chars, after {@code n} Latin-1 chars already decoded into
     * {@code head}: for text beyond Latin-1 (CJK, emoji, escapes of such chars).
     */
    private String decodeWide(byte[] head, int n, int i) {
        final byte[] b = in;
        final int limit = end;
        char[] buf = chars;
        if (buf == null || buf.length < n + (limit - i)) {
            buf = new char[Math.max(n + (limit - i), INITIAL_BUFFER)];
            chars = buf;
        }
        for (int k = 0; k < n; k++) {
            buf[k] = (char) (head[k] & 0xFF);
        }
        for (;;) {
            if (i >= limit) {
                throw Declined.INSTANCE;
            }
            int c = b[i];
            if (c == '"') {
                pos = i + 1;
                return new String(buf, 0, n);
            }
            if (c == '\\') {
                buf[n++] = (char) escape(i);
                i += b[i + 1] == 'u' ? 6 : 2;
            } else if (c >= 0x20) {
                buf[n++] = (char) c;
                i++;
            } else if (c >= 0) {
                throw Declined.INSTANCE;
            } else {
                int lead = c & 0xFF;
                int cp = codePoint(i, lead);
                if (cp < Character.MIN_SUPPLEMENTARY_CODE_POINT) {
                    buf[n++] = (char) cp;
                } else {
                    buf[n++] = Character.highSurrogate(cp);
                    buf[n++] = Character.lowSurrogate(cp);
                }
                i += lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            }
        }
    }

    /** The char that the escape starting with the backslash at {@code i} stands for (2 bytes, or 6 for a u-escape). */
    private int escape(int i) {
        if (i + 1 >= end) {
            throw Declined.INSTANCE;
        }
        switch (in[i + 1]) {
            case '"':
                return '"';
            case '\\':
                return '\\';
            case '/':
                return '/';
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u':
                if (i + 5 < end && in[i + 2] == '0' && in[i + 3] == '0') {
                    // A u-escape of 00XX, the properties value's separators among them.
                    int hi = hexDigit(in[i + 4]);
                    int lo = hexDigit(in[i + 5]);
                    if ((hi | lo) >= 0) {
                        return hi << 4 | lo;
                    }
                }
                return hex4(i + 2);
            default:
                throw Declined.INSTANCE;
        }
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
            int d = hexDigit(in[k]);
            if (d < 0) {
                throw Declined.INSTANCE;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    /**
     * A String of Latin-1 bytes. The deprecated constructor with a high byte of zero is exactly that: on JDK 9+ a copy
     * of the bytes, small enough to be inlined, where the Charset constructor is a large general decoder that the
     * JIT calls out of line for every string (a dozen per header); on JDK 8 a plain widening loop.
     */
    @SuppressWarnings("deprecation")
    private static String latin1(byte[] bytes, int offset, int length) {
        return new String(bytes, 0, offset, length);
    }

    /** The value of an ASCII hex digit, -1 for any other byte. */
    private static int hexDigit(byte c) {
        return c < 0 ? -1 : HEX[c];
    }

    /** The next byte that is not JSON whitespace, consumed. */
    private int token() {
        final byte[] b = in;
        int p = pos;
        while (p < end) {
            int c = b[p++];
            // Compact JSON meets a token at once: one comparison settles it.
            if (c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                pos = p;
                return c;
            }
        }
        throw Declined.INSTANCE;
    }

    private void expectToken(char c) {
        if (token() != c) {
            throw Declined.INSTANCE;
        }
    }

    private void skipWhitespace() {
        while (pos < end) {
            int c = in[pos];
            // Most calls meet a token at once: one comparison settles it.
            if (c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t') {
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
