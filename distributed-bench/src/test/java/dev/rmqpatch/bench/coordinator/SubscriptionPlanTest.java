package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.Workload;
import java.io.PrintStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the coordinator deals a workload's consumers over the agents. */
class SubscriptionPlanTest {
    private static Coordinator coordinator(int agents) {
        List<AgentClient> clients = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            clients.add(new AgentClient("agent-" + (i + 1), "127.0.0.1:" + (1 + i), AgentToken.generate(), null));
        }
        return new Coordinator(clients, null, null, List.of(), new PrintStream(OutputStream.nullOutputStream()));
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
        List<List<PrepareRequest.Subscription>> plan = coordinator(5).subscriptionPlan(spec(Workload.defaults().withTopics(2)
            .withConsumers(2, 3, 0)));
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
        List<List<PrepareRequest.Subscription>> plan = coordinator(2).subscriptionPlan(spec(Workload.defaults().withConsumers(1, 3, 0)));
        assertEquals(2, plan.get(0).get(0).consumers);
        assertEquals(1, plan.get(1).get(0).consumers);
        assertEquals(plan.get(0).get(0).group, plan.get(1).get(0).group);
    }

    @Test
    void fewerConsumersThanAgentsLeaveSomeAgentsProducingOnly() {
        List<List<PrepareRequest.Subscription>> plan = coordinator(3).subscriptionPlan(spec(Workload.defaults().withConsumers(1, 1, 0)));
        assertEquals(1, plan.get(0).size());
        assertTrue(plan.get(1).isEmpty() && plan.get(2).isEmpty());
        assertTrue(coordinator(2).subscriptionPlan(spec(Workload.defaults())).stream().allMatch(List::isEmpty), "produce only");
        assertNull(null);
    }
}
