package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.delivery.StreamSets;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.SendMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Drives stock RocketMQ producers from N threads. One {@link DefaultMQProducer} per topic and producersPerTopic (a
 * "pair"), shared round-robin by the threads (as RocketMQ's own benchmark and OpenMessaging Benchmark's driver do); each
 * producer gets its own instance name, hence its own connections. Above {@link #MAX_CLIENT_INSTANCES} pairs (OMB's files
 * with 100 topics and more) the pairs share that many producers round robin, as OMB's RocketMQ driver shares one
 * producer for every topic of a worker; with more pairs than threads, each thread sends to its own share of the pairs
 * in turn (pairs t, t + threads, ...), so every topic gets messages.
 *
 * <p>With several targets (clusters) the producers of all of them are started and kept, and the threads send to one
 * target at a time; {@link #switchTarget} moves them, so the same warm JVM, threads and connections load each
 * cluster in turn.
 */
final class LoadGenerator implements LoadDriver {
    private final String agentName;
    private final PrepareRequest request;
    private final SendMode mode;
    private final List<PrepareRequest.Target> targetSpecs;
    private final List<TargetProducers> targets = new ArrayList<>();
    private final Bodies bodies;
    /** One key source per sender thread (OMB: one distributor per producer); null entries never used when NO_KEY. */
    private MessageKeys[] messageKeys;
    private final Semaphore outstanding;
    private final List<Thread> threads = new ArrayList<>();
    private final SendPhases phases = new SendPhases();
    /** Stamped runs: every acknowledged (stream, sequence) of the run, for the count check; null otherwise. */
    private final StreamSets acked;
    /** Stamped runs: the next sequence of each sender thread (each thread is its own stream). */
    private long[] nextSequence;

    /** The producers of one target, index-aligned with their topics. */
    private static final class TargetProducers {
        final List<DefaultMQProducer> producers = new ArrayList<>();
        final List<String> topics = new ArrayList<>();
    }

    /**
     * Most producer client instances (MQClientInstance: its own connections, netty and scheduler threads) per target.
     * More pairs than this share these producers round robin; a DefaultMQProducer sends to any topic.
     */
    static final int MAX_CLIENT_INSTANCES = 64;

    /** Target index of a pause: the threads wait instead of sending. */
    static final int PAUSE = -1;

    /** Where the threads send now and on which schedule; replaced as a whole, so a thread never mixes two. */
    private static final class Route {
        final int target;
        final UniformRateLimiter limiter;

        Route(int target, UniformRateLimiter limiter) {
            this.target = target;
            this.limiter = limiter;
        }
    }

    private volatile Route route;
    private final Object routeChanged = new Object();
    private volatile boolean running;
    private volatile Throwable threadCrash;

    private LoadGenerator(String agentName, PrepareRequest request) {
        this.agentName = agentName;
        this.request = request;
        this.mode = SendMode.parse(request.mode);
        this.targetSpecs = request.targets != null ? request.targets : List.of(new PrepareRequest.Target(request.namesrv, request.topics));
        this.bodies = bodiesOf(request);
        this.outstanding = mode == SendMode.ASYNC ? new Semaphore(Math.max(1, request.maxOutstanding)) : null;
        this.acked = request.stampBodies ? new StreamSets() : null;
    }

    /** Starts the producers and checks that every topic is routable with the expected queues; throws with the cause. */
    static LoadGenerator prepare(String agentName, PrepareRequest request) throws PrepareException {
        validate(request);
        LoadGenerator generator = new LoadGenerator(agentName, request);
        try {
            generator.startProducers();
            generator.awaitRoutes();
            return generator;
        } catch (PrepareException e) {
            generator.shutdownProducers();
            throw e;
        } catch (RuntimeException e) {
            generator.shutdownProducers();
            throw new PrepareException("could not start producers against name server(s) " + generator.namesrvs() + ": " + e, e);
        }
    }

    private static Bodies bodiesOf(PrepareRequest request) {
        try {
            return Bodies.of(request);
        } catch (PrepareException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Topic and producer pairs of the (first) target: topics x producersPerTopic. */
    private static int pairsOf(PrepareRequest r) {
        List<String> topics = r.targets != null && !r.targets.isEmpty() ? r.targets.get(0).topics : r.topics;
        return (topics == null ? 0 : topics.size()) * Math.max(1, r.producersPerTopic);
    }

    static void validate(PrepareRequest r) throws PrepareException {
        Bodies.of(r);
        if (r.targets != null && r.targets.isEmpty()) {
            throw new PrepareException("prepare request with an empty list of targets", null);
        }
        for (PrepareRequest.Target t : r.targets != null ? r.targets : List.of(new PrepareRequest.Target(r.namesrv, r.topics))) {
            if (t == null || t.namesrv == null || t.namesrv.isBlank()) {
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
        if (r.stampBodies && (streamSlots(pairsOf(r), r.threads) > BodyStamp.STREAMS_PER_AGENT || r.agentIndex < 0)) {
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

    private String namesrvs() {
        List<String> all = new ArrayList<>();
        for (PrepareRequest.Target t : targetSpecs) {
            all.add(t.namesrv);
        }
        return String.join(", ", all);
    }

    private void startProducers() throws PrepareException {
        String group = "rmqpatch-bench-" + (request.runId == null ? "run" : request.runId);
        for (int t = 0; t < targetSpecs.size(); t++) {
            PrepareRequest.Target spec = targetSpecs.get(t);
            TargetProducers target = new TargetProducers();
            targets.add(target);
            int pair = 0;
            for (String topic : spec.topics) {
                for (int p = 0; p < request.producersPerTopic; p++, pair++) {
                    if (pair >= MAX_CLIENT_INSTANCES) {
                        target.producers.add(target.producers.get(pair % MAX_CLIENT_INSTANCES));
                        target.topics.add(topic);
                        continue;
                    }
                    DefaultMQProducer producer = new DefaultMQProducer(group);
                    producer.setNamesrvAddr(spec.namesrv);
                    // The target index keeps instances (and so connections) of different clusters apart.
                    producer.setInstanceName(agentName + "-" + ProcessHandle.current().pid() + "-t" + t + "-" + topic + "-" + p);
                    producer.setSendMsgTimeout(request.sendTimeoutMs);
                    producer.setVipChannelEnabled(false);
                    try {
                        producer.start();
                    } catch (MQClientException e) {
                        throw new PrepareException("producer for topic " + topic + " did not start: " + e.getErrorMessage(), e);
                    }
                    target.producers.add(producer);
                    target.topics.add(topic);
                }
            }
        }
    }

    private void awaitRoutes() throws PrepareException {
        for (int t = 0; t < targetSpecs.size(); t++) {
            awaitRoutes(targetSpecs.get(t), targets.get(t));
        }
    }

    /** Each topic gets routeWaitMs to show its queues (a run with 1,000 topics would not fit them all into one wait). */
    private void awaitRoutes(PrepareRequest.Target spec, TargetProducers target) throws PrepareException {
        for (int i = 0; i < spec.topics.size(); i++) {
            String topic = spec.topics.get(i);
            long deadline = System.currentTimeMillis() + request.routeWaitMs;
            DefaultMQProducer producer = target.producers.get(i * request.producersPerTopic);
            String last = "no answer";
            while (true) {
                try {
                    List<MessageQueue> queues = producer.fetchPublishMessageQueues(topic);
                    if (request.partitionsPerTopic <= 0 || queues.size() == request.partitionsPerTopic) {
                        break;
                    }
                    last = "route shows " + queues.size() + " write queues, expected " + request.partitionsPerTopic;
                } catch (MQClientException e) {
                    last = e.getErrorMessage() == null ? String.valueOf(e) : e.getErrorMessage();
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new PrepareException("no usable route for topic " + topic + " from name server " + spec.namesrv
                        + " after " + request.routeWaitMs / 1000.0 + " s (is the broker up and registered, and the topic created?): "
                        + firstLine(last), null);
                }
                sleepQuietly(200);
            }
        }
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }

    /** Begins sending (warm-up phase) after the delay. */
    @Override
    public synchronized void start(long delayMs) {
        long begin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, delayMs));
        phases.start(begin);
        // With several targets nothing is sent until the coordinator picks one: the first window then starts with
        // the first switch, not with the start request.
        route = request.targets != null ? new Route(PAUSE, null) : new Route(0, phases.limiter(request.ratePerSecond, begin));
        running = true;
        nextSequence = new long[streamSlots(targets.get(0).producers.size(), request.threads)];
        messageKeys = new MessageKeys[request.threads];
        String[] keySet = MessageKeys.kind(request.keyDistributor) == KeyDistributor.NO_KEY ? null : MessageKeys.keySet(request.agentIndex);
        for (int t = 0; t < request.threads; t++) {
            messageKeys[t] = MessageKeys.of(MessageKeys.kind(request.keyDistributor), keySet);
        }
        for (int i = 0; i < request.threads; i++) {
            int index = i;
            Thread t = new Thread(() -> runThread(index, begin), agentName + "-sender-" + i);
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
    @Override
    public synchronized ProgressReport switchTarget(int index, double ratePerSecond) {
        LoadDriver.checkSwitch(index, targets.size(), ratePerSecond);
        route = new Route(index, index == PAUSE ? null : phases.limiter(ratePerSecond, System.nanoTime()));
        synchronized (routeChanged) {
            routeChanged.notifyAll();
        }
        return progress();
    }

    @Override
    public int targetCount() {
        return targets.size();
    }

    /**
     * The pair (topic, producer) that thread {@code thread} sends its {@code turn}-th message to: with at least as many
     * threads as pairs, always pair thread % pairs (several threads per pair); with more pairs, its own pairs thread,
     * thread + threads, ... in turn, so every pair gets messages and each pair has one thread.
     */
    static int pairOf(int thread, long turn, int pairs, int threads) {
        if (pairs <= threads) {
            return thread % pairs;
        }
        int share = (pairs - thread + threads - 1) / threads;
        return thread + threads * (int) (turn % share);
    }

    /**
     * The stamp's stream slot of a message: the thread's when threads are at least the pairs, else the pair's (each pair
     * then has one thread, and its topic is the stream's topic for the count check).
     */
    static int streamSlot(int thread, int pair, int pairs, int threads) {
        return pairs <= threads ? thread : pair;
    }

    /** How many stream slots the stamped sends use: one per thread, or one per pair when the pairs outnumber the threads. */
    static int streamSlots(int pairs, int threads) {
        return Math.max(pairs, threads);
    }

    private void runThread(int index, long beginNanos) {
        long turn = 0;
        try {
            long wait = beginNanos - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            while (running) {
                Route r = route;
                if (r.target == PAUSE) {
                    synchronized (routeChanged) {
                        if (route == r && running) {
                            // Bounded, so a stop (which does not notify) is seen promptly.
                            routeChanged.wait(100);
                        }
                    }
                    continue;
                }
                long intended = -1;
                if (r.limiter != null) {
                    intended = r.limiter.acquire(() -> running && route == r);
                    if (route != r) {
                        // Moved while waiting: the new target's schedule decides when this thread sends.
                        continue;
                    }
                }
                if (!running) {
                    break;
                }
                TargetProducers target = targets.get(r.target);
                int k = pairOf(index, turn++, target.producers.size(), request.threads);
                sendOne(index, streamSlot(index, k, target.producers.size(), request.threads), target.producers.get(k), target.topics.get(k), intended);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            threadCrash = t;
            running = false;
        }
    }

    private void sendOne(int thread, int slot, DefaultMQProducer producer, String topic, long intendedNanos) throws InterruptedException {
        PhaseStats stats = phases.current();
        int stream = -1;
        long sequence = -1;
        byte[] body = bodies.next();
        if (acked != null) {
            // Only this thread touches its slot; the copy keeps the random bytes after the stamp the same for every message.
            stream = BodyStamp.stream(request.agentIndex, slot);
            sequence = nextSequence[slot]++;
            body = body.clone();
            BodyStamp.write(body, 0, stream, sequence, BodyStamp.wallMicros() - request.clockOffsetMicros);
        }
        int ackStream = stream;
        long ackSequence = sequence;
        // The same constructor as new Message(topic, body) when there are no tags or keys.
        String keys = messageKeys[thread].next();
        if (keys == null) {
            keys = request.keys == null ? "" : request.keys;
        }
        Message message = new Message(topic, request.tags == null ? "" : request.tags, keys, 0, body, true);
        if (request.userProperties != null) {
            request.userProperties.forEach(message::putUserProperty);
        }
        if (outstanding != null) {
            outstanding.acquire();
        }
        long start = System.nanoTime();
        long delay = intendedNanos < 0 ? -1 : Math.max(0, start - intendedNanos);
        stats.onSent();
        try {
            switch (mode) {
                case SYNC: {
                    SendResult result = producer.send(message);
                    stats.onAcked(result.getSendStatus().name(), System.nanoTime() - start, delay);
                    markAcked(ackStream, ackSequence);
                    break;
                }
                case ONEWAY: {
                    producer.sendOneway(message);
                    stats.onUnconfirmed(System.nanoTime() - start, delay);
                    break;
                }
                case ASYNC: {
                    producer.send(message, new SendCallback() {
                        @Override
                        public void onSuccess(SendResult result) {
                            stats.onAcked(result.getSendStatus().name(), System.nanoTime() - start, delay);
                            markAcked(ackStream, ackSequence);
                            outstanding.release();
                        }

                        @Override
                        public void onException(Throwable e) {
                            stats.onFailed(e);
                            outstanding.release();
                        }
                    });
                    break;
                }
                default:
                    throw new IllegalStateException(mode.name());
            }
        } catch (InterruptedException e) {
            stats.onFailed(e);
            if (outstanding != null) {
                outstanding.release();
            }
            throw e;
        } catch (Exception e) {
            stats.onFailed(e);
            if (outstanding != null) {
                outstanding.release();
            }
        }
    }

    private void markAcked(int stream, long sequence) {
        if (acked != null) {
            acked.add(stream, sequence);
        }
    }

    @Override
    public long ackedSinceStart() {
        return phases.ackedSinceStart();
    }

    /** Starts the measurement window: from now on sends are charged to a fresh phase. */
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
        Throwable t = threadCrash;
        return t == null ? null : "a sender thread crashed: " + t;
    }

    /** Stops sending, waits for answers to what was sent, and reports the measurement window. */
    @Override
    public synchronized AgentResult stop(String host, long pid) {
        long stopNanos = System.nanoTime();
        long stopCpu = SendPhases.processCpuNanos();
        running = false;
        long joinDeadline = System.currentTimeMillis() + request.sendTimeoutMs + 5_000L;
        for (Thread t : threads) {
            long left = joinDeadline - System.currentTimeMillis();
            try {
                t.join(Math.max(1, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        long inFlight = drainAsync(joinDeadline);

        AgentResult result = new AgentResult();
        result.host = host;
        result.pid = pid;
        result.mode = mode.label();
        result.client = "rocketmq";
        result.threads = request.threads;
        result.ratePerSecond = request.ratePerSecond;
        phases.fill(result, stopNanos, stopCpu, inFlight);
        if (acked != null) {
            result.ackedSequences = acked.encode();
            // Each stream slot sends to one pair's topic (see pairOf, streamSlot); stamped runs have one target.
            TargetProducers target = targets.get(0);
            int pairs = target.producers.size();
            result.streamTopics = new java.util.TreeMap<>();
            for (int slot = 0; slot < streamSlots(pairs, request.threads); slot++) {
                int pair = pairs <= request.threads ? slot % pairs : slot;
                result.streamTopics.put(Integer.toString(BodyStamp.stream(request.agentIndex, slot)), target.topics.get(pair));
            }
        }
        shutdownProducers();
        return result;
    }

    private long drainAsync(long deadlineMs) {
        if (outstanding == null) {
            return 0;
        }
        int permits = Math.max(1, request.maxOutstanding);
        while (outstanding.availablePermits() < permits && System.currentTimeMillis() < deadlineMs) {
            sleepQuietly(10);
        }
        return permits - outstanding.availablePermits();
    }

    /** Stops everything without a report (agent shutdown, failed run). */
    @Override
    public synchronized void abort() {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
        shutdownProducers();
    }

    private void shutdownProducers() {
        for (TargetProducers target : targets) {
            // Shared producers appear once per pair they serve.
            java.util.Set<DefaultMQProducer> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            distinct.addAll(target.producers);
            for (DefaultMQProducer producer : distinct) {
                try {
                    producer.shutdown();
                } catch (RuntimeException ignored) {
                    // Shutting down after a failure; the first error is the one that matters.
                }
            }
        }
        targets.clear();
    }


    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Preparing failed; the message says why in terms the operator can act on. */
    static final class PrepareException extends Exception {
        PrepareException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
