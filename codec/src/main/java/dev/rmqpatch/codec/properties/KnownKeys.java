package dev.rmqpatch.codec.properties;

import java.nio.charset.StandardCharsets;

import org.apache.rocketmq.common.message.MessageConst;

/**
 * Canonical instances of RocketMQ's own property names, for the decoder: most names in a properties string are
 * these (UNIQ_KEY, WAIT, TAGS, KEYS, CLUSTER...), and handing out the constant instead of a fresh substring saves
 * the copy and the hash computation in {@code HashMap.put} (a constant's hash is computed once). The map that
 * results is equal to one built from substrings.
 *
 * <p>The constants are compile-time constants of {@link MessageConst}, inlined by javac: nothing here loads
 * RocketMQ classes at run time.
 */
final class KnownKeys {

    private static final String[] NAMES = {
        MessageConst.PROPERTY_KEYS, MessageConst.PROPERTY_TAGS, MessageConst.PROPERTY_WAIT_STORE_MSG_OK,
        MessageConst.PROPERTY_DELAY_TIME_LEVEL, MessageConst.PROPERTY_RETRY_TOPIC, MessageConst.PROPERTY_REAL_TOPIC,
        MessageConst.PROPERTY_REAL_QUEUE_ID, MessageConst.PROPERTY_TRANSACTION_PREPARED,
        MessageConst.PROPERTY_PRODUCER_GROUP, MessageConst.PROPERTY_MIN_OFFSET, MessageConst.PROPERTY_MAX_OFFSET,
        MessageConst.PROPERTY_BUYER_ID, MessageConst.PROPERTY_ORIGIN_MESSAGE_ID, MessageConst.PROPERTY_TRANSFER_FLAG,
        MessageConst.PROPERTY_CORRECTION_FLAG, MessageConst.PROPERTY_MQ2_FLAG, MessageConst.PROPERTY_RECONSUME_TIME,
        MessageConst.PROPERTY_MSG_REGION, MessageConst.PROPERTY_TRACE_SWITCH,
        MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, MessageConst.PROPERTY_MAX_RECONSUME_TIMES,
        MessageConst.PROPERTY_CONSUME_START_TIMESTAMP, MessageConst.PROPERTY_TRANSACTION_PREPARED_QUEUE_OFFSET,
        MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, MessageConst.PROPERTY_CHECK_IMMUNITY_TIME_IN_SECONDS,
        MessageConst.PROPERTY_INSTANCE_ID, MessageConst.PROPERTY_CORRELATION_ID,
        MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT, MessageConst.PROPERTY_MESSAGE_TTL,
        MessageConst.PROPERTY_REPLY_MESSAGE_ARRIVE_TIME, MessageConst.PROPERTY_PUSH_REPLY_TIME,
        MessageConst.PROPERTY_CLUSTER, MessageConst.PROPERTY_MESSAGE_TYPE,
    };

    /** Open addressing, a quarter full, so an unknown name usually ends at its first, empty slot. */
    private static final int MASK = 127;
    private static final String[] TABLE = new String[MASK + 1];
    private static final int MAX_LENGTH;

    static {
        int max = 0;
        for (String name : NAMES) {
            int i = slot(name.length(), name.charAt(0), name.charAt(name.length() - 1));
            while (TABLE[i] != null) {
                i = (i + 1) & MASK;
            }
            TABLE[i] = name;
            max = Math.max(max, name.length());
        }
        MAX_LENGTH = max;
    }

    private KnownKeys() {
    }

    /**
     * The substring {@code [from, to)} of {@code s}, as the canonical constant when it is a RocketMQ property name.
     * Only the length and two chars pick the slot: cheaper than hashing the whole name, which the map does anyway
     * for a name that is not known.
     */
    static String name(String s, int from, int to) {
        int n = to - from;
        if (n > 0 && n <= MAX_LENGTH) {
            int i = slot(n, s.charAt(from), s.charAt(to - 1));
            String k;
            while ((k = TABLE[i]) != null) {
                if (k.length() == n && s.regionMatches(from, k, 0, n)) {
                    return k;
                }
                i = (i + 1) & MASK;
            }
        }
        return s.substring(from, to);
    }

    /**
     * As {@link #name(String, int, int)} for the ASCII bytes {@code [from, to)} of {@code b} (every byte below 0x80, so
     * each byte is its char): the constant, or a new String of those bytes.
     */
    static String name(byte[] b, int from, int to) {
        int n = to - from;
        if (n > 0 && n <= MAX_LENGTH) {
            int i = slot(n, (char) b[from], (char) b[to - 1]);
            String k;
            while ((k = TABLE[i]) != null) {
                if (k.length() == n && regionMatches(b, from, k, n)) {
                    return k;
                }
                i = (i + 1) & MASK;
            }
        }
        return new String(b, from, n, StandardCharsets.ISO_8859_1);
    }

    private static boolean regionMatches(byte[] b, int from, String k, int n) {
        for (int j = 0; j < n; j++) {
            if (b[from + j] != k.charAt(j)) {
                return false;
            }
        }
        return true;
    }

    private static int slot(int length, char first, char last) {
        return (length * 31 + first * 7 + last) & MASK;
    }
}
