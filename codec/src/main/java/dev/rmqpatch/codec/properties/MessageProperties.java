package dev.rmqpatch.codec.properties;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Codec for the message-properties string that travels in the send header and is stored with every message:
 * {@code name \u0001 value \u0002 name \u0001 value ...}.
 *
 * <p>Compatibility contract (pinned by differential tests against the stock jars):
 * <ul>
 *   <li>{@link #decode} returns exactly what stock 4.9.0 {@code MessageDecoder.string2messageProperties}
 *       returns for every input, garbage included, so a patched broker reads old data the way a stock one does;
 *       it therefore accepts 4.9.0 output (trailing separator) and 4.9.1 output alike.</li>
 *   <li>{@link #encode} returns exactly stock 4.9.0's {@code messageProperties2String} string (a separator after
 *       every entry, the last one included), so a patched client's frames are stock's byte for byte. A batch needs
 *       it: 4.9.0's broker appends the batch's own properties right after each message's string, and without the
 *       trailing separator the message's last property and the batch's first run together and are both lost.</li>
 *   <li>{@link #encodeForStore} (P3, only where the broker builds the string it stores for a single send) leaves
 *       out the transient keys and the trailing separator; stock 4.9.0 decodes the result to the same map, so old
 *       consumers read what a patched broker stored.</li>
 * </ul>
 */
public final class MessageProperties {

    public static final char NAME_VALUE_SEPARATOR = 1;
    public static final char PROPERTY_SEPARATOR = 2;

    static final int MAX_PRESIZE = 256;

    static final int INITIAL_BUFFER = 512;
    static final int MAX_KEPT_BUFFER = 8192;

    /** One encode buffer per thread, in a one-slot holder so that it can grow and be taken out while in use. */
    private static final ThreadLocal<char[][]> BUFFER = new ThreadLocal<char[][]>() {
        @Override
        protected char[][] initialValue() {
            return new char[1][];
        }
    };

    private MessageProperties() {
    }

    /**
     * Encodes every entry with a non-null value, each followed by the property separator, as stock does; a null or
     * empty map encodes to {@code ""}.
     */
    public static String encode(Map<String, String> properties) {
        return encode(properties, false);
    }

    /**
     * Encodes what goes into the CommitLog for a single send: like {@link #encode} but without {@link
     * TransientProperties transient} keys and without the trailing separator (nothing is appended to this string
     * after it). The map itself is left untouched, so the broker still sees {@code WAIT} while it handles the request.
     */
    public static String encodeForStore(Map<String, String> properties) {
        return encode(properties, true);
    }

    private static String encode(Map<String, String> properties, boolean forStore) {
        if (properties == null || properties.isEmpty()) {
            return "";
        }
        // The chars go into this thread's reusable buffer and are copied once, into a String of exactly the
        // right size. Stock appends to a 16-char StringBuilder that grows (copies) several times; sizing a builder
        // exactly first costs a second pass over the map, and a reused StringBuilder would stay UTF-16 for good
        // after one non-Latin-1 message on JDK 9+. Measured in PropertiesBenchmark (see BENCHMARKS.md).
        char[][] holder = BUFFER.get();
        char[] buf = holder[0];
        // Taken out while in use: a (theoretical) nested call on this thread gets a fresh buffer, not this one.
        holder[0] = null;
        if (buf == null) {
            buf = new char[INITIAL_BUFFER];
        }
        int pos = 0;
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String value = e.getValue();
            if (value == null || forStore && TransientProperties.isTransient(e.getKey())) {
                continue;
            }
            String key = String.valueOf(e.getKey());
            int keyLength = key.length();
            int valueLength = value.length();
            int need = pos + keyLength + valueLength + 2;
            if (need > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
            }
            key.getChars(0, keyLength, buf, pos);
            pos += keyLength;
            buf[pos++] = NAME_VALUE_SEPARATOR;
            value.getChars(0, valueLength, buf, pos);
            pos += valueLength;
            buf[pos++] = PROPERTY_SEPARATOR;
        }
        // Stock's string ends every entry with a separator; the stored one leaves the last off.
        int end = forStore && pos > 0 ? pos - 1 : pos;
        String encoded = end == 0 ? "" : new String(buf, 0, end);
        // A thread that once encoded a huge map does not keep a huge buffer.
        holder[0] = buf.length <= MAX_KEPT_BUFFER ? buf : null;
        return encoded;
    }

    /**
     * Parses a properties string with index arithmetic (stock uses two levels of {@code String.split}).
     * A null or empty string gives an empty map. The map is a presized {@link HashMap}, mutable, as stock's is.
     *
     * <p>A segment between property separators becomes a pair exactly when stock's {@code split("\u0001")}
     * (which drops trailing empty strings) gives two parts: one name-value separator followed by a non-empty
     * value, or further name-value separators only at the very end of the segment. The name may be empty.
     */
    public static Map<String, String> decode(String properties) {
        if (properties == null || properties.isEmpty()) {
            return new HashMap<String, String>();
        }
        final String s = properties;
        final int len = s.length();
        // One scan finds the property separators: their positions end the segments.
        // Only the first MAX_PRESIZE are kept, so a crafted string of a million separators costs no more memory
        // than a real one; segments past them are found by searching, as they come.
        int[] ends = new int[16];
        int kept = 0;
        boolean more = false;
        for (int p = s.indexOf(PROPERTY_SEPARATOR); p >= 0; p = s.indexOf(PROPERTY_SEPARATOR, p + 1)) {
            if (kept == ends.length) {
                if (kept == MAX_PRESIZE) {
                    more = true;
                    break;
                }
                ends = Arrays.copyOf(ends, Math.min(kept * 2, MAX_PRESIZE));
            }
            ends[kept++] = p;
        }
        // Stock's default HashMap, grown as stock's grows: the same table size, so the same iteration order, which
        // the broker writes back to the store after adding CLUSTER (MessagePropertiesOrderTest).
        HashMap<String, String> map = new HashMap<String, String>();
        // First name-value separator at or after the current segment's start (-1: none left, so no more pairs).
        // It is carried from segment to segment: searching afresh from every segment start would rescan the rest
        // of the string each time, quadratic on a crafted header with many segments and one separator at the end.
        int nv = s.indexOf(NAME_VALUE_SEPARATOR);
        int start = 0;
        int segment = 0;
        while (nv >= 0) {
            int end;
            if (segment < kept) {
                end = ends[segment++];
            } else {
                end = more ? s.indexOf(PROPERTY_SEPARATOR, start) : -1;
                if (end < 0) {
                    end = len;
                }
            }
            if (nv < end) {
                int sep = nv;
                nv = s.indexOf(NAME_VALUE_SEPARATOR, sep + 1);
                if (nv < 0 || nv > end) {
                    if (end > sep + 1) {
                        map.put(KnownKeys.name(s, start, sep), s.substring(sep + 1, end));
                    }
                } else {
                    int i = nv + 1;
                    while (i < end && s.charAt(i) == NAME_VALUE_SEPARATOR) {
                        i++;
                    }
                    if (i == end && nv > sep + 1) {
                        map.put(KnownKeys.name(s, start, sep), s.substring(sep + 1, nv));
                    }
                    // Nothing from i on was searched yet; the next segment's search starts past this one.
                    nv = end < len ? s.indexOf(NAME_VALUE_SEPARATOR, end + 1) : -1;
                }
            }
            if (end >= len) {
                break;
            }
            start = end + 1;
        }
        return map;
    }

    /**
     * {@link #decode}{@code (new String(b, off, len, UTF_8))} without making that String, when the {@code len} bytes
     * at {@code off} are all ASCII (below 0x80: each byte is its own char, so the String would hold exactly these
     * chars): the same algorithm on the bytes, so the same entries, inserted in the same order into a map of the same
     * capacity. Null when a byte is not ASCII; the caller decodes the String then.
     */
    public static Map<String, String> decodeAscii(byte[] b, int off, int len) {
        final int limit = off + len;
        for (int i = off; i < limit; i++) {
            if (b[i] < 0) {
                return null;
            }
        }
        if (len == 0) {
            return new HashMap<String, String>();
        }
        // decode(String) line for line: absolute indices into b, limit for the string's length.
        int[] ends = new int[16];
        int kept = 0;
        boolean more = false;
        for (int p = indexOf(b, PROPERTY_SEPARATOR, off, limit); p >= 0; p = indexOf(b, PROPERTY_SEPARATOR, p + 1, limit)) {
            if (kept == ends.length) {
                if (kept == MAX_PRESIZE) {
                    more = true;
                    break;
                }
                ends = Arrays.copyOf(ends, Math.min(kept * 2, MAX_PRESIZE));
            }
            ends[kept++] = p;
        }
        // Stock's default HashMap, grown as stock's grows: the same table size, so the same iteration order, which
        // the broker writes back to the store after adding CLUSTER (MessagePropertiesOrderTest).
        HashMap<String, String> map = new HashMap<String, String>();
        int nv = indexOf(b, NAME_VALUE_SEPARATOR, off, limit);
        int start = off;
        int segment = 0;
        while (nv >= 0) {
            int end;
            if (segment < kept) {
                end = ends[segment++];
            } else {
                end = more ? indexOf(b, PROPERTY_SEPARATOR, start, limit) : -1;
                if (end < 0) {
                    end = limit;
                }
            }
            if (nv < end) {
                int sep = nv;
                nv = indexOf(b, NAME_VALUE_SEPARATOR, sep + 1, limit);
                if (nv < 0 || nv > end) {
                    if (end > sep + 1) {
                        map.put(KnownKeys.name(b, start, sep), ascii(b, sep + 1, end));
                    }
                } else {
                    int i = nv + 1;
                    while (i < end && b[i] == NAME_VALUE_SEPARATOR) {
                        i++;
                    }
                    if (i == end && nv > sep + 1) {
                        map.put(KnownKeys.name(b, start, sep), ascii(b, sep + 1, nv));
                    }
                    nv = end < limit ? indexOf(b, NAME_VALUE_SEPARATOR, end + 1, limit) : -1;
                }
            }
            if (end >= limit) {
                break;
            }
            start = end + 1;
        }
        return map;
    }

    /** First index of {@code c} in {@code b[from, limit)}, or -1 (String.indexOf's answer past the end too). */
    private static int indexOf(byte[] b, char c, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static String ascii(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

}
