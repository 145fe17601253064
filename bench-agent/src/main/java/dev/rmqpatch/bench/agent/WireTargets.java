package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.agent.wire.MessageSpec;
import dev.rmqpatch.bench.agent.wire.TopicRoutes;
import dev.rmqpatch.bench.agent.wire.UniqueKeys;
import dev.rmqpatch.bench.agent.wire.WireConnection;
import dev.rmqpatch.bench.agent.wire.WireProducer;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import io.netty.channel.ChannelFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The wire client's producers of every target (cluster), index-aligned with the target's pairs ({@link Pairs}), and
 * their routes, as the stock client keeps them: fetched from the target's name server at prepare, with a connection
 * to every broker of the route, and fetched again in the background after errors.
 */
final class WireTargets implements AutoCloseable {
    private static final long ROUTE_REFRESH_MIN_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The producers of one target and its name server. */
    private static final class Target {
        final PrepareRequest.Target spec;
        final TopicRoutes routes;
        final List<WireProducer> producers = new ArrayList<>();

        Target(PrepareRequest.Target spec) {
            this.spec = spec;
            this.routes = new TopicRoutes(spec.namesrv);
        }
    }

    private final PrepareRequest request;
    private final List<Target> targets = new ArrayList<>();
    private final ExecutorService refresher = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "wire-route-refresh");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private volatile long lastRefreshNanos;

    /**
     * One producer per pair of every target, each with its frames encoded: the request's message fields, one of
     * {@code bodies} per message, a key per message from the driver with {@code keyPerMessage}.
     */
    WireTargets(PrepareRequest request, List<byte[]> bodies, boolean keyPerMessage, boolean oneway, WireConnection.Factory connections) {
        this.request = request;
        String group = "rmqpatch-bench-" + (request.runId == null ? "run" : request.runId);
        UniqueKeys keys = new UniqueKeys();
        for (PrepareRequest.Target spec : Pairs.targets(request)) {
            Target target = new Target(spec);
            targets.add(target);
            for (int pair = 0; pair < Pairs.count(spec, request.producersPerTopic); pair++) {
                MessageSpec m = new MessageSpec(group, Pairs.topic(spec, pair, request.producersPerTopic), request.tags, request.keys,
                    keyPerMessage, request.userProperties, bodies, oneway);
                target.producers.add(new WireProducer(m, keys, connections));
            }
        }
    }

    /** The producer of pair {@code pair} of target {@code target}. */
    WireProducer producer(int target, int pair) {
        return targets.get(target).producers.get(pair);
    }

    /** Whether the bodies go compressed on the wire (every producer has the same bodies). */
    boolean bodyCompressed() {
        return targets.get(0).producers.get(0).frames().bodyCompressed();
    }

    /** Waits, up to routeWaitMs in all, for every topic's route to show the expected queues. */
    void awaitRoutes() throws PrepareException {
        long deadline = System.currentTimeMillis() + request.routeWaitMs;
        for (Target target : targets) {
            for (String topic : target.spec.topics) {
                String last;
                while (true) {
                    try {
                        List<TopicRoutes.Queue> queues = target.routes.queues(topic, 3000);
                        if (!queues.isEmpty() && (request.partitionsPerTopic <= 0 || queues.size() == request.partitionsPerTopic)) {
                            route(target, topic, queues);
                            break;
                        }
                        last = "route shows " + queues.size() + " write queues, expected " + request.partitionsPerTopic;
                    } catch (TopicRoutes.RouteException e) {
                        last = e.getMessage();
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new PrepareException("no usable route for topic " + topic + " from name server "
                            + target.spec.namesrv + " after " + request.routeWaitMs / 1000.0
                            + " s (is the broker up and registered, and the topic created?): " + last, null);
                    }
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    private static void route(Target target, String topic, List<TopicRoutes.Queue> queues) {
        for (WireProducer p : target.producers) {
            if (p.topic().equals(topic)) {
                p.route(queues);
            }
        }
    }

    /** Connects every producer to every broker of its route now, so a broker that cannot be reached fails the prepare. */
    void connectAll() throws PrepareException {
        for (Target target : targets) {
            for (WireProducer p : target.producers) {
                for (String broker : p.brokerAddresses()) {
                    ChannelFuture f = p.connection(broker).connect();
                    f.awaitUninterruptibly(request.sendTimeoutMs + 1000L);
                    if (!f.isSuccess()) {
                        throw new PrepareException("cannot connect to broker " + broker + " (route of topic "
                            + p.topic() + " from " + target.spec.namesrv + "): " + (f.cause() == null ? "timed out" : f.cause()), f.cause());
                    }
                }
            }
        }
    }

    /** Fetches the routes again in the background, at most once a second (after errors, as the stock client does). */
    void refresh() {
        long now = System.nanoTime();
        if (now - lastRefreshNanos < ROUTE_REFRESH_MIN_NANOS || !refreshQueued.compareAndSet(false, true)) {
            return;
        }
        lastRefreshNanos = now;
        try {
            refresher.execute(() -> {
                try {
                    for (Target t : targets) {
                        for (String topic : t.spec.topics) {
                            try {
                                route(t, topic, t.routes.queues(topic, 3000));
                            } catch (TopicRoutes.RouteException e) {
                                // Keep the old route: a name server that cannot answer now may answer at the next error.
                            }
                        }
                    }
                } finally {
                    refreshQueued.set(false);
                }
            });
        } catch (RejectedExecutionException stopped) {
            refreshQueued.set(false);
        }
    }

    /** "name server A, name server B": where the targets' routes come from, for messages. */
    String describe() {
        List<String> all = new ArrayList<>();
        for (Target t : targets) {
            all.add("name server " + t.spec.namesrv);
        }
        return String.join(", ", all);
    }

    /** Closes every producer's connections and the name-server clients. */
    @Override
    public void close() {
        for (Target t : targets) {
            for (WireProducer p : t.producers) {
                p.close();
            }
            t.routes.close();
        }
        refresher.shutdownNow();
    }
}
