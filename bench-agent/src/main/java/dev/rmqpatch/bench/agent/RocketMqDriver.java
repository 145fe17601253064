package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.SendMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The stock client's driver ({@code --client rocketmq}): each sender is a thread, sending with stock
 * {@link DefaultMQProducer}s. One producer per topic and producersPerTopic (a "pair"), shared by the threads the
 * {@link LoadLoop} sends to it (as RocketMQ's own benchmark and OpenMessaging Benchmark's driver do); each producer gets
 * its own instance name, hence its own connections. Above {@link #MAX_CLIENT_INSTANCES} pairs (OMB's files with 100
 * topics and more) the pairs share that many producers round robin, as OMB's RocketMQ driver shares one producer for
 * every topic of a worker. The producers of every target are started at prepare and kept until the run ends.
 */
final class RocketMqDriver implements LoadDriver {
    /**
     * Most producer client instances (MQClientInstance: its own connections, netty and scheduler threads) per target.
     * More pairs than this share these producers round robin; a DefaultMQProducer sends to any topic.
     */
    static final int MAX_CLIENT_INSTANCES = 64;

    private final String agentName;
    private final PrepareRequest request;
    private final SendMode mode;
    private final List<PrepareRequest.Target> targetSpecs;
    private final List<TargetProducers> targets = new ArrayList<>();
    private final Bodies bodies;
    /** Async mode's window of sends in flight (maxOutstanding); null in the other modes. */
    private final Semaphore outstanding;
    private LoadLoop loop;

    /** The producers of one target, index-aligned with its pairs. */
    private static final class TargetProducers {
        final List<DefaultMQProducer> producers = new ArrayList<>();
        final List<String> topics = new ArrayList<>();
    }

    private RocketMqDriver(String agentName, PrepareRequest request, Bodies bodies) {
        this.agentName = agentName;
        this.request = request;
        this.mode = SendMode.parse(request.mode);
        this.targetSpecs = Pairs.targets(request);
        this.bodies = bodies;
        this.outstanding = mode == SendMode.ASYNC ? new Semaphore(Math.max(1, request.maxOutstanding)) : null;
    }

    /** Starts the producers and checks that every topic is routable with the expected queues; throws with the cause. */
    static RocketMqDriver prepare(String agentName, PrepareRequest request, Bodies bodies) throws PrepareException {
        RocketMqDriver driver = new RocketMqDriver(agentName, request, bodies);
        try {
            driver.startProducers();
            driver.awaitRoutes();
            return driver;
        } catch (PrepareException e) {
            driver.close();
            throw e;
        } catch (RuntimeException e) {
            driver.close();
            throw new PrepareException("could not start producers against name server(s) " + driver.namesrvs() + ": " + e, e);
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
            for (int pair = 0; pair < Pairs.count(spec, request.producersPerTopic); pair++) {
                String topic = Pairs.topic(spec, pair, request.producersPerTopic);
                int p = pair % request.producersPerTopic;
                if (pair >= MAX_CLIENT_INSTANCES) {
                    target.producers.add(target.producers.get(pair % MAX_CLIENT_INSTANCES));
                    target.topics.add(topic);
                    continue;
                }
                DefaultMQProducer producer = new DefaultMQProducer(group);
                producer.setNamesrvAddr(spec.namesrv);
                // The target index keeps instances (and so connections) of different clusters apart.
                producer.setInstanceName(agentName + "-" + Jdk8.pid() + "-t" + t + "-" + topic + "-" + p);
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

    @Override
    public int senders() {
        return request.threads;
    }

    /** None: each sender is a thread, and sync sends block it. */
    @Override
    public ScheduledExecutorService eventLoops() {
        return null;
    }

    @Override
    public void start(LoadLoop loop, Sender[] senders, long beginNanos) {
        this.loop = loop;
    }

    @Override
    public boolean send(Sender s) throws InterruptedException {
        TargetProducers target = targets.get(s.target);
        DefaultMQProducer producer = target.producers.get(s.pair);
        byte[] body = bodies.next();
        if (loop.stamped()) {
            // Only this thread sends on its stream; the copy keeps the random bytes after the stamp the same for every message.
            loop.stamp(s);
            body = body.clone();
            BodyStamp.write(body, 0, s.stream, s.sequence, loop.stampMicros());
        }
        // The same constructor as new Message(topic, body) when there are no tags or keys.
        String keys = s.keys == null ? null : s.keys.next();
        if (keys == null) {
            keys = request.keys == null ? "" : request.keys;
        }
        Message message = new Message(target.topics.get(s.pair), request.tags == null ? "" : request.tags, keys, 0, body, true);
        if (request.userProperties != null) {
            request.userProperties.forEach(message::putUserProperty);
        }
        if (outstanding != null) {
            outstanding.acquire();
        }
        s.sentNanos = System.nanoTime();
        loop.sent(s);
        try {
            switch (mode) {
                case SYNC: {
                    SendResult result = producer.send(message);
                    loop.acked(s, result.getSendStatus().name(), System.nanoTime());
                    break;
                }
                case ONEWAY: {
                    producer.sendOneway(message);
                    loop.unconfirmed(s, System.nanoTime());
                    break;
                }
                case ASYNC: {
                    producer.send(message, new Callback(s));
                    break;
                }
                default:
                    throw new IllegalStateException(mode.name());
            }
        } catch (InterruptedException e) {
            loop.failed(s, e);
            if (outstanding != null) {
                outstanding.release();
            }
            throw e;
        } catch (Exception e) {
            loop.failed(s, e);
            if (outstanding != null) {
                outstanding.release();
            }
        }
        return true;
    }

    /** An async send's record and its answer's receiver; frees its place in the window either way. */
    private final class Callback extends Send implements SendCallback {
        Callback(Send send) {
            super(send);
        }

        @Override
        public void onSuccess(SendResult result) {
            loop.acked(this, result.getSendStatus().name(), System.nanoTime());
            outstanding.release();
        }

        @Override
        public void onException(Throwable e) {
            loop.failed(this, e);
            outstanding.release();
        }
    }

    @Override
    public void switched() {
    }

    /** Waits for async mode's sends in flight; the threads (and so sync and oneway sends) have ended. */
    @Override
    public long drain(long deadlineMs) {
        if (outstanding == null) {
            return 0;
        }
        int permits = Math.max(1, request.maxOutstanding);
        while (outstanding.availablePermits() < permits && System.currentTimeMillis() < deadlineMs) {
            sleepQuietly(10);
        }
        return permits - outstanding.availablePermits();
    }

    @Override
    public void describe(AgentResult result) {
        result.client = "rocketmq";
    }

    @Override
    public String failure() {
        return null;
    }

    @Override
    public void close() {
        for (TargetProducers target : targets) {
            // Shared producers appear once per pair they serve.
            Set<DefaultMQProducer> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
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
}
