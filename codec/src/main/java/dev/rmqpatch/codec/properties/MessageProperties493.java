package dev.rmqpatch.codec.properties;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * P2's variant for RocketMQ 4.9.3 to 4.9.8: the message-properties string in those releases' format, for
 * {@code MessageDecoder.messageProperties2String} and {@code string2messageProperties} there.
 *
 * <p>What those releases do (read in 4.9.3's, 4.9.4's, 4.9.7's sources and 4.9.8's source release; javap of the four
 * common jars: 4.9.4, 4.9.7 and 4.9.8 the same instructions, 4.9.3's encoder one dead null check more):
 * <ul>
 *   <li>encode: {@code ""} for a null map; else every entry with a non-null value as {@code name \u0001 value}, the
 *       entries joined by {@code \u0002}, <b>no separator after the last</b> (4.9.0 ends with one); a null name is
 *       written as the text {@code null} ({@code StringBuilder.append}); a key or value that is not a String fails with
 *       stock's ClassCastException (each entry's key, then its value, is cast before the null check).</li>
 *   <li>decode: a new {@code HashMap} (default capacity); null gives it empty. The string is cut at every {@code
 *       \u0002}; a segment gives a pair when its <b>first</b> {@code \u0001} is neither its first nor its last char:
 *       the name before it (never empty, never holding {@code \u0001}), the value everything after it, further
 *       {@code \u0001}s included. A later pair of the same name replaces an earlier one.</li>
 * </ul>
 *
 * <p>Here, the same results, with less work:
 * {@link #encode} walks the map once (stock twice, the first time to size its builder) into a reused per-thread
 * {@code char[]} and makes the one String of exactly the right length from it (no builder, no copy in
 * {@code toString}, no {@code deleteCharAt}); {@link #decode} searches each separator kind once over the whole string
 * (stock searches for the name-value separator from every segment's start to wherever the next one is, which is
 * quadratic on a string of many segments without one: a crafted header) and hands out RocketMQ's own property names
 * as their constants ({@link KnownKeys}: no substring, a hash computed once). The map is a default {@code HashMap}
 * as stock's, filled in stock's order, so it iterates in stock's order, and a broker that re-encodes it (adding
 * {@code CLUSTER}) writes stock's bytes (a presized map would iterate in another order: MessagePropertiesOrderTest).
 *
 * <p>Differences no caller sees through equal inputs: a map whose iteration has side effects or changes while it is
 * encoded (stock iterates twice and can see two states); a map of more than {@code Integer.MAX_VALUE} chars (stock's
 * length sum overflows: NegativeArraySizeException or an OutOfMemoryError; here an OutOfMemoryError or
 * NegativeArraySizeException). Pinned by {@code Properties493DifferentialTest} (broker-patches) against each
 * release's stock jar.
 */
public final class MessageProperties493 {

    static final char NAME_VALUE_SEPARATOR = MessageProperties.NAME_VALUE_SEPARATOR;
    static final char PROPERTY_SEPARATOR = MessageProperties.PROPERTY_SEPARATOR;

    static final int INITIAL_BUFFER = 512;
    static final int MAX_KEPT_BUFFER = 8192;

    /** One encode buffer per thread, in a one-slot holder so that it can grow and be taken out while in use. */
    private static final ThreadLocal<char[][]> BUFFER = new ThreadLocal<char[][]>() {
        @Override
        protected char[][] initialValue() {
            return new char[1][];
        }
    };

    private MessageProperties493() {
    }

    /** 4.9.3+'s {@code messageProperties2String}: no separator after the last entry. */
    public static String encode(Map<String, String> properties) {
        if (properties == null) {
            return "";
        }
        char[][] holder = BUFFER.get();
        char[] buf = holder[0];
        // Taken out while in use: a nested call on this thread (a map whose toString encodes...) gets a fresh one.
        holder[0] = null;
        if (buf == null) {
            buf = new char[INITIAL_BUFFER];
        }
        int pos = 0;
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            // Both assigned before the null check, as stock: a key or value of another class fails the same cast.
            final String name = entry.getKey();
            final String value = entry.getValue();
            if (value == null) {
                continue;
            }
            String key = name == null ? "null" : name;
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
        // pos is 0 (no entry written) or at least 2; the last separator is left out.
        String encoded = pos == 0 ? "" : new String(buf, 0, pos - 1);
        holder[0] = buf.length <= MAX_KEPT_BUFFER ? buf : null;
        return encoded;
    }

    /** 4.9.3+'s {@code string2messageProperties}: a segment's first name-value separator splits it. */
    public static Map<String, String> decode(String properties) {
        HashMap<String, String> map = new HashMap<String, String>();
        if (properties == null) {
            return map;
        }
        final String s = properties;
        final int len = s.length();
        // The first name-value separator at or after the segment's start; -1: none left, so no pair either.
        int nv = s.indexOf(NAME_VALUE_SEPARATOR);
        int start = 0;
        while (nv >= 0 && start < len) {
            int end = s.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = len;
            }
            if (nv < end) {
                // Stock: kvSepIndex > index && kvSepIndex < newIndex - 1 (which implies newIndex - index >= 3).
                if (nv > start && nv < end - 1) {
                    map.put(KnownKeys.name(s, start, nv), s.substring(nv + 1, end));
                }
                // The value may hold more of them: the next segment's search starts past this segment.
                nv = end + 1 < len ? s.indexOf(NAME_VALUE_SEPARATOR, end + 1) : -1;
            }
            start = end + 1;
        }
        return map;
    }
}
