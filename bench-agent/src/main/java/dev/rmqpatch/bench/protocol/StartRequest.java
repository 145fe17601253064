package dev.rmqpatch.bench.protocol;

/** {@code POST /start}: begin sending after this delay, counted from when the agent receives the request. */
public final class StartRequest {
    /**
     * A short common delay instead of an absolute time: agents on other hosts need not share a clock, and the
     * coordinator sends all start requests in parallel, so they begin within one network round trip of each other.
     */
    public long delayMs;
}
