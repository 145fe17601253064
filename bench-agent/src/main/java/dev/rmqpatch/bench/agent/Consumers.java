package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.delivery.StreamSets;
import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.ConsumeResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * The push consumers of one agent: stock {@code DefaultMQPushConsumer}s (the harness's 4.9.0, or a release client's own
 * jars: only API every release from 4.9.0 to 5.x has) in clustering mode, one consumer group per
 * subscription (so every subscription receives every message once), reading from the first offset (the topics are new
 * per run, so nothing sent before a consumer's first rebalance is skipped). Each delivery's stamp gives its end-to-end
 * latency and marks (stream, sequence) in the group's received set; a delivery already marked is a duplicate.
 *
 * <p>Each consumer has its own client instance (connections, pull and rebalance threads), as separate consumer processes
 * would, up to {@link #MAX_CLIENT_INSTANCES} consumers on the agent. With more (OMB's files with 100 topics give each
 * agent 150 to 200 consumers) the i-th consumer of every group shares instance i, as the consumers of many groups in one
 * application do: a client instance takes each group once, so a group's consumers still have instances of their own.
 */
final class Consumers {
    private static final int MAX_SAMPLE_LENGTH = 300;
    /** Consumers on one agent that get a client instance each; above it the groups share instances (see the class doc). */
    static final int MAX_CLIENT_INSTANCES = 64;

    private final long clockOffsetMicros;
    private final List<Group> groups = new ArrayList<>();
    private final Map<String, LongAdder> errorsByKind = new ConcurrentHashMap<>();
    private final Map<String, String> errorSamples = new ConcurrentHashMap<>();
    private final LongAdder totalConsumed = new LongAdder();
    private final LongAdder negativeEndToEnd = new LongAdder();
    /** Deliveries of the current phase: prepare to /measure, the window, then the drain after the producers stopped. */
    private volatile Phase phase = new Phase();
    private Phase window;
    private long windowStartNanos;
    private long windowNanos;
    private long reportedErrors;

    /** One subscription on this agent: its consumers and what they received. */
    private static final class Group {
        final PrepareRequest.Subscription spec;
        final List<DefaultMQPushConsumer> consumers = new ArrayList<>();
        final StreamSets received = new StreamSets();
        final LongAdder deliveries = new LongAdder();
        final LongAdder duplicates = new LongAdder();

        Group(PrepareRequest.Subscription spec) {
            this.spec = spec;
        }
    }

    /** Deliveries and their end-to-end latency in one phase. */
    private static final class Phase {
        final LongAdder consumed = new LongAdder();
        final LongAdder reported = new LongAdder();
        final Recorder endToEnd = new Recorder(Histograms.SIGNIFICANT_DIGITS);
        final Histogram cumulative = Histograms.create();
        /** The recorder's interval histogram, handed back on the next drain (it must come from this recorder). */
        Histogram recycled;
    }

    private Consumers(long clockOffsetMicros) {
        this.clockOffsetMicros = clockOffsetMicros;
    }

    /** Starts every consumer of the request; null when the request has none. */
    static Consumers start(String agentName, PrepareRequest request) throws PrepareException {
        if (request.subscriptions == null || request.subscriptions.isEmpty()) {
            return null;
        }
        Consumers c = new Consumers(request.clockOffsetMicros);
        int total = 0;
        for (PrepareRequest.Subscription s : request.subscriptions) {
            total += s == null ? 0 : Math.max(0, s.consumers);
        }
        boolean shared = total > MAX_CLIENT_INSTANCES;
        try {
            for (PrepareRequest.Subscription s : request.subscriptions) {
                if (s == null || s.topic == null || s.group == null || s.consumers < 1) {
                    throw new PrepareException("a subscription needs a topic, a group and at least one consumer", null);
                }
                Group g = new Group(s);
                c.groups.add(g);
                for (int i = 0; i < s.consumers; i++) {
                    g.consumers.add(c.consumer(agentName, request, g, i, shared));
                }
            }
            return c;
        } catch (PrepareException | RuntimeException e) {
            c.abort();
            if (e instanceof PrepareException) {
                throw (PrepareException) e;
            }
            throw new PrepareException("could not start consumers against name server " + request.namesrv + ": " + e, e);
        }
    }

    private DefaultMQPushConsumer consumer(String agentName, PrepareRequest request, Group g, int index, boolean shared)
        throws PrepareException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(g.spec.group);
        String namesrv = g.spec.namesrv != null ? g.spec.namesrv : request.namesrv;
        consumer.setNamesrvAddr(namesrv);
        // Own instance, own connections and rebalance, as separate consumer processes would have; with many consumers on
        // the agent, the index-th consumer of every group of one cluster shares one (an instance has one name server).
        String cluster = g.spec.namesrv == null ? "" : "-" + g.spec.namesrv.replace(':', '_');
        consumer.setInstanceName(agentName + "-" + Jdk8.pid() + "-"
            + (shared ? "consumers-" + index + cluster : g.spec.group + "-" + index));
        // Clustering, every release's default, left unset: its enum moved in 5.x (remoting.protocol.heartbeat), and a release
        // client (--clients 5.3.3) runs this class against its own jars.
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setVipChannelEnabled(false);
        try {
            consumer.subscribe(g.spec.topic, "*");
        } catch (MQClientException e) {
            throw new PrepareException("cannot subscribe group " + g.spec.group + " to " + g.spec.topic + ": "
                + e.getErrorMessage(), e);
        }
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt m : messages) {
                if (!onMessage(g, m)) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        try {
            consumer.start();
        } catch (MQClientException e) {
            consumer.shutdown();
            throw new PrepareException("consumer " + index + " of group " + g.spec.group + " did not start: "
                + e.getErrorMessage(), e);
        }
        return consumer;
    }

    /** One delivery; false asks the client to deliver it again later (a failure the listener could not handle). */
    private boolean onMessage(Group g, MessageExt m) {
        long now = BodyStamp.wallMicros() - clockOffsetMicros;
        Phase p = phase;
        totalConsumed.increment();
        p.consumed.increment();
        g.deliveries.increment();
        try {
            byte[] body = m.getBody();
            if (!BodyStamp.present(body)) {
                error("no stamp", () -> "message " + m.getMsgId() + " of " + m.getTopic() + " (" + (body == null ? 0 : body.length)
                    + " B) does not start with the harness's stamp: not sent by this run's agents");
                return true;
            }
            long e2e = now - BodyStamp.sendMicros(body);
            if (e2e < 0) {
                negativeEndToEnd.increment();
                e2e = 0;
            }
            p.endToEnd.recordValue(e2e);
            if (!g.received.add(BodyStamp.stream(body), BodyStamp.sequence(body))) {
                g.duplicates.increment();
            }
            return true;
        } catch (RuntimeException e) {
            error(e.getClass().getSimpleName(), e::toString);
            return false;
        }
    }

    private void error(String kind, java.util.function.Supplier<String> sample) {
        errorsByKind.computeIfAbsent(kind, k -> new LongAdder()).increment();
        errorSamples.computeIfAbsent(kind, k -> {
            String text = sample.get();
            return text.length() <= MAX_SAMPLE_LENGTH ? text : text.substring(0, MAX_SAMPLE_LENGTH) + "...";
        });
    }

    synchronized void pause(boolean paused) {
        for (Group g : groups) {
            for (DefaultMQPushConsumer c : g.consumers) {
                if (paused) {
                    c.suspend();
                } else {
                    c.resume();
                }
            }
        }
    }

    /**
     * Sends every consumer's heartbeat again, off the caller's thread, twice half a second apart (the first may meet
     * another heartbeat's lock): a subscription version the broker missed stalls a consumer until the client's next
     * timed heartbeat otherwise (see {@link SubscriptionHeartbeats}). Called when the window opens and the drain begins.
     */
    void refreshSubscriptions() {
        List<DefaultMQPushConsumer> all = new ArrayList<>();
        synchronized (this) {
            for (Group g : groups) {
                all.addAll(g.consumers);
            }
        }
        Thread t = new Thread(() -> {
            try {
                SubscriptionHeartbeats.send(all);
                Thread.sleep(500);
                SubscriptionHeartbeats.send(all);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException | LinkageError e) {
                // A consumer shut down meanwhile (the run ended), or a release client without this API: the client's own
                // timer still sends its heartbeats; the run goes on.
                System.err.println("consumer heartbeat not sent: " + e);
            }
        }, "consumer-heartbeats");
        t.setDaemon(true);
        t.start();
    }

    /** Deliveries from now on belong to the measurement window. */
    synchronized void beginMeasurement() {
        window = new Phase();
        windowStartNanos = System.nanoTime();
        phase = window;
    }

    /** The producers stopped: the window ends; what is consumed from now on is the drain. */
    synchronized void endMeasurement() {
        if (window != null && phase == window) {
            windowNanos = System.nanoTime() - windowStartNanos;
        }
        phase = new Phase();
    }

    /** Adds this interval's consume figures to a progress report. */
    synchronized void fill(ProgressReport report) {
        Phase p = phase;
        long consumed = p.consumed.sum();
        report.consumed = consumed - p.reported.sum();
        p.reported.add(report.consumed);
        p.recycled = p.endToEnd.getIntervalHistogram(p.recycled);
        p.cumulative.add(p.recycled);
        report.endToEndHistogram = Histograms.encode(p.recycled);
        long errors = errorsByKind.values().stream().mapToLong(LongAdder::sum).sum();
        report.consumeErrors = errors - reportedErrors;
        reportedErrors = errors;
        Map<String, Long> received = new TreeMap<>();
        for (Group g : groups) {
            received.merge(g.spec.group, g.received.size(), Long::sum);
        }
        report.receivedByGroup = received;
    }

    /** Stops every consumer and reports what each group received. */
    /** The result of an agent that ran no consumers in a run with consumers: nothing received. */
    static ConsumeResult none(String name) {
        ConsumeResult r = new ConsumeResult();
        r.name = name;
        r.endToEndHistogram = Histograms.encode(Histograms.create());
        r.errorsByKind = new TreeMap<>();
        r.errorSamples = new TreeMap<>();
        r.subscriptions = new ArrayList<>();
        return r;
    }

    synchronized ConsumeResult stop(String name) {
        shutdownConsumers();
        ConsumeResult r = new ConsumeResult();
        r.name = name;
        Phase w = window;
        if (w != null) {
            w.cumulative.add(w.endToEnd.getIntervalHistogram());
            r.windowConsumed = w.consumed.sum();
            r.endToEndHistogram = Histograms.encode(w.cumulative);
            r.windowNanos = windowNanos > 0 ? windowNanos : System.nanoTime() - windowStartNanos;
        } else {
            r.endToEndHistogram = Histograms.encode(Histograms.create());
        }
        r.totalConsumed = totalConsumed.sum();
        r.negativeEndToEnd = negativeEndToEnd.sum();
        r.errorsByKind = new TreeMap<>();
        errorsByKind.forEach((k, v) -> r.errorsByKind.put(k, v.sum()));
        r.errorSamples = new TreeMap<>(errorSamples);
        r.subscriptions = new ArrayList<>();
        for (Group g : groups) {
            ConsumeResult.SubscriptionResult s = new ConsumeResult.SubscriptionResult();
            s.group = g.spec.group;
            s.topic = g.spec.topic;
            s.consumers = g.consumers.size();
            s.deliveries = g.deliveries.sum();
            s.duplicates = g.duplicates.sum();
            s.received = g.received.encode();
            r.subscriptions.add(s);
        }
        return r;
    }

    synchronized void abort() {
        shutdownConsumers();
    }

    private void shutdownConsumers() {
        for (Group g : groups) {
            for (DefaultMQPushConsumer c : g.consumers) {
                try {
                    c.shutdown();
                } catch (RuntimeException ignored) {
                    // Shutting down after the run or a failure; the first error is the one that matters.
                }
            }
        }
    }
}
