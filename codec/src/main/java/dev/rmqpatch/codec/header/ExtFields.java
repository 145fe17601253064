package dev.rmqpatch.codec.header;

import java.util.Map;

import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * Typed reads of ext-field values with stock 4.9.0's rules ({@code RemotingCommand.decodeCommandCustomHeader}):
 * {@code Integer.parseInt}, {@code Long.parseLong}, {@code Boolean.parseBoolean}; a value that is absent or does not
 * parse gives null, and the codec then leaves the header's field at its default, as stock does. Stock throws "the
 * custom field &lt;f&gt; is null" for an absent {@code @CFNotNull} field and a NumberFormatException for a malformed
 * number inside a catch that logs them ("Failed field [f] decoding", on the remoting logger) and goes on to the next
 * field, so the request is served; these reads log the same line with the same exception and go on too.
 */
final class ExtFields {

    /** Most ASCII digits that can never overflow an int (999,999,999) / a long (999,999,999,999,999,999). */
    static final int MAX_INT_DIGITS = 9;
    static final int MAX_LONG_DIGITS = 18;

    private ExtFields() {
    }

    /** The value, or null when absent (logged as stock does when the field is {@code @CFNotNull}). */
    static String string(Map<String, String> ext, String field, boolean notNull) {
        String value = ext.get(field);
        if (value == null && notNull) {
            Log.failed(field, new RemotingCommandException("the custom field <" + field + "> is null"));
        }
        return value;
    }

    /** The parsed value, or null when absent or malformed (both logged as stock logs them). */
    static Integer intValue(Map<String, String> ext, String field, boolean notNull) {
        String value = string(ext, field, notNull);
        if (value == null) {
            return null;
        }
        long fast = asciiDigits(value, MAX_INT_DIGITS);
        if (fast >= 0) {
            return (int) fast;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            Log.failed(field, e);
            return null;
        }
    }

    /** The parsed value, or null when absent or malformed (both logged as stock logs them). */
    static Long longValue(Map<String, String> ext, String field, boolean notNull) {
        String value = string(ext, field, notNull);
        if (value == null) {
            return null;
        }
        long fast = asciiDigits(value, MAX_LONG_DIGITS);
        if (fast >= 0) {
            return fast;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            Log.failed(field, e);
            return null;
        }
    }

    /** Null when absent (the field keeps its default); otherwise stock's {@code Boolean.parseBoolean}. */
    static Boolean booleanValue(Map<String, String> ext, String field) {
        String value = ext.get(field);
        return value == null ? null : Boolean.valueOf(Boolean.parseBoolean(value));
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

    /** Stock's logger and line, made only when a field fails (never on a well-formed request). */
    private static final class Log {
        private static final InternalLogger LOG = InternalLoggerFactory.getLogger(RemotingHelper.ROCKETMQ_REMOTING);

        static void failed(String field, Throwable e) {
            LOG.error("Failed field [{}] decoding", field, e);
        }
    }
}
