package dev.rmqpatch.bench.workload;

import java.util.Locale;

/** How an agent thread hands a message to the stock producer. */
public enum SendMode {
    /** {@code producer.send(msg)}: the thread waits for the broker's answer. What the article measured. */
    SYNC,
    /** {@code producer.send(msg, callback)}, with a bound on messages in flight per agent. */
    ASYNC,
    /** {@code producer.sendOneway(msg)}: no answer, so messages are counted as sent but never acknowledged. */
    ONEWAY;

    public static SendMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("send mode must be sync, async or oneway, not '" + text + "'");
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
