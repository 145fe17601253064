package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;

/**
 * What a run cannot honour, refused before any topic is created or agent prepared, naming the fields and the fix:
 * --client wire with more topic/producer pairs than sender slots, more push consumers per agent than an agent holds,
 * and bodies too small for the stamp a run with consumers writes.
 */
final class RunLimits {
    /** Most push consumers one agent starts (see {@link #checkConsumersPerAgent}). */
    static final int MAX_CONSUMERS_PER_AGENT = 2_000;

    private RunLimits() {
    }

    /**
     * The consumers are dealt round robin over the agents; one agent takes at most {@link #MAX_CONSUMERS_PER_AGENT}. Each
     * is a stock DefaultMQPushConsumer with its own consume thread pool (up to consumeThreadMin, 20, threads) and its
     * own rebalance of its topic's queues; OMB's files with 5,000 topics and more (4 consumers each) would put 10,000
     * and more into each of two agents, which no agent JVM holds.
     */
    static void checkConsumersPerAgent(Workload w, int agentCount) throws Coordinator.Abort {
        long total = (long) w.topics() * w.subscriptionsPerTopic() * w.consumerPerSubscription();
        long perAgent = (total + agentCount - 1) / Math.max(1, agentCount);
        if (perAgent > MAX_CONSUMERS_PER_AGENT) {
            throw new Coordinator.Abort(String.format("topics x subscriptionsPerTopic x consumerPerSubscription = %,d x %d x %d = %,d push "
                + "consumers, %,d on each of %d agent(s); an agent starts at most %,d (each stock DefaultMQPushConsumer has its own "
                + "consume thread pool of up to 20 threads and rebalances its topic's queues itself): give %,d agents or more (--agents "
                + "N, or agent hosts), or fewer topics", w.topics(), w.subscriptionsPerTopic(), w.consumerPerSubscription(), total,
                perAgent, agentCount, MAX_CONSUMERS_PER_AGENT, (total + MAX_CONSUMERS_PER_AGENT - 1) / MAX_CONSUMERS_PER_AGENT));
        }
    }

    /**
     * --client wire: each sender slot (a sync or oneway thread, or one of async's maxOutstanding) sends to one topic and
     * producer pair, so more pairs than slots would leave topics without messages: said before anything starts.
     */
    static void checkWireSenders(RunSpec spec) throws Coordinator.Abort {
        Workload w = spec.workload;
        if (w.client() != ClientMode.WIRE) {
            return;
        }
        int senders = w.sendMode() == SendMode.ASYNC ? spec.maxOutstanding : w.threadsPerAgent();
        long pairs = (long) w.topics() * w.producersPerTopic();
        if (pairs > senders) {
            throw new Coordinator.Abort("--client wire: each of its " + senders + " sender slots per agent sends to one topic and producer, "
                + "so topics x producersPerTopic = " + w.topics() + " x " + w.producersPerTopic() + " = " + pairs + " would leave "
                + (pairs - senders) + " of them without messages; give " + (w.sendMode() == SendMode.ASYNC ? "--max-outstanding "
                : "--threads ") + pairs + " or more, or --client rocketmq (whose threads take turns over the topics)");
        }
    }

    /** A run with consumers stamps every body (sender, sequence, send time): the body must hold the stamp. */
    static void checkStampFits(Workload w) throws Coordinator.Abort {
        if (w.hasConsumers() && w.messageSize() < BodyStamp.LENGTH) {
            throw new Coordinator.Abort("messageSize " + w.messageSize() + " B is too small for a run with consumers: every body "
                + "starts with a " + BodyStamp.LENGTH + "-byte stamp (sender, sequence, send time)");
        }
    }
}
