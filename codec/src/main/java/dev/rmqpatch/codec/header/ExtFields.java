package dev.rmqpatch.codec.header;

import java.util.Map;

import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * Typed reads of ext-field values with stock's parse rules ({@code Integer.parseInt}, {@code Long.parseLong},
 * {@code Boolean.parseBoolean}) but clear failures: stock 4.9.0 logs a bad field and leaves it null, which
 * surfaces later as a NullPointerException far from the cause.
 */
final class ExtFields {

    /** Most ASCII digits that can never overflow an int (999,999,999) / a long (999,999,999,999,999,999). */
    static final int MAX_INT_DIGITS = 9;
    static final int MAX_LONG_DIGITS = 18;

    private ExtFields() {
    }

    static String requireString(Map<String, String> ext, String field) throws RemotingCommandException {
        String value = ext == null ? null : ext.get(field);
        if (value == null) {
            throw missing(field);
        }
        return value;
    }

    static String optionalString(Map<String, String> ext, String field) {
        return ext == null ? null : ext.get(field);
    }

    static Integer requireInt(Map<String, String> ext, String field) throws RemotingCommandException {
        return parseInt(requireString(ext, field), field);
    }

    static Integer optionalInt(Map<String, String> ext, String field) throws RemotingCommandException {
        String value = optionalString(ext, field);
        return value == null ? null : parseInt(value, field);
    }

    static Long requireLong(Map<String, String> ext, String field) throws RemotingCommandException {
        String value = requireString(ext, field);
        long fast = asciiDigits(value, MAX_LONG_DIGITS);
        if (fast >= 0) {
            return fast;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw malformed(field, value, "a long");
        }
    }

    /** Absent means false, as for stock's primitive boolean fields; any text but "true" (any case) is false. */
    static boolean optionalBoolean(Map<String, String> ext, String field) {
        String value = optionalString(ext, field);
        return value != null && Boolean.parseBoolean(value);
    }

    private static Integer parseInt(String value, String field) throws RemotingCommandException {
        long fast = asciiDigits(value, MAX_INT_DIGITS);
        if (fast >= 0) {
            return (int) fast;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw malformed(field, value, "an int");
        }
    }

    static void putIfNotNull(Map<String, String> ext, String field, Object value) {
        if (value != null) {
            ext.put(field, value.toString());
        }
    }

    /**
     * The value of a string of 1 to {@code maxDigits} ASCII digits, or -1 for anything else (signs, other Unicode
     * digits, longer strings), which the caller hands to {@code Integer.parseInt} / {@code Long.parseLong}.
     * Same result as those for every string it accepts (no sign, no overflow possible), without their per-digit
     * {@code Character.digit} lookups and overflow checks: the 13-digit bornTimestamp of every send was the
     * largest single cost of the V2 header decode in a JMH profile.
     */
    static long asciiDigits(String value, int maxDigits) {
        int n = value.length();
        if (n == 0 || n > maxDigits) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            int d = value.charAt(i) - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static RemotingCommandException missing(String field) {
        return new RemotingCommandException("the custom field <" + field + "> is null");
    }

    private static RemotingCommandException malformed(String field, String value, String type) {
        String shown = value;
        if (value.length() > 64) {
            // Never cut between the two halves of a surrogate pair: a lone surrogate would garble the log line.
            int cut = Character.isHighSurrogate(value.charAt(63)) ? 63 : 64;
            shown = value.substring(0, cut) + "...";
        }
        return new RemotingCommandException("the custom field <" + field + "> is not " + type + ": \"" + shown + "\"");
    }
}
