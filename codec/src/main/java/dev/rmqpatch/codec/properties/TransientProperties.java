package dev.rmqpatch.codec.properties;

import java.util.ArrayList;
import java.util.List;

/**
 * Property keys that steer processing inside the broker but mean nothing once a message is stored.
 *
 * <p>{@code WAIT} ({@code MessageConst.PROPERTY_WAIT_STORE_MSG_OK}) is set on nearly every message by the
 * producer and costs 10 bytes of CommitLog per message ("WAIT\u0001true\u0002"); the broker only reads it
 * while handling the send request. Operators may add keys of their own through the system property
 * {@value #SYSTEM_PROPERTY} (comma separated), read once when this class is initialised.
 */
public final class TransientProperties {

    /** System property naming extra transient keys, for example {@code -Drmqpatch.transientProperties=TRACE_ON,MSG_REGION}. */
    public static final String SYSTEM_PROPERTY = "rmqpatch.transientProperties";

    /** Same literal as {@code MessageConst.PROPERTY_WAIT_STORE_MSG_OK}; a test pins the two together. */
    public static final String WAIT = "WAIT";

    // An array scan beats a HashSet lookup for the one or two keys this ever holds.
    private static final String[] KEYS = parse(System.getProperty(SYSTEM_PROPERTY, ""));

    private TransientProperties() {
    }

    public static boolean isTransient(String key) {
        for (String k : KEYS) {
            if (k.equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** The keys in force, WAIT first. */
    public static String[] keys() {
        return KEYS.clone();
    }

    static String[] parse(String extra) {
        List<String> keys = new ArrayList<String>();
        keys.add(WAIT);
        for (String k : extra.split(",")) {
            String trimmed = k.trim();
            if (!trimmed.isEmpty() && !keys.contains(trimmed)) {
                keys.add(trimmed);
            }
        }
        return keys.toArray(new String[0]);
    }
}
