package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.delivery.StreamSets;
import dev.rmqpatch.bench.agent.wire.MessageSpec;
import dev.rmqpatch.bench.agent.wire.ResponseCodes;
import dev.rmqpatch.bench.agent.wire.SendFrames;
import dev.rmqpatch.bench.agent.wire.TopicRoutes;
import dev.rmqpatch.bench.agent.wire.UniqueKeys;
import dev.rmqpatch.bench.agent.wire.WireConnection;
import dev.rmqpatch.bench.agent.wire.WireProducer;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.wire.HeaderFields;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.SendMode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The wire client ({@code --client wire}): SEND_MESSAGE_V2 requests written by the agent itself over netty, each
 * producer's frame pre-encoded once by stock code ({@link dev.rmqpatch.bench.agent.wire.SendFrames}) with only opaque,
 * born timestamp, unique key and queue id written per message.
 *
 * <p>Senders are slots, not threads: each slot has at most one request in flight and sends its next one from the event
 * loop when the answer (or a failure) arrives, so {@code threads} sync senders are {@code threads} slots, and async
 * mode's window of {@code maxOutstanding} is that many slots. Oneway slots send their next frame when the previous one
 * was written to the socket. Routing is the stock client's: the route from the name server at prepare (and again after
 * errors), queues round robin per producer, one connection per producer and broker address.
 *
 * <p>Every send ends in exactly one outcome of its phase, as with {@link LoadGenerator}: acknowledged (by the stock
 * client's send statuses), failed by kind (broker response code, {@code Timeout}, {@code ConnectionLost},
 * {@code ConnectFailed}, {@code NoRoute}), unconfirmed (oneway), or in flight at stop. A run in which nothing was
 * acknowledged for {@link #deadAfterNanos} while sends kept failing ends with a failure naming the last error.
 */
final class WireLoadGenerator implements LoadDriver {
    private static final VarHandle PENDING;
    private static final int IDLE = -1;
    private static final long RETRY_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long ROUTE_REFRESH_MIN_NANOS = TimeUnit.SECONDS.toNanos(1);

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(Slot.class, "pending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One closed-loop sender. */
    static final class Slot {
        final int index;
        /** Opaque of the request in flight, or IDLE; claimed by CAS by the one path (answer, timeout, loss) that ends it. */
        volatile int pending = IDLE;
        int sequence;
        /** Stamped runs: this slot's next stamp sequence (a slot is a stream), and the one of the request in flight. */
        long nextStamp;
        long stampInFlight;
        long sentNanos;
        long intendedNanos;
        PhaseStats stats;
        WireConnection connection;
        /** Parked while the load is paused; resumed by the next switch. */
        boolean parked;
        /** This sender's key distributor (indexes into the agent's key set); null without one. */
        MessageKeys keys;

        Slot(int index) {
            this.index = index;
        }

        boolean claim(int opaque) {
            return opaque != IDLE && PENDING.compareAndSet(this, opaque, IDLE);
        }
    }

    /** The producers of one target (cluster) and its name server. */
    private static final class Target {
        final PrepareRequest.Target spec;
        final TopicRoutes routes;
        final List<WireProducer> producers = new ArrayList<>();

        Target(PrepareRequest.Target spec) {
            this.spec = spec;
            this.routes = new TopicRoutes(spec.namesrv);
        }
    }

    private static final class Route {
        final int target;
        final UniformRateLimiter limiter;

        Route(int target, UniformRateLimiter limiter) {
            this.target = target;
            this.limiter = limiter;
        }
    }

    private final String agentName;
    private final PrepareRequest request;
    /** The bodies a message's is picked from (one, or OMB's randomized pool), as in the rocketmq client mode. */
    private final Bodies bodies;
    /** The agent's key set as header bytes, for a key distributor; null without one. */
    private final byte[][] keySet;
    private final SendMode mode;
    private final NioEventLoopGroup loops;
    private final WireConnection.Factory connections;
    private final List<Target> targets = new ArrayList<>();
    private final Slot[] slots;
    private final int slotMask;
    private final int slotBits;
    private final long timeoutNanos;
    private final long deadAfterNanos;
    private final SendPhases phases = new SendPhases();
    /** Stamped runs: every acknowledged (slot stream, sequence), for the count check; null otherwise. */
    private final StreamSets acked;
    private final ExecutorService routeRefresher = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "wire-route-refresh");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private volatile long lastRefreshNanos;
    private final AtomicLong lateAnswers = new AtomicLong();
    private final AtomicLong brokerRequests = new AtomicLong();

    private volatile Route route;
    private volatile boolean running;
    private volatile String failure;
    private volatile long lastAckNanos;
    private volatile long failuresSinceAck;
    private volatile String lastError;
    private ScheduledFuture<?> watchdog;

    private WireLoadGenerator(String agentName, PrepareRequest request, Bodies bodies, String[] keyNames, byte[][] keySet) {
        this.agentName = agentName;
        this.request = request;
        this.bodies = bodies;
        this.keySet = keySet;
        this.mode = SendMode.parse(request.mode);
        this.acked = request.stampBodies ? new StreamSets() : null;
        int senders = mode == SendMode.ASYNC ? Math.max(1, request.maxOutstanding) : request.threads;
        int bits = 1;
        while ((1 << bits) < senders) {
            bits++;
        }
        this.slotBits = bits;
        this.slotMask = (1 << bits) - 1;
        this.slots = new Slot[senders];
        KeyDistributor keyKind = MessageKeys.kind(request.keyDistributor);
        for (int i = 0; i < senders; i++) {
            slots[i] = new Slot(i);
            if (keySet != null) {
                // One distributor per sender, as the rocketmq client mode has one per thread (OMB: one per producer).
                slots[i].keys = MessageKeys.of(keyKind, keyNames);
            }
        }
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(request.sendTimeoutMs);
        this.deadAfterNanos = Math.max(TimeUnit.SECONDS.toNanos(10), 3 * timeoutNanos);
        int ioThreads = request.ioThreads > 0 ? request.ioThreads : 1;
        this.loops = new NioEventLoopGroup(ioThreads, new DefaultThreadFactory(agentName + "-wire", true));
        this.connections = new WireConnection.Factory(loops, new Answers(), Math.min(3000, request.sendTimeoutMs));
    }

    static WireLoadGenerator prepare(String agentName, PrepareRequest request) throws LoadGenerator.PrepareException {
        LoadGenerator.validate(request);
        if (request.threads > (1 << 20) || request.maxOutstanding > (1 << 20)) {
            throw new LoadGenerator.PrepareException("the wire client supports at most 1,048,576 senders per agent", null);
        }
        if (request.stampBodies && (mode(request) == SendMode.ASYNC ? request.maxOutstanding : request.threads) > BodyStamp.STREAMS_PER_AGENT) {
            throw new LoadGenerator.PrepareException("stamped runs (with consumers) take at most " + BodyStamp.STREAMS_PER_AGENT
                + " senders per agent in the wire client", null);
        }
        Bodies bodies = Bodies.of(request);
        String[] keys = null;
        byte[][] keySet = null;
        if (MessageKeys.kind(request.keyDistributor) != KeyDistributor.NO_KEY) {
            keys = MessageKeys.keySet(request.agentIndex);
            keySet = new byte[keys.length][];
            for (int i = 0; i < keys.length; i++) {
                try {
                    keySet[i] = SendFrames.keyBytes(keys[i]);
                } catch (IllegalArgumentException e) {
                    throw new LoadGenerator.PrepareException(e.getMessage(), null);
                }
            }
        }
        WireLoadGenerator g = new WireLoadGenerator(agentName, request, bodies, keys, keySet);
        try {
            g.createProducers();
            if (request.stampBodies && g.targets.get(0).producers.get(0).frames().bodyCompressed()) {
                throw new LoadGenerator.PrepareException("messageSize " + request.messageSize + " is compressed on the wire (4 KiB and "
                    + "more, as the stock client does), so the wire client cannot stamp its bodies for the consumers; use --client "
                    + "rocketmq or a smaller size", null);
            }
            g.awaitRoutes();
            g.connectAll();
            return g;
        } catch (LoadGenerator.PrepareException e) {
            g.shutdown();
            throw e;
        } catch (RuntimeException e) {
            g.shutdown();
            throw new LoadGenerator.PrepareException("could not prepare the wire client: " + e, e);
        }
    }

    private void createProducers() {
        // The same bodies the rocketmq client mode sends: the payload file's, OMB's randomized pool, or random bytes.
        List<byte[]> payloads = bodies.all();
        String group = "rmqpatch-bench-" + (request.runId == null ? "run" : request.runId);
        UniqueKeys keys = new UniqueKeys();
        List<PrepareRequest.Target> specs = request.targets != null ? request.targets
            : List.of(new PrepareRequest.Target(request.namesrv, request.topics));
        for (PrepareRequest.Target spec : specs) {
            Target target = new Target(spec);
            targets.add(target);
            for (String topic : spec.topics) {
                for (int p = 0; p < request.producersPerTopic; p++) {
                    MessageSpec m = new MessageSpec(group, topic, request.tags, request.keys, keySet != null, request.userProperties,
                        payloads, mode == SendMode.ONEWAY);
                    target.producers.add(new WireProducer(m, keys, connections));
                }
            }
        }
    }

    private void awaitRoutes() throws LoadGenerator.PrepareException {
        long deadline = System.currentTimeMillis() + request.routeWaitMs;
        for (Target target : targets) {
            for (String topic : target.spec.topics) {
                String last;
                while (true) {
                    try {
                        List<TopicRoutes.Queue> queues = target.routes.queues(topic, 3000);
                        if (!queues.isEmpty() && (request.partitionsPerTopic <= 0 || queues.size() == request.partitionsPerTopic)) {
                            for (WireProducer p : target.producers) {
                                if (p.topic().equals(topic)) {
                                    p.route(queues);
                                }
                            }
                            break;
                        }
                        last = "route shows " + queues.size() + " write queues, expected " + request.partitionsPerTopic;
                    } catch (TopicRoutes.RouteException e) {
                        last = e.getMessage();
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new LoadGenerator.PrepareException("no usable route for topic " + topic + " from name server "
                            + target.spec.namesrv + " after " + request.routeWaitMs / 1000.0
                            + " s (is the broker up and registered, and the topic created?): " + last, null);
                    }
                    sleepQuietly(200);
                }
            }
        }
    }

    /** Connects every producer to every broker of its route now, so a broker that cannot be reached fails the prepare. */
    private void connectAll() throws LoadGenerator.PrepareException {
        for (Target target : targets) {
            for (WireProducer p : target.producers) {
                for (String broker : p.brokerAddresses()) {
                    ChannelFuture f = p.connection(broker).connect();
                    f.awaitUninterruptibly(request.sendTimeoutMs + 1000L);
                    if (!f.isSuccess()) {
                        throw new LoadGenerator.PrepareException("cannot connect to broker " + broker + " (route of topic "
                            + p.topic() + " from " + target.spec.namesrv + "): " + (f.cause() == null ? "timed out" : f.cause()), f.cause());
                    }
                }
            }
        }
    }

    @Override
    public synchronized void start(long delayMs) {
        long begin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, delayMs));
        phases.start(begin);
        route = request.targets != null ? new Route(LoadGenerator.PAUSE, null) : new Route(0, phases.limiter(request.ratePerSecond, begin));
        running = true;
        lastAckNanos = begin;
        long delay = Math.max(0, begin - System.nanoTime());
        for (Slot s : slots) {
            loops.next().schedule(() -> sendNext(s), delay, TimeUnit.NANOSECONDS);
        }
        watchdog = loops.next().scheduleAtFixedRate(this::watch, delay + 100_000_000L, 100_000_000L, TimeUnit.NANOSECONDS);
    }


    @Override
    public synchronized ProgressReport switchTarget(int index, double ratePerSecond) {
        LoadDriver.checkSwitch(index, targets.size(), ratePerSecond);
        route = new Route(index, index == LoadGenerator.PAUSE ? null : phases.limiter(ratePerSecond, System.nanoTime()));
        lastAckNanos = System.nanoTime();
        failuresSinceAck = 0;
        if (index != LoadGenerator.PAUSE) {
            for (Slot s : slots) {
                EventLoop loop = loops.next();
                loop.execute(() -> {
                    synchronized (s) {
                        if (!s.parked) {
                            return;
                        }
                        s.parked = false;
                    }
                    sendNext(s);
                });
            }
        }
        return progress();
    }

    @Override
    public int targetCount() {
        return targets.size();
    }

    /** The slot's next send: now, at its intended time, or parked while paused. Runs on an event loop. */
    private void sendNext(Slot s) {
        if (!running) {
            return;
        }
        Route r = route;
        if (r.target == LoadGenerator.PAUSE) {
            synchronized (s) {
                s.parked = true;
            }
            if (route != r) {
                // A switch came in between: make sure the slot is not left parked.
                synchronized (s) {
                    if (!s.parked) {
                        return;
                    }
                    s.parked = false;
                }
                sendNext(s);
            }
            return;
        }
        long intended = -1;
        if (r.limiter != null) {
            intended = r.limiter.next();
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                long at = intended;
                loops.next().schedule(() -> {
                    if (route != r) {
                        // Moved while waiting: the new target's schedule decides when this slot sends.
                        sendNext(s);
                    } else {
                        send(s, r, at);
                    }
                }, wait, TimeUnit.NANOSECONDS);
                return;
            }
        }
        send(s, r, intended);
    }

    private void send(Slot s, Route r, long intended) {
        if (!running) {
            return;
        }
        List<WireProducer> producers = targets.get(r.target).producers;
        WireProducer producer = producers.get(s.index % producers.size());
        TopicRoutes.Queue queue = producer.nextQueue();
        PhaseStats stats = phases.current();
        if (queue == null) {
            stats.onSent();
            fail(stats, "NoRoute", () -> "no writable queue in the route of " + producer.topic());
            requestRouteRefresh();
            retryLater(s);
            return;
        }
        WireConnection connection = producer.connection(queue.brokerAddr);
        Channel ch = connection.activeChannel();
        if (ch == null) {
            ChannelFuture f;
            try {
                f = connection.connect();
            } catch (RuntimeException e) {
                return;  // closed: the run is being stopped
            }
            f.addListener(done -> {
                if (done.isSuccess()) {
                    send(s, r, intended);
                } else {
                    PhaseStats st = phases.current();
                    st.onSent();
                    Throwable cause = done.cause();
                    fail(st, "ConnectFailed", () -> "cannot connect to broker " + queue.brokerAddr + ": " + cause);
                    requestRouteRefresh();
                    retryLater(s);
                }
            });
            return;
        }
        stats.onSent();
        int opaque = ((s.sequence++ << slotBits) | s.index) & Integer.MAX_VALUE;
        long bornMillis = System.currentTimeMillis();
        SendFrames frames = producer.frames();
        int body = bodies.nextIndex();
        byte[] key = s.keys == null ? null : keySet[s.keys.nextIndex()];
        int length = frames.frameLength(opaque, bornMillis, queue.queueId, body, key);
        ByteBuf frame = mode == SendMode.ONEWAY ? ch.alloc().directBuffer(length) : connection.beginFrame(ch, length);
        frames.write(frame, opaque, bornMillis, queue.queueId, body, key);
        if (acked != null) {
            s.stampInFlight = s.nextStamp++;
            frames.stampBody(frame, body, BodyStamp.stream(request.agentIndex, s.index), s.stampInFlight,
                BodyStamp.wallMicros() - request.clockOffsetMicros);
        }
        s.stats = stats;
        s.connection = connection;
        s.intendedNanos = intended;
        s.sentNanos = System.nanoTime();
        if (mode == SendMode.ONEWAY) {
            s.pending = opaque;
            ch.writeAndFlush(frame).addListener(done -> {
                if (s.claim(opaque)) {
                    if (done.isSuccess()) {
                        long now = System.nanoTime();
                        stats.onUnconfirmed(now - s.sentNanos, delay(s));
                    } else {
                        Throwable cause = done.cause();
                        fail(stats, "ConnectionLost", () -> "write to " + connection.address() + " failed: " + cause);
                    }
                    sendNext(s);
                }
            });
            return;
        }
        s.pending = opaque;
        connection.endFrame(ch, frame);
    }

    private static long delay(Slot s) {
        return s.intendedNanos < 0 ? -1 : Math.max(0, s.sentNanos - s.intendedNanos);
    }

    private void fail(PhaseStats stats, String key, java.util.function.Supplier<String> sample) {
        stats.onFailed(key, sample);
        failuresSinceAck++;
        lastError = key;
    }

    private void retryLater(Slot s) {
        if (running) {
            loops.next().schedule(() -> sendNext(s), RETRY_DELAY_NANOS, TimeUnit.NANOSECONDS);
        }
    }

    /** Answers and lost connections, on the connection's event loop. */
    private final class Answers implements WireConnection.Listener {
        @Override
        public void onFrame(WireConnection connection, ByteBuf frame, int length) {
            HeaderFields h = READERS.get();
            try {
                if (length < 4 || (frame.getInt(frame.readerIndex()) & 0xFFFFFF) > length - 4) {
                    // The reader sees the stream beyond this frame: a header longer than its frame must not read into the next.
                    throw new IllegalArgumentException("header length exceeds the frame of " + length + " bytes");
                }
                h.read(frame);
            } catch (RuntimeException e) {
                lastError = "BadResponse from " + connection.address() + ": " + e.getMessage();
                Channel ch = connection.activeChannel();
                if (ch != null) {
                    ch.close();
                }
                return;
            }
            if (!h.isResponse()) {
                // A request from the broker (it has no reason to send one to a producer that never sent a heartbeat).
                brokerRequests.incrementAndGet();
                return;
            }
            int index = h.opaque & slotMask;
            if (index >= slots.length || !slots[index].claim(h.opaque)) {
                // Answered after its timeout was counted, or not ours.
                lateAnswers.incrementAndGet();
                return;
            }
            Slot s = slots[index];
            long now = System.nanoTime();
            String status = ResponseCodes.sendStatus(h.code);
            if (status != null) {
                s.stats.onAcked(status, now - s.sentNanos, delay(s));
                if (acked != null) {
                    acked.add(BodyStamp.stream(request.agentIndex, s.index), s.stampInFlight);
                }
                lastAckNanos = now;
                if (failuresSinceAck != 0) {
                    failuresSinceAck = 0;
                }
            } else {
                String remark = ResponseCodes.remark(frame, length);
                int code = h.code;
                fail(s.stats, ResponseCodes.errorKey(code, remark), () -> "broker " + connection.address() + " answered code " + code + " "
                    + ResponseCodes.name(code) + ": " + remark);
                if (code == org.apache.rocketmq.common.protocol.ResponseCode.TOPIC_NOT_EXIST
                    || code == org.apache.rocketmq.common.protocol.ResponseCode.NO_PERMISSION) {
                    requestRouteRefresh();
                }
            }
            sendNext(s);
        }

        @Override
        public void onClosed(WireConnection connection, Throwable cause) {
            for (Slot s : slots) {
                int p = s.pending;
                if (p != IDLE && s.connection == connection && s.claim(p)) {
                    PhaseStats stats = s.stats;
                    fail(stats, "ConnectionLost", () -> "connection to broker " + connection.address() + " closed with the request in flight"
                        + (cause == null ? "" : ": " + cause));
                    retryLater(s);
                }
            }
            if (running) {
                requestRouteRefresh();
            }
        }
    }

    /** One header reader per event-loop thread: an Answers instance serves every connection, on every loop. */
    private static final ThreadLocal<HeaderFields> READERS = ThreadLocal.withInitial(HeaderFields::new);

    /** Every 100 ms: requests past their timeout fail; a run whose brokers stopped answering ends. */
    private void watch() {
        // Timeouts are counted after a stop too: stop() waits for every request in flight to end one way or the other.
        long now = System.nanoTime();
        for (Slot s : slots) {
            int p = s.pending;
            if (p != IDLE && now - s.sentNanos > timeoutNanos && s.claim(p)) {
                WireConnection c = s.connection;
                fail(s.stats, "Timeout", () -> "no answer from broker " + c.address() + " within " + request.sendTimeoutMs + " ms");
                sendNext(s);
            }
        }
        if (running && failure == null && route.target != LoadGenerator.PAUSE && failuresSinceAck > 0 && now - lastAckNanos > deadAfterNanos) {
            failure = String.format("no send was acknowledged for %.0f s while sends kept failing (last error: %s); the broker(s) of %s "
                    + "look gone, so the run ends here", (now - lastAckNanos) / 1e9, lastError, describeTargets());
            running = false;
        }
    }

    private String describeTargets() {
        List<String> all = new ArrayList<>();
        for (Target t : targets) {
            all.add("name server " + t.spec.namesrv);
        }
        return String.join(", ", all);
    }

    /** Fetches the routes again in the background, at most once a second (after errors, as the stock client does). */
    private void requestRouteRefresh() {
        long now = System.nanoTime();
        if (now - lastRefreshNanos < ROUTE_REFRESH_MIN_NANOS || !refreshQueued.compareAndSet(false, true)) {
            return;
        }
        lastRefreshNanos = now;
        try {
            routeRefresher.execute(() -> {
                try {
                    for (Target t : targets) {
                        for (String topic : t.spec.topics) {
                            try {
                                List<TopicRoutes.Queue> queues = t.routes.queues(topic, 3000);
                                for (WireProducer p : t.producers) {
                                    if (p.topic().equals(topic)) {
                                        p.route(queues);
                                    }
                                }
                            } catch (TopicRoutes.RouteException e) {
                                // Keep the old route: a name server that cannot answer now may answer at the next error.
                            }
                        }
                    }
                } finally {
                    refreshQueued.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            refreshQueued.set(false);
        }
    }

    @Override
    public synchronized void beginMeasurement() {
        phases.beginMeasurement();
    }

    @Override
    public ProgressReport progress() {
        return phases.progress();
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public synchronized AgentResult stop(String host, long pid) {
        long stopNanos = System.nanoTime();
        long stopCpu = SendPhases.processCpuNanos();
        running = false;
        // Sends run on the event loops only: once every loop has run a task queued after the flag, no send is between
        // counting itself sent and marking its slot pending, so the count of requests in flight below is exact.
        for (io.netty.util.concurrent.EventExecutor loop : loops) {
            loop.submit(() -> { }).awaitUninterruptibly(2000);
        }
        // Wait for the answers in flight (each slot has at most one), up to the send timeout and a margin.
        long deadline = System.currentTimeMillis() + request.sendTimeoutMs + 5_000L;
        long inFlight = pendingCount();
        while (inFlight > 0 && System.currentTimeMillis() < deadline) {
            sleepQuietly(10);
            inFlight = pendingCount();
        }
        AgentResult result = new AgentResult();
        result.host = host;
        result.pid = pid;
        result.mode = mode.label();
        result.client = "wire";
        result.threads = request.threads;
        result.ratePerSecond = request.ratePerSecond;
        phases.fill(result, stopNanos, stopCpu, inFlight);
        if (acked != null) {
            result.ackedSequences = acked.encode();
            // Slot i sends with producer i % producers (see send), so to that producer's topic; stamped runs have one target.
            List<WireProducer> producers = targets.get(0).producers;
            result.streamTopics = new java.util.TreeMap<>();
            for (int stream : acked.streams().keySet()) {
                int slot = stream - BodyStamp.stream(request.agentIndex, 0);
                result.streamTopics.put(Integer.toString(stream), producers.get(slot % producers.size()).topic());
            }
        }
        result.lateAnswers = lateAnswers.get();
        result.brokerRequests = brokerRequests.get();
        shutdown();
        return result;
    }

    @Override
    public long ackedSinceStart() {
        return phases.ackedSinceStart();
    }

    private static SendMode mode(PrepareRequest r) {
        return SendMode.parse(r.mode);
    }

    private long pendingCount() {
        long n = 0;
        for (Slot s : slots) {
            if (s.pending != IDLE) {
                n++;
            }
        }
        return n;
    }

    @Override
    public synchronized void abort() {
        running = false;
        shutdown();
    }

    private void shutdown() {
        running = false;
        if (watchdog != null) {
            watchdog.cancel(false);
        }
        for (Target t : targets) {
            for (WireProducer p : t.producers) {
                p.close();
            }
            t.routes.close();
        }
        routeRefresher.shutdownNow();
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }


    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
