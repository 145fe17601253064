package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which consumers run where: each topic gets subscriptionsPerTopic consumer groups of consumerPerSubscription push
 * consumers each; all consumers of the run are dealt round robin over the agents, so N consumers on M agents are as
 * even as N allows and one group's consumers sit on different agents where there are several.
 */
final class SubscriptionPlan {
    private final List<List<PrepareRequest.Subscription>> perAgent;

    private SubscriptionPlan(List<List<PrepareRequest.Subscription>> perAgent) {
        this.perAgent = perAgent;
    }

    static SubscriptionPlan deal(RunSpec spec, int agents) {
        List<List<PrepareRequest.Subscription>> plan = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            plan.add(new ArrayList<>());
        }
        Workload w = spec.workload;
        int next = 0;
        List<String> topics = spec.topics();
        for (int t = 0; t < topics.size(); t++) {
            for (int s = 0; s < w.subscriptionsPerTopic(); s++) {
                String group = groupName(spec, t, s);
                for (int c = 0; c < w.consumerPerSubscription(); c++) {
                    List<PrepareRequest.Subscription> mine = plan.get(next++ % agents);
                    PrepareRequest.Subscription existing = null;
                    for (PrepareRequest.Subscription x : mine) {
                        if (x.group.equals(group)) {
                            existing = x;
                        }
                    }
                    if (existing == null) {
                        mine.add(new PrepareRequest.Subscription(topics.get(t), group, 1));
                    } else {
                        existing.consumers++;
                    }
                }
            }
        }
        return new SubscriptionPlan(plan);
    }

    static String groupName(RunSpec spec, int topic, int subscription) {
        return "bench-" + spec.runId + "-" + topic + "-sub-" + subscription;
    }

    /** Per agent, in agent order: its subscriptions (empty for an agent without consumers). */
    List<List<PrepareRequest.Subscription>> perAgent() {
        return perAgent;
    }

    /** Agent {@code agent}'s subscriptions; empty when it runs no consumers. */
    List<PrepareRequest.Subscription> of(int agent) {
        return perAgent.get(agent);
    }

    boolean consumes(int agent) {
        return !perAgent.get(agent).isEmpty();
    }

    /**
     * What each subscription (by group) must receive for the count check to pass: the acknowledged sends to its topic,
     * or all {@code acked} when the agents did not say per topic ({@code ackedByTopic} null).
     */
    Map<String, Long> expectedByGroup(long acked, Map<String, Long> ackedByTopic) {
        Map<String, Long> expected = new TreeMap<>();
        for (List<PrepareRequest.Subscription> mine : perAgent) {
            for (PrepareRequest.Subscription x : mine) {
                expected.put(x.group, ackedByTopic == null ? acked : ackedByTopic.getOrDefault(x.topic, 0L));
            }
        }
        return expected;
    }
}
