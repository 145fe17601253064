package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.delivery.StreamSets;
import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.SendMode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent's one load loop, whatever client sends (OpenMessaging Benchmark's worker to the {@link LoadDriver}s): its
 * senders, each a closed loop that picks the route (target, pair), waits for its rate schedule, and has the driver
 * send; switching between targets and rates and pausing; the phases and their counts; stamps; stop.
 *
 * <p>Senders run as the driver needs: threads of their own that may block in a send (the stock client), or slots on
 * the driver's event loops that the driver resumes when an answer arrives (the wire client: the next request then
 * goes out from the loop that read the answer, in the same write). Either way the same loop decides what a sender
 * does next; only waiting differs (a thread sleeps, a slot is scheduled or parked).
 *
 * <p>With several targets (clusters) the driver prepares all of them, and the senders send to one target at a time;
 * {@link #switchTarget} moves them, so the same warm JVM, senders and connections load each cluster in turn.
 */
final class LoadLoop {
    /** Target index of a pause: the senders wait instead of sending. */
    static final int PAUSE = -1;

    /** Where the senders send now and on which schedule; replaced as a whole, so a sender never mixes two. */
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
    private final SendMode mode;
    private final LoadDriver driver;
    /** The driver's event loops, or null when each sender is a thread. */
    private final ScheduledExecutorService loops;
    private final List<PrepareRequest.Target> targets;
    /** Pairs (topic, producer) of each target. */
    private final int[] pairs;
    private final Sender[] senders;
    private final List<Thread> threads = new ArrayList<>();
    private final SendPhases phases = new SendPhases();
    /** Stamped runs: every acknowledged (stream, sequence) of the run, for the count check; null otherwise. */
    private final StreamSets acked;
    /** Stamped runs: the next sequence of each stream slot (only its one sender touches a slot). */
    private final long[] nextSequence;
    private final Object routeChanged = new Object();

    private volatile Route route;
    private volatile boolean running;
    private volatile Throwable crash;

    LoadLoop(String agentName, PrepareRequest request, LoadDriver driver) {
        this.agentName = agentName;
        this.request = request;
        this.mode = SendMode.parse(request.mode);
        this.driver = driver;
        this.loops = driver.eventLoops();
        this.targets = Pairs.targets(request);
        this.pairs = new int[targets.size()];
        int slots = 0;
        this.senders = new Sender[driver.senders()];
        for (int t = 0; t < pairs.length; t++) {
            pairs[t] = Pairs.count(targets.get(t), request.producersPerTopic);
            slots = Math.max(slots, Pairs.streamSlots(pairs[t], senders.length));
        }
        KeyDistributor keyKind = MessageKeys.kind(request.keyDistributor);
        String[] keySet = keyKind == KeyDistributor.NO_KEY ? null : MessageKeys.keySet(request.agentIndex);
        for (int i = 0; i < senders.length; i++) {
            // One distributor per sender, as OMB has one per producer.
            senders[i] = new Sender(i, keySet == null ? null : MessageKeys.of(keyKind, keySet));
        }
        this.acked = request.stampBodies ? new StreamSets() : null;
        this.nextSequence = request.stampBodies ? new long[slots] : null;
    }

    /** Checks the request, prepares its client's driver (producers started, routes there) and the loop over it. */
    static LoadLoop prepare(String agentName, PrepareRequest request) throws PrepareException {
        ClientMode client = ClientMode.parse(request.client);
        validate(request);
        Bodies bodies = Bodies.of(request);
        LoadDriver driver = client == ClientMode.WIRE
            ? WireDriver.prepare(agentName, request, bodies) : RocketMqDriver.prepare(agentName, request, bodies);
        return new LoadLoop(agentName, request, driver);
    }

    static void validate(PrepareRequest r) throws PrepareException {
        Bodies.of(r);
        if (r.targets != null && r.targets.isEmpty()) {
            throw new PrepareException("prepare request with an empty list of targets", null);
        }
        for (PrepareRequest.Target t : Pairs.targets(r)) {
            if (t == null || t.namesrv == null || Jdk8.isBlank(t.namesrv)) {
                throw new PrepareException("prepare request without namesrv", null);
            }
            if (t.topics == null || t.topics.isEmpty()) {
                throw new PrepareException("prepare request without topics", null);
            }
        }
        if (r.threads < 1 || r.messageSize < 1 || r.producersPerTopic < 1 || r.sendTimeoutMs < 1) {
            throw new PrepareException("threads, messageSize, producersPerTopic and sendTimeoutMs must be positive", null);
        }
        if (r.stampBodies && r.messageSize < BodyStamp.LENGTH) {
            throw new PrepareException("messageSize " + r.messageSize + " is too small for the " + BodyStamp.LENGTH
                + "-byte stamp that end-to-end latency and the count check need (runs with consumers)", null);
        }
        if (r.stampBodies && (Pairs.streamSlots(Pairs.ofFirstTarget(r), r.threads) > BodyStamp.STREAMS_PER_AGENT || r.agentIndex < 0)) {
            throw new PrepareException("stamped runs take at most " + BodyStamp.STREAMS_PER_AGENT + " threads, and topics x "
                + "producersPerTopic, per agent and an agent index of 0 or more", null);
        }
        try {
            SendMode.parse(r.mode);
            MessageKeys.kind(r.keyDistributor);
        } catch (IllegalArgumentException e) {
            throw new PrepareException(e.getMessage(), null);
        }
    }

    /** Begins sending (warm-up phase) after the delay. */
    synchronized void start(long delayMs) {
        long begin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, delayMs));
        phases.start(begin);
        // With several targets nothing is sent until the coordinator picks one: the first window then starts with
        // the first switch, not with the start request.
        route = request.targets != null ? new Route(PAUSE, null) : new Route(0, phases.limiter(request.ratePerSecond, begin));
        running = true;
        driver.start(this, senders, begin);
        if (loops != null) {
            long delay = Math.max(0, begin - System.nanoTime());
            for (Sender s : senders) {
                loops.schedule(() -> next(s), delay, TimeUnit.NANOSECONDS);
            }
            return;
        }
        for (Sender s : senders) {
            Thread t = new Thread(() -> {
                try {
                    long wait = begin - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                next(s);
            }, agentName + "-sender-" + s.index);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    /**
     * Sends to target {@code index} from now on ({@link #PAUSE}: to none), at {@code ratePerSecond} (0 = unlimited) on a
     * schedule that starts now, and returns the progress interval that ends here. A fresh schedule keeps a window that
     * fell behind from pushing its backlog into the next target's window.
     */
    synchronized ProgressReport switchTarget(int index, double ratePerSecond) {
        checkSwitch(index, targets.size(), ratePerSecond);
        route = new Route(index, index == PAUSE ? null : phases.limiter(ratePerSecond, System.nanoTime()));
        driver.switched();
        if (loops == null) {
            synchronized (routeChanged) {
                routeChanged.notifyAll();
            }
        } else if (index != PAUSE) {
            for (Sender s : senders) {
                loops.execute(() -> {
                    synchronized (s) {
                        if (!s.parked) {
                            return;
                        }
                        s.parked = false;
                    }
                    next(s);
                });
            }
        }
        return progress();
    }

    /** The arguments of {@link #switchTarget}, checked against {@code targets} prepared targets. */
    static void checkSwitch(int index, int targets, double ratePerSecond) {
        if (index != PAUSE && (index < 0 || index >= targets)) {
            throw new IllegalArgumentException("target " + index + " does not exist; prepared targets: 0.." + (targets - 1)
                + ", or " + PAUSE + " to pause");
        }
        if (ratePerSecond < 0 || Double.isNaN(ratePerSecond) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be 0 (unlimited) or a positive number of msg/s, not " + ratePerSecond);
        }
    }

    /**
     * Runs sender {@code s} from its next message on: on its thread until the run stops; on an event loop until it has
     * to wait (an answer, its intended time, a switch). Drivers call it once they reported the outcome they were waiting for.
     */
    void next(Sender s) {
        drive(s, null, -1);
    }

    /** Runs {@code s}; {@code granted} is a route whose permit for {@code grantedNanos} it already has, or null. */
    private void drive(Sender s, Route granted, long grantedNanos) {
        try {
            run(s, granted, grantedNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            crash = t;
            running = false;
        }
    }

    /** Runs event-loop sender {@code s} again after {@code delayNanos} (a driver retrying after an error), unless the run stopped. */
    void nextAfter(Sender s, long delayNanos) {
        if (running) {
            loops.schedule(() -> next(s), delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * The sender's loop: pick the route (or wait out a pause), take the next intended time of its schedule and wait for
     * it, pick the pair, send.
     */
    private void run(Sender s, Route granted, long grantedNanos) throws InterruptedException {
        Route r = granted;
        long intended = grantedNanos;
        while (running) {
            if (r == null || r != route) {
                r = route;
                if (r.target == PAUSE) {
                    if (pause(s, r)) {
                        return;
                    }
                    r = null;
                    continue;
                }
                intended = -1;
                if (r.limiter != null) {
                    intended = r.limiter.next();
                    long wait = intended - System.nanoTime();
                    Route waitedFor = r;
                    if (loops != null) {
                        if (wait > 0) {
                            // At its time it sends with this permit, or from scratch if a switch moved the route meanwhile.
                            long at = intended;
                            loops.schedule(() -> drive(s, waitedFor, at), wait, TimeUnit.NANOSECONDS);
                            return;
                        }
                    } else {
                        if (wait > 0) {
                            r.limiter.await(intended, () -> running && route == waitedFor);
                        }
                        if (route != r) {
                            // Moved while waiting: the new target's schedule decides when this sender sends.
                            r = null;
                            continue;
                        }
                    }
                }
            }
            if (!running) {
                return;
            }
            int target = r.target;
            int n = pairs[target];
            int k = Pairs.pairOf(s.index, s.turn++, n, senders.length);
            s.target = target;
            s.pair = k;
            s.streamSlot = Pairs.streamSlot(s.index, k, n, senders.length);
            s.intendedNanos = intended;
            r = null;
            if (!driver.send(s)) {
                return;
            }
        }
    }

    /** Waits out a pause; true when the sender is parked (event loops) and the next switch resumes it. */
    private boolean pause(Sender s, Route paused) throws InterruptedException {
        if (loops == null) {
            synchronized (routeChanged) {
                if (route == paused && running) {
                    // Bounded, so a stop (which does not notify) is seen promptly.
                    routeChanged.wait(100);
                }
            }
            return false;
        }
        synchronized (s) {
            s.parked = true;
        }
        if (route != paused) {
            // A switch came in between: make sure the sender is not left parked.
            synchronized (s) {
                if (!s.parked) {
                    return true;
                }
                s.parked = false;
            }
            return false;
        }
        return true;
    }

    /** Charges the send {@code s} is about to make to the current phase. */
    void sent(Send s) {
        PhaseStats stats = phases.current();
        s.stats = stats;
        stats.onSent();
    }

    /** The broker acknowledged {@code s} with {@code status} at {@code nowNanos}. */
    void acked(Send s, String status, long nowNanos) {
        s.stats.onAcked(status, nowNanos - s.sentNanos, delay(s));
        if (acked != null) {
            acked.add(s.stream, s.sequence);
        }
    }

    /** {@code s} went out without an answer to wait for (oneway), its call ending at {@code nowNanos}. */
    void unconfirmed(Send s, long nowNanos) {
        s.stats.onUnconfirmed(nowNanos - s.sentNanos, delay(s));
    }

    void failed(Send s, Throwable error) {
        s.stats.onFailed(error);
    }

    /** {@code s} failed in a way the driver classified ({@code kind}); {@code sample} describes the first of its kind. */
    void failed(Send s, String kind, Supplier<String> sample) {
        s.stats.onFailed(kind, sample);
    }

    private static long delay(Send s) {
        return s.intendedNanos < 0 ? -1 : Math.max(0, s.sentNanos - s.intendedNanos);
    }

    /** Whether bodies carry stamps (runs with consumers): the driver then calls {@link #stamp} for each body it writes. */
    boolean stamped() {
        return acked != null;
    }

    /** Gives the message sender {@code s} is sending its stamp's stream and next sequence. */
    void stamp(Sender s) {
        s.stream = BodyStamp.stream(request.agentIndex, s.streamSlot);
        s.sequence = nextSequence[s.streamSlot]++;
    }

    /** The stamp's send time: this agent's wall clock corrected by its offset to the coordinator's. */
    long stampMicros() {
        return BodyStamp.wallMicros() - request.clockOffsetMicros;
    }

    boolean running() {
        return running;
    }

    /** Whether the load is paused (or not started). */
    boolean paused() {
        Route r = route;
        return r == null || r.target == PAUSE;
    }

    /** Stops the senders for good: the driver found that the run cannot go on ({@link LoadDriver#failure}). */
    void halt() {
        running = false;
    }

    /** Starts the measurement window: from now on sends are charged to a fresh phase. */
    synchronized void beginMeasurement() {
        phases.beginMeasurement();
    }

    ProgressReport progress() {
        return phases.progress();
    }

    /** Sends acknowledged since start, all phases (with the consumers' receipts: the coordinator's view of the lag). */
    long ackedSinceStart() {
        return phases.ackedSinceStart();
    }

    /** Why the run cannot go on (crashed sender, brokers gone), or null. */
    String failure() {
        Throwable t = crash;
        return t != null ? "a sender thread crashed: " + t : driver.failure();
    }

    /** Stops sending, waits for the answers in flight, and reports the measurement window. */
    synchronized AgentResult stop(String host, long pid) {
        long stopNanos = System.nanoTime();
        long stopCpu = SendPhases.processCpuNanos();
        running = false;
        long deadline = System.currentTimeMillis() + request.sendTimeoutMs + 5_000L;
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        long inFlight = driver.drain(deadline);
        AgentResult result = new AgentResult();
        result.host = host;
        result.pid = pid;
        result.mode = mode.label();
        result.threads = request.threads;
        result.ratePerSecond = request.ratePerSecond;
        phases.fill(result, stopNanos, stopCpu, inFlight);
        driver.describe(result);
        if (acked != null) {
            result.ackedSequences = acked.encode();
            // Each stream slot sends to one pair's topic (see Pairs); stamped runs have one target.
            PrepareRequest.Target target = targets.get(0);
            result.streamTopics = new TreeMap<>();
            for (int slot = 0; slot < Pairs.streamSlots(pairs[0], senders.length); slot++) {
                String topic = Pairs.topic(target, Pairs.pairOfSlot(slot, pairs[0], senders.length), request.producersPerTopic);
                result.streamTopics.put(Integer.toString(BodyStamp.stream(request.agentIndex, slot)), topic);
            }
        }
        driver.close();
        return result;
    }

    /** Stops everything without a report (agent shutdown, failed run). */
    synchronized void abort() {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
        driver.close();
    }
}
