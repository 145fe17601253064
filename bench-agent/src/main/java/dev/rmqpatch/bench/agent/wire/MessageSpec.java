package dev.rmqpatch.bench.agent.wire;

import dev.rmqpatch.bench.lang.Jdk8;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every message of one producer carries: topic, tags, keys, user properties, and its body, one of a pool. With
 * {@code keyPerMessage} each message carries its own KEYS value (a key distributor's), given per message to
 * {@link SendFrames}; otherwise {@code keys}, the same for every message.
 */
public final class MessageSpec {
    final String producerGroup;
    final String topic;
    final String tags;
    final String keys;
    final boolean keyPerMessage;
    final Map<String, String> userProperties;
    final List<byte[]> bodies;
    final boolean oneway;

    /**
     * {@code tags}, {@code keys} may be null or empty (left out, as the stock client does); properties in insertion
     * order; {@code bodies} the pool a message's body is picked from (one body: every message has it).
     */
    public MessageSpec(String producerGroup, String topic, String tags, String keys, boolean keyPerMessage,
                       Map<String, String> userProperties, List<byte[]> bodies, boolean oneway) {
        if (bodies.isEmpty()) {
            throw new IllegalArgumentException("no body");
        }
        this.producerGroup = producerGroup;
        this.topic = topic;
        this.tags = tags == null ? "" : tags;
        this.keys = keys == null ? "" : keys;
        this.keyPerMessage = keyPerMessage;
        this.userProperties = userProperties == null ? Collections.emptyMap() : new LinkedHashMap<>(userProperties);
        this.bodies = Jdk8.copyOf(bodies);
        this.oneway = oneway;
    }
}
