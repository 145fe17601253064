package dev.rmqpatch.bench.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/** What every message of one producer carries besides its body: topic, tags, keys and user properties. */
public final class MessageSpec {
    final String producerGroup;
    final String topic;
    final String tags;
    final String keys;
    final Map<String, String> userProperties;
    final byte[] body;
    final boolean oneway;

    /** {@code tags}, {@code keys} may be null or empty (left out, as the stock client does); properties in insertion order. */
    public MessageSpec(String producerGroup, String topic, String tags, String keys, Map<String, String> userProperties, byte[] body,
                       boolean oneway) {
        this.producerGroup = producerGroup;
        this.topic = topic;
        this.tags = tags == null ? "" : tags;
        this.keys = keys == null ? "" : keys;
        this.userProperties = userProperties == null ? Map.of() : new LinkedHashMap<>(userProperties);
        this.body = body;
        this.oneway = oneway;
    }
}
