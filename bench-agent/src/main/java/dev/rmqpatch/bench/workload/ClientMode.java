package dev.rmqpatch.bench.workload;

/**
 * How the agents send: {@code rocketmq}, stock 4.9.0 {@code DefaultMQProducer}s (the reference: what an application
 * does), or {@code wire}, SEND_MESSAGE_V2 frames pre-encoded once per producer and written over netty (a load
 * generator that costs a fraction of the broker's CPU per message, so it is not what limits a run on a shared machine).
 */
public enum ClientMode {
    ROCKETMQ("rocketmq"),
    WIRE("wire");

    private final String label;

    ClientMode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Null or empty means the default, {@code rocketmq}. */
    public static ClientMode parse(String value) {
        if (value == null || value.isEmpty()) {
            return ROCKETMQ;
        }
        for (ClientMode m : values()) {
            if (m.label.equals(value)) {
                return m;
            }
        }
        throw new IllegalArgumentException("client must be rocketmq or wire, not '" + value + "'");
    }
}
