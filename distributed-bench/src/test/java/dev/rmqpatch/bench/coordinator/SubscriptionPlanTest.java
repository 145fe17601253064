package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.Workload;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the coordinator deals a workload's consumers over the agents. */
class SubscriptionPlanTest {
    private static List<List<PrepareRequest.Subscription>> plan(int agents, Workload w) {
        return SubscriptionPlan.deal(spec(w), agents).perAgent();
    }

    private static RunSpec spec(Workload w) {
        RunSpec spec = new RunSpec();
        spec.workload = w;
        spec.runId = "r1";
        return spec;
    }

    @Test
    void consumersAreDealtRoundRobinOneGroupPerSubscription() {
        // 2 topics x 2 subscriptions x 3 consumers = 12 consumers over 5 agents: 3, 3, 2, 2, 2.
        List<List<PrepareRequest.Subscription>> plan = plan(5, Workload.defaults().withTopics(2)
            .withConsumers(2, 3, 0));
        assertEquals(5, plan.size());
        Map<String, Integer> perGroup = new HashMap<>();
        int[] perAgent = new int[5];
        for (int a = 0; a < 5; a++) {
            for (PrepareRequest.Subscription s : plan.get(a)) {
                perGroup.merge(s.group, s.consumers, Integer::sum);
                perAgent[a] += s.consumers;
                assertTrue(s.group.startsWith("bench-r1-" + s.topic.substring("bench-r1-".length()) + "-sub-"), s.group + " " + s.topic);
            }
        }
        assertEquals(4, perGroup.size(), "one consumer group per (topic, subscription)");
        perGroup.values().forEach(n -> assertEquals(3, n));
        assertEquals(List.of(3, 3, 2, 2, 2), List.of(perAgent[0], perAgent[1], perAgent[2], perAgent[3], perAgent[4]));
    }

    @Test
    void oneSubscriptionsConsumersSpreadOverTheAgents() {
        List<List<PrepareRequest.Subscription>> plan = plan(2, Workload.defaults().withConsumers(1, 3, 0));
        assertEquals(2, plan.get(0).get(0).consumers);
        assertEquals(1, plan.get(1).get(0).consumers);
        assertEquals(plan.get(0).get(0).group, plan.get(1).get(0).group);
    }

    @Test
    void fewerConsumersThanAgentsLeaveSomeAgentsProducingOnly() {
        List<List<PrepareRequest.Subscription>> plan = plan(3, Workload.defaults().withConsumers(1, 1, 0));
        assertEquals(1, plan.get(0).size());
        assertTrue(plan.get(1).isEmpty() && plan.get(2).isEmpty());
        assertTrue(plan(2, Workload.defaults()).stream().allMatch(List::isEmpty), "produce only");
    }

    @Test
    void eachSubscriptionMustReceiveWhatItsTopicAcknowledged() {
        SubscriptionPlan plan = SubscriptionPlan.deal(spec(Workload.defaults().withTopics(2).withConsumers(2, 2, 0)), 3);
        Map<String, Long> expected = plan.expectedByGroup(30, Map.of("bench-r1-0", 10L, "bench-r1-1", 20L));
        assertEquals(Map.of("bench-r1-0-sub-0", 10L, "bench-r1-0-sub-1", 10L, "bench-r1-1-sub-0", 20L, "bench-r1-1-sub-1", 20L), expected);
        assertEquals(Map.of("bench-r1-0-sub-0", 30L, "bench-r1-0-sub-1", 30L, "bench-r1-1-sub-0", 30L, "bench-r1-1-sub-1", 30L),
            plan.expectedByGroup(30, null), "agents that did not count per topic: every subscription must receive all");
        assertEquals(0L, plan.expectedByGroup(30, Map.of()).get("bench-r1-0-sub-0"), "a topic nothing was acknowledged to");
    }

    @Test
    void theSlowestSubscriptionIsTheOneFurthestBehind() {
        Map<String, Long> expected = Map.of("a", 10L, "b", 100L);
        assertEquals("b", ConsumerDrain.slowestGroup(new java.util.TreeMap<>(Map.of("a", 0L, "b", 80L)), expected, 0));
        assertEquals("a", ConsumerDrain.slowestGroup(new java.util.TreeMap<>(Map.of("a", 0L, "b", 95L)), expected, 0));
        assertEquals("a", ConsumerDrain.slowestGroup(new java.util.TreeMap<>(Map.of("a", 10L, "b", 100L)), expected, 0), "the first of equals");
        assertEquals("c", ConsumerDrain.slowestGroup(new java.util.TreeMap<>(Map.of("a", 10L, "c", 0L)), expected, 5),
            "a group the plan does not know must receive all acknowledged");
        assertEquals(null, ConsumerDrain.slowestGroup(Map.of(), expected, 5));
    }
}
