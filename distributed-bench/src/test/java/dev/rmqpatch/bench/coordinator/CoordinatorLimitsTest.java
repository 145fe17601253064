package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * What a run cannot honour is refused before any topic is created, naming the fields and the fix: --client wire with more
 * topic/producer pairs than sender slots, and more push consumers per agent than an agent holds (OMB's 5,000-topic files).
 */
class CoordinatorLimitsTest {
    private static RunSpec spec(Workload w) {
        RunSpec s = new RunSpec();
        s.workload = w;
        return s;
    }

    @Test
    void morePairsThanSlotsIsRefused() {
        Workload w = Workload.defaults().withTopics(100).withThreadsPerAgent(32).withClient(ClientMode.WIRE);
        String e = assertThrows(Coordinator.Abort.class, () -> RunLimits.checkWireSenders(spec(w))).getMessage();
        assertTrue(e.contains("topics x producersPerTopic = 100 x 1 = 100 would leave 68 of them without messages"), e);
        assertTrue(e.contains("--threads 100"), e);
    }

    @Test
    void enoughSlotsOrTheStockClientPass() {
        assertDoesNotThrow(() -> RunLimits.checkWireSenders(spec(Workload.defaults().withTopics(100).withThreadsPerAgent(100)
            .withClient(ClientMode.WIRE))));
        assertDoesNotThrow(() -> RunLimits.checkWireSenders(spec(Workload.defaults().withTopics(100).withClient(ClientMode.ROCKETMQ))));
        assertDoesNotThrow(() -> RunLimits.checkWireSenders(spec(Workload.defaults().withTopics(100).withSendMode(SendMode.ASYNC)
            .withClient(ClientMode.WIRE))), "async: 1000 slots");
    }

    @Test
    void tooManyConsumersPerAgentAreRefusedNamingTheFields() {
        Workload fiveThousand = Workload.defaults().withTopics(5_000).withConsumers(1, 4, 0);
        String e = assertThrows(Coordinator.Abort.class, () -> Coordinator.checkConsumersPerAgent(fiveThousand, 2)).getMessage();
        assertTrue(e.contains("topics x subscriptionsPerTopic x consumerPerSubscription = 5,000 x 1 x 4 = 20,000 push consumers, 10,000 on each "
            + "of 2 agent(s); an agent starts at most 2,000"), e);
        assertTrue(e.contains("give 10 agents or more"), e);
        assertDoesNotThrow(() -> Coordinator.checkConsumersPerAgent(fiveThousand, 10));
        assertDoesNotThrow(() -> Coordinator.checkConsumersPerAgent(Workload.defaults().withTopics(1_000).withConsumers(1, 4, 0), 2),
            "OMB's 1,000-topic files: 2,000 per agent");
        assertDoesNotThrow(() -> Coordinator.checkConsumersPerAgent(Workload.defaults().withTopics(1_000_000), 1), "produce only");
    }

    @Test
    void prepareWaitsLongerForManyConsumersAndTopics() {
        dev.rmqpatch.bench.protocol.PrepareRequest small = new dev.rmqpatch.bench.protocol.PrepareRequest();
        small.topics = java.util.List.of("t");
        org.junit.jupiter.api.Assertions.assertEquals(java.time.Duration.ofMillis(60_010), AgentClient.prepareTimeout(small));
        dev.rmqpatch.bench.protocol.PrepareRequest big = new dev.rmqpatch.bench.protocol.PrepareRequest();
        big.topics = java.util.Collections.nCopies(1_000, "t");
        big.subscriptions = java.util.Collections.nCopies(2_000, new dev.rmqpatch.bench.protocol.PrepareRequest.Subscription("t", "g", 1));
        org.junit.jupiter.api.Assertions.assertEquals(java.time.Duration.ofSeconds(60 + 200 + 10), AgentClient.prepareTimeout(big));
    }

    @Test
    void theDefaultDrainGrowsWithTheQueues() {
        RunSpec s = spec(Workload.defaults());
        org.junit.jupiter.api.Assertions.assertEquals(60, s.drainTimeoutSeconds(), "18 queues: 60 s, as before");
        s.workload = Workload.defaults().withPartitionsPerTopic(10_000);
        org.junit.jupiter.api.Assertions.assertEquals(160, s.drainTimeoutSeconds(), "OMB's 10,000 partitions");
        s.drainTimeoutSeconds = 30;
        org.junit.jupiter.api.Assertions.assertEquals(30, s.drainTimeoutSeconds(), "--drain-timeout wins");
    }

    @Test
    void runAndCompareRefuseTooManyConsumersBeforeAnythingStarts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path w = dir.resolve("w.yaml");
        java.nio.file.Files.writeString(w, "topics: 5000\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 4\n");
        java.nio.file.Path out = dir.resolve("out");
        String e = assertThrows(dev.rmqpatch.bench.cli.UsageException.class, () -> dev.rmqpatch.bench.command.RunCommand.run(new String[] {"--dist", dir.toString(),
            "--agents", "2", "--workload", w.toString(), "--out", out.toString()}, System.out)).getMessage();
        assertTrue(e.contains("20,000 push consumers, 10,000 on each of 2 agent(s)"), e);
        assertTrue(java.nio.file.Files.notExists(out), "nothing started, no output folder");
        e = assertThrows(dev.rmqpatch.bench.cli.UsageException.class, () -> dev.rmqpatch.bench.command.CompareCommand.parse(new String[] {
            "--workload", w.toString(), "--agents", "4"})).getMessage();
        assertTrue(e.contains("5,000 on each of 4 agent(s)"), e);
    }
}
