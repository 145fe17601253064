package dev.rmqpatch.codec.properties;

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
 *   <li>{@link #encode} writes no trailing separator; stock 4.9.0 decodes the result to the same map, so
 *       old consumers read what a patched broker stored.</li>
 * </ul>
 */
public final class MessageProperties {

    public static final char NAME_VALUE_SEPARATOR = 1;
    public static final char PROPERTY_SEPARATOR = 2;

    private MessageProperties() {
    }

    /** Encodes every entry with a non-null value; a null map encodes to {@code ""}. */
    public static String encode(Map<String, String> properties) {
        return encode(properties, false);
    }

    /**
     * Encodes what goes into the CommitLog: like {@link #encode} but without {@link TransientProperties transient}
     * keys. The map itself is left untouched, so the broker still sees {@code WAIT} while it handles the request.
     */
    public static String encodeForStore(Map<String, String> properties) {
        return encode(properties, true);
    }

    private static String encode(Map<String, String> properties, boolean skipTransient) {
        if (properties == null || properties.isEmpty()) {
            return "";
        }
        // First pass sizes the builder exactly: stock starts at 16 chars and grows (copies) two or three times.
        int length = 0;
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String value = e.getValue();
            if (value == null || skipTransient && TransientProperties.isTransient(e.getKey())) {
                continue;
            }
            length += String.valueOf(e.getKey()).length() + value.length() + 2;
        }
        if (length == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder(length - 1);
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String value = e.getValue();
            if (value == null || skipTransient && TransientProperties.isTransient(e.getKey())) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(PROPERTY_SEPARATOR);
            }
            sb.append(e.getKey()).append(NAME_VALUE_SEPARATOR).append(value);
        }
        return sb.toString();
    }

    /**
     * Parses a properties string with index arithmetic (stock uses two levels of {@code String.split}).
     * A null or empty string gives an empty map. The map is a presized {@link HashMap}, mutable, as stock's is.
     */
    public static Map<String, String> decode(String properties) {
        if (properties == null || properties.isEmpty()) {
            return new HashMap<String, String>();
        }
        int len = properties.length();
        HashMap<String, String> map = new HashMap<String, String>(capacityFor(countPairs(properties, len)));
        int start = 0;
        while (start < len) {
            int end = properties.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = len;
            }
            putPair(properties, start, end, map);
            start = end + 1;
        }
        return map;
    }

    /**
     * Adds the pair in {@code s[start, end)} when stock 4.9.0 would: {@code split("\u0001")} of the segment,
     * with Java's trailing empty strings dropped, must give exactly two parts. That means one separator with a
     * non-empty value after it (the name may be empty), or further separators only at the very end.
     */
    private static void putPair(String s, int start, int end, Map<String, String> map) {
        int sep = s.indexOf(NAME_VALUE_SEPARATOR, start);
        if (sep < 0 || sep >= end) {
            return;
        }
        int valueEnd = s.indexOf(NAME_VALUE_SEPARATOR, sep + 1);
        if (valueEnd < 0 || valueEnd >= end) {
            valueEnd = end;
        } else {
            for (int i = valueEnd + 1; i < end; i++) {
                if (s.charAt(i) != NAME_VALUE_SEPARATOR) {
                    return;
                }
            }
        }
        if (valueEnd == sep + 1) {
            return;
        }
        map.put(s.substring(start, sep), s.substring(sep + 1, valueEnd));
    }

    private static int countPairs(String s, int len) {
        int n = 1;
        int i = s.indexOf(PROPERTY_SEPARATOR);
        while (i >= 0 && i < len - 1) {
            n++;
            i = s.indexOf(PROPERTY_SEPARATOR, i + 1);
        }
        return n;
    }

    /** HashMap capacity that holds {@code n} entries at the default load factor without a resize. */
    static int capacityFor(int n) {
        return n < 3 ? 4 : (int) (n / 0.75f) + 1;
    }
}
