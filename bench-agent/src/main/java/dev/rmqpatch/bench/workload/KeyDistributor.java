package dev.rmqpatch.bench.workload;

/**
 * OpenMessaging Benchmark's {@code keyDistributor}: which key each message carries. The agents set it as the message's
 * KEYS property, as OMB's RocketMQ driver does ({@code Message.setKeys}); the stock producer still picks queues round
 * robin, so keys do not steer messages to queues in either tool.
 */
public enum KeyDistributor {
    /** No key (the default). */
    NO_KEY,
    /** A fixed set of random keys, taken in turn by each sender. */
    KEY_ROUND_ROBIN,
    /** A key of that set picked from System.nanoTime() per message. */
    RANDOM_NANO;

    /** OMB's own names, exactly (it reads the enum with Jackson); anything else is an error that lists them. */
    public static KeyDistributor parse(String value) {
        for (KeyDistributor k : values()) {
            if (k.name().equals(value)) {
                return k;
            }
        }
        throw new IllegalArgumentException("keyDistributor must be NO_KEY, KEY_ROUND_ROBIN or RANDOM_NANO, not '" + value + "'");
    }
}
