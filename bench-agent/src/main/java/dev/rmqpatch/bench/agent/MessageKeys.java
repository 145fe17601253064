package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.workload.KeyDistributor;
import java.util.Base64;
import java.util.Random;

/**
 * OMB's key distributors: a set of 10,000 keys, each 7 random bytes in unpadded URL-safe base64 (10 characters), taken
 * round robin by each sender (KEY_ROUND_ROBIN) or picked from System.nanoTime() (RANDOM_NANO); NO_KEY gives none. One
 * instance per sender thread, as OMB has one distributor per producer (round robin is not thread-safe there either).
 */
final class MessageKeys {
    static final int UNIQUE_KEYS = 10_000;
    private static final int KEY_BYTES = 7;

    private final KeyDistributor kind;
    private final String[] keys;
    private int next;

    private MessageKeys(KeyDistributor kind, String[] keys, int start) {
        this.kind = kind;
        this.keys = keys;
        this.next = start;
    }

    /** The key set of one agent (seeded by its index, so reruns send the same keys), shared by its senders. */
    static String[] keySet(int agentIndex) {
        String[] keys = new String[UNIQUE_KEYS];
        Random random = new Random(7919L * (agentIndex + 1));
        byte[] buffer = new byte[KEY_BYTES];
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        for (int i = 0; i < keys.length; i++) {
            random.nextBytes(buffer);
            keys[i] = encoder.encodeToString(buffer);
        }
        return keys;
    }

    static MessageKeys of(KeyDistributor kind, String[] keySet) {
        return new MessageKeys(kind, keySet, 0);
    }

    static KeyDistributor kind(String name) {
        return name == null || name.isEmpty() ? KeyDistributor.NO_KEY : KeyDistributor.parse(name);
    }

    /** The next message's key, or null for none. */
    String next() {
        int i = nextIndex();
        return i < 0 ? null : keys[i];
    }

    /** The index in the key set of the next message's key, or -1 for none (the wire client keeps the set's bytes). */
    int nextIndex() {
        switch (kind) {
            case KEY_ROUND_ROBIN:
                // OMB advances before reading, so its first key is the second of the set; the order does not matter here.
                int k = next;
                next = next + 1 == keys.length ? 0 : next + 1;
                return k;
            case RANDOM_NANO:
                return Math.abs((int) (System.nanoTime() % keys.length));
            default:
                return -1;
        }
    }
}
