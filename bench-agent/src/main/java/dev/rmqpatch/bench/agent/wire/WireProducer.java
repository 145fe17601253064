package dev.rmqpatch.bench.agent.wire;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One producer of the wire client: the frames of its topic, its queues (round robin, as the stock producer's
 * {@code selectOneMessageQueue} without a failed broker to avoid) and one connection per broker address of its own,
 * as a stock producer with its own instance name has.
 */
public final class WireProducer {
    private final SendFrames frames;
    private final WireConnection.Factory connections;
    private final Map<String, WireConnection> byAddress = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private volatile TopicRoutes.Queue[] queues = new TopicRoutes.Queue[0];

    public WireProducer(MessageSpec spec, UniqueKeys keys, WireConnection.Factory connections) {
        this.frames = new SendFrames(spec, keys);
        this.connections = connections;
    }

    public String topic() {
        return frames.topic();
    }

    public SendFrames frames() {
        return frames;
    }

    /** Replaces the queues (route fetched or refreshed). */
    public void route(List<TopicRoutes.Queue> route) {
        queues = route.toArray(new TopicRoutes.Queue[0]);
    }

    public int queueCount() {
        return queues.length;
    }

    /** The distinct broker addresses of the current route. */
    public java.util.Set<String> brokerAddresses() {
        java.util.Set<String> all = new java.util.LinkedHashSet<>();
        for (TopicRoutes.Queue q : queues) {
            all.add(q.brokerAddr);
        }
        return all;
    }

    /** The next queue, round robin; null when the route has none. */
    public TopicRoutes.Queue nextQueue() {
        TopicRoutes.Queue[] q = queues;
        if (q.length == 0) {
            return null;
        }
        return q[(next.getAndIncrement() & Integer.MAX_VALUE) % q.length];
    }

    /** This producer's connection to a broker (created unconnected on first use). */
    public WireConnection connection(String brokerAddr) {
        WireConnection c = byAddress.get(brokerAddr);
        // computeIfAbsent only when missing: its bound method reference would be a new object per message.
        return c != null ? c : byAddress.computeIfAbsent(brokerAddr, connections::create);
    }

    public void close() {
        byAddress.values().forEach(WireConnection::close);
    }
}
