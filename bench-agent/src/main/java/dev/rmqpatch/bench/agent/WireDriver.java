package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.agent.wire.ResponseCodes;
import dev.rmqpatch.bench.agent.wire.SendFrames;
import dev.rmqpatch.bench.agent.wire.TopicRoutes;
import dev.rmqpatch.bench.agent.wire.WireConnection;
import dev.rmqpatch.bench.agent.wire.WireProducer;
import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.wire.HeaderFields;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.SendMode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The wire client's driver ({@code --client wire}): SEND_MESSAGE_V2 requests written by the agent itself over netty,
 * each producer's frame pre-encoded once by stock code ({@link SendFrames}) with only opaque, born timestamp, unique
 * key and queue id written per message.
 *
 * <p>Senders are slots on the event loops, not threads: each has at most one request in flight, and the driver resumes
 * it ({@link LoadLoop#next}) on the loop that read its answer (or saw its failure), so the requests one socket read
 * released go out in one write. {@code threads} sync senders are {@code threads} slots, and async mode's window of
 * {@code maxOutstanding} is that many slots. Oneway slots send their next frame when the previous one was written to
 * the socket. Routing within a pair is the stock client's: the route from the name server at prepare (and again after
 * errors), queues round robin per producer, one connection per producer and broker address.
 *
 * <p>Every send ends in exactly one outcome of its phase: acknowledged (by the stock client's send statuses), failed by
 * kind (broker response code, {@code Timeout}, {@code ConnectionLost}, {@code ConnectFailed}, {@code NoRoute}),
 * unconfirmed (oneway), or in flight at stop. A run in which nothing was acknowledged for {@link #deadAfterNanos}
 * while sends kept failing ends with a failure naming the last error.
 */
final class WireDriver implements LoadDriver {
    private static final AtomicIntegerFieldUpdater<Slot> PENDING = AtomicIntegerFieldUpdater.newUpdater(Slot.class, "pending");
    private static final int IDLE = -1;
    private static final long RETRY_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** One header reader per event-loop thread: the driver's answer listener serves every connection, on every loop. */
    private static final ThreadLocal<HeaderFields> READERS = ThreadLocal.withInitial(HeaderFields::new);

    /** The request a sender has in flight on the wire. */
    static final class Slot {
        /** The loop's sender this slot is; set at start. */
        Sender sender;
        /** Opaque of the request in flight, or IDLE; claimed by CAS by the one path (answer, timeout, loss) that ends it. */
        volatile int pending = IDLE;
        int sequence;
        WireConnection connection;

        boolean claim(int opaque) {
            return opaque != IDLE && PENDING.compareAndSet(this, opaque, IDLE);
        }
    }

    private final PrepareRequest request;
    /** The bodies a message's is picked from (one, or OMB's randomized pool), as in the rocketmq client mode. */
    private final Bodies bodies;
    /** The agent's key set as header bytes, for a key distributor; null without one. */
    private final byte[][] keySet;
    private final SendMode mode;
    private final NioEventLoopGroup loops;
    private final WireConnection.Factory connections;
    /** The producers of every target and their routes; null until prepare created them. */
    private WireTargets targets;
    private final Slot[] slots;
    private final int slotMask;
    private final int slotBits;
    private final long timeoutNanos;
    private final long deadAfterNanos;
    private final AtomicLong lateAnswers = new AtomicLong();
    private final AtomicLong brokerRequests = new AtomicLong();

    private LoadLoop loop;
    private volatile String failure;
    private volatile long lastAckNanos;
    private volatile long failuresSinceAck;
    private volatile String lastError;
    private ScheduledFuture<?> watchdog;

    private WireDriver(String agentName, PrepareRequest request, Bodies bodies, byte[][] keySet) {
        this.request = request;
        this.bodies = bodies;
        this.keySet = keySet;
        this.mode = SendMode.parse(request.mode);
        int senders = senders(request);
        int bits = 1;
        while ((1 << bits) < senders) {
            bits++;
        }
        this.slotBits = bits;
        this.slotMask = (1 << bits) - 1;
        this.slots = new Slot[senders];
        for (int i = 0; i < senders; i++) {
            slots[i] = new Slot();
        }
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(request.sendTimeoutMs);
        this.deadAfterNanos = Math.max(TimeUnit.SECONDS.toNanos(10), 3 * timeoutNanos);
        int ioThreads = request.ioThreads > 0 ? request.ioThreads : 1;
        this.loops = new NioEventLoopGroup(ioThreads, new DefaultThreadFactory(agentName + "-wire", true));
        this.connections = new WireConnection.Factory(loops, new Answers(), Math.min(3000, request.sendTimeoutMs));
    }

    /** Slots: one per sync or oneway thread, or async mode's window. */
    private static int senders(PrepareRequest r) {
        return SendMode.parse(r.mode) == SendMode.ASYNC ? Math.max(1, r.maxOutstanding) : r.threads;
    }

    /** Encodes every producer's frames, fetches the routes and connects to every broker; throws with the cause. */
    static WireDriver prepare(String agentName, PrepareRequest request, Bodies bodies) throws PrepareException {
        if (request.threads > (1 << 20) || request.maxOutstanding > (1 << 20)) {
            throw new PrepareException("the wire client supports at most 1,048,576 senders per agent", null);
        }
        if (request.stampBodies && senders(request) > BodyStamp.STREAMS_PER_AGENT) {
            throw new PrepareException("stamped runs (with consumers) take at most " + BodyStamp.STREAMS_PER_AGENT
                + " senders per agent in the wire client", null);
        }
        byte[][] keySet = null;
        if (MessageKeys.kind(request.keyDistributor) != KeyDistributor.NO_KEY) {
            // The key set the loop's distributors index into, as header bytes.
            String[] keys = MessageKeys.keySet(request.agentIndex);
            keySet = new byte[keys.length][];
            for (int i = 0; i < keys.length; i++) {
                try {
                    keySet[i] = SendFrames.keyBytes(keys[i]);
                } catch (IllegalArgumentException e) {
                    throw new PrepareException(e.getMessage(), null);
                }
            }
        }
        WireDriver d = new WireDriver(agentName, request, bodies, keySet);
        try {
            // The same bodies the rocketmq client mode sends: the payload file's, OMB's randomized pool, or random bytes.
            d.targets = new WireTargets(request, bodies.all(), keySet != null, d.mode == SendMode.ONEWAY, d.connections);
            if (request.stampBodies && d.targets.bodyCompressed()) {
                throw new PrepareException("messageSize " + request.messageSize + " is compressed on the wire (4 KiB and "
                    + "more, as the stock client does), so the wire client cannot stamp its bodies for the consumers; use --client "
                    + "rocketmq or a smaller size", null);
            }
            d.targets.awaitRoutes();
            d.targets.connectAll();
            return d;
        } catch (PrepareException e) {
            d.close();
            throw e;
        } catch (RuntimeException e) {
            d.close();
            throw new PrepareException("could not prepare the wire client: " + e, e);
        }
    }

    @Override
    public int senders() {
        return slots.length;
    }

    @Override
    public ScheduledExecutorService eventLoops() {
        return loops;
    }

    @Override
    public synchronized void start(LoadLoop loop, Sender[] senders, long beginNanos) {
        this.loop = loop;
        for (int i = 0; i < slots.length; i++) {
            slots[i].sender = senders[i];
        }
        lastAckNanos = beginNanos;
        long delay = Math.max(0, beginNanos - System.nanoTime());
        watchdog = loops.next().scheduleAtFixedRate(this::watch, delay + 100_000_000L, 100_000_000L, TimeUnit.NANOSECONDS);
    }

    @Override
    public void switched() {
        lastAckNanos = System.nanoTime();
        failuresSinceAck = 0;
    }

    /** Writes sender {@code s}'s next request, or connects first; runs on an event loop. */
    @Override
    public boolean send(Sender s) {
        WireProducer producer = targets.producer(s.target, s.pair);
        TopicRoutes.Queue queue = producer.nextQueue();
        if (queue == null) {
            loop.sent(s);
            fail(s, "NoRoute", () -> "no writable queue in the route of " + producer.topic());
            targets.refresh();
            loop.nextAfter(s, RETRY_DELAY_NANOS);
            return false;
        }
        WireConnection connection = producer.connection(queue.brokerAddr);
        Channel ch = connection.activeChannel();
        if (ch == null) {
            connectThenSend(s, connection);
            return false;
        }
        loop.sent(s);
        Slot slot = slots[s.index];
        int opaque = ((slot.sequence++ << slotBits) | s.index) & Integer.MAX_VALUE;
        long bornMillis = System.currentTimeMillis();
        SendFrames frames = producer.frames();
        int body = bodies.nextIndex();
        byte[] key = s.keys == null ? null : keySet[s.keys.nextIndex()];
        int length = frames.frameLength(opaque, bornMillis, queue.queueId, body, key);
        ByteBuf frame = mode == SendMode.ONEWAY ? ch.alloc().directBuffer(length) : connection.beginFrame(ch, length);
        frames.write(frame, opaque, bornMillis, queue.queueId, body, key);
        if (loop.stamped()) {
            loop.stamp(s);
            frames.stampBody(frame, body, s.stream, s.sequence, loop.stampMicros());
        }
        slot.connection = connection;
        s.sentNanos = System.nanoTime();
        slot.pending = opaque;
        if (mode == SendMode.ONEWAY) {
            ch.writeAndFlush(frame).addListener(done -> {
                if (slot.claim(opaque)) {
                    if (done.isSuccess()) {
                        loop.unconfirmed(s, System.nanoTime());
                    } else {
                        Throwable cause = done.cause();
                        fail(s, "ConnectionLost", () -> "write to " + connection.address() + " failed: " + cause);
                    }
                    loop.next(s);
                }
            });
            return false;
        }
        connection.endFrame(ch, frame);
        return false;
    }

    /** The sender's connection is down: connects, then sends the same message (same target, pair and schedule). */
    private void connectThenSend(Sender s, WireConnection connection) {
        ChannelFuture f;
        try {
            f = connection.connect();
        } catch (RuntimeException e) {
            return;  // closed: the run is being stopped
        }
        f.addListener(done -> {
            if (done.isSuccess()) {
                if (loop.running()) {
                    send(s);
                }
            } else {
                loop.sent(s);
                Throwable cause = done.cause();
                fail(s, "ConnectFailed", () -> "cannot connect to broker " + connection.address() + ": " + cause);
                targets.refresh();
                loop.nextAfter(s, RETRY_DELAY_NANOS);
            }
        });
    }

    private void fail(Send s, String kind, Supplier<String> sample) {
        loop.failed(s, kind, sample);
        failuresSinceAck++;
        lastError = kind;
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
            Sender s = slots[index].sender;
            long now = System.nanoTime();
            String status = ResponseCodes.sendStatus(h.code);
            if (status != null) {
                loop.acked(s, status, now);
                lastAckNanos = now;
                if (failuresSinceAck != 0) {
                    failuresSinceAck = 0;
                }
            } else {
                String remark = ResponseCodes.remark(frame, length);
                int code = h.code;
                fail(s, ResponseCodes.errorKey(code, remark), () -> "broker " + connection.address() + " answered code " + code + " "
                    + ResponseCodes.name(code) + ": " + remark);
                if (code == org.apache.rocketmq.common.protocol.ResponseCode.TOPIC_NOT_EXIST
                    || code == org.apache.rocketmq.common.protocol.ResponseCode.NO_PERMISSION) {
                    targets.refresh();
                }
            }
            loop.next(s);
        }

        @Override
        public void onClosed(WireConnection connection, Throwable cause) {
            for (Slot slot : slots) {
                int p = slot.pending;
                if (p != IDLE && slot.connection == connection && slot.claim(p)) {
                    fail(slot.sender, "ConnectionLost", () -> "connection to broker " + connection.address()
                        + " closed with the request in flight" + (cause == null ? "" : ": " + cause));
                    loop.nextAfter(slot.sender, RETRY_DELAY_NANOS);
                }
            }
            if (loop != null && loop.running()) {
                targets.refresh();
            }
        }
    }

    /** Every 100 ms: requests past their timeout fail; a run whose brokers stopped answering ends. */
    private void watch() {
        // Timeouts are counted after a stop too: stop waits for every request in flight to end one way or the other.
        long now = System.nanoTime();
        for (Slot slot : slots) {
            int p = slot.pending;
            if (p != IDLE && now - slot.sender.sentNanos > timeoutNanos && slot.claim(p)) {
                WireConnection c = slot.connection;
                fail(slot.sender, "Timeout", () -> "no answer from broker " + c.address() + " within " + request.sendTimeoutMs + " ms");
                loop.next(slot.sender);
            }
        }
        if (loop.running() && failure == null && !loop.paused() && failuresSinceAck > 0 && now - lastAckNanos > deadAfterNanos) {
            failure = String.format("no send was acknowledged for %.0f s while sends kept failing (last error: %s); the broker(s) of %s "
                    + "look gone, so the run ends here", (now - lastAckNanos) / 1e9, lastError, targets.describe());
            loop.halt();
        }
    }

    /**
     * Sends run on the event loops only: once every loop has run a task queued after the loop's stop, no send is between
     * counting itself sent and marking its slot pending, so the count of requests in flight is exact. Then waits for
     * the answers (each slot has at most one), up to the deadline. The path that ends a request (answer, timeout, lost
     * connection, all on the loops) frees its slot first and counts the outcome after, so once no slot is pending one
     * more task on every loop lets an outcome whose slot was just freed be counted before the caller reads the counts
     * (without it, a CI run once read counts that did not add up).
     */
    @Override
    public long drain(long deadlineMs) {
        awaitLoops();
        long inFlight = pendingCount();
        while (inFlight > 0 && System.currentTimeMillis() < deadlineMs) {
            sleepQuietly(10);
            inFlight = pendingCount();
        }
        awaitLoops();
        return inFlight;
    }

    /** Runs an empty task on every event loop and waits for it (2 s at most each): what a loop was doing has finished. */
    private void awaitLoops() {
        for (EventExecutor loop : loops) {
            loop.submit(() -> { }).awaitUninterruptibly(2000);
        }
    }

    private long pendingCount() {
        long n = 0;
        for (Slot slot : slots) {
            if (slot.pending != IDLE) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void describe(AgentResult result) {
        result.client = "wire";
        result.lateAnswers = lateAnswers.get();
        result.brokerRequests = brokerRequests.get();
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public synchronized void close() {
        if (watchdog != null) {
            watchdog.cancel(false);
        }
        if (targets != null) {
            targets.close();
        }
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
