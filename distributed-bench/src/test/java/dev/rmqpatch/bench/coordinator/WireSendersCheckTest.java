package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import org.junit.jupiter.api.Test;

/** --client wire with more topic/producer pairs than sender slots is refused up front, naming the fields and the fix. */
class WireSendersCheckTest {
    private static RunSpec spec(Workload w) {
        RunSpec s = new RunSpec();
        s.workload = w;
        return s;
    }

    @Test
    void morePairsThanSlotsIsRefused() {
        Workload w = Workload.defaults().withTopics(100).withThreadsPerAgent(32).withClient(ClientMode.WIRE);
        String e = assertThrows(Coordinator.Abort.class, () -> Coordinator.checkWireSenders(spec(w))).getMessage();
        assertTrue(e.contains("topics x producersPerTopic = 100 x 1 = 100 would leave 68 of them without messages"), e);
        assertTrue(e.contains("--threads 100"), e);
    }

    @Test
    void enoughSlotsOrTheStockClientPass() {
        assertDoesNotThrow(() -> Coordinator.checkWireSenders(spec(Workload.defaults().withTopics(100).withThreadsPerAgent(100)
            .withClient(ClientMode.WIRE))));
        assertDoesNotThrow(() -> Coordinator.checkWireSenders(spec(Workload.defaults().withTopics(100).withClient(ClientMode.ROCKETMQ))));
        assertDoesNotThrow(() -> Coordinator.checkWireSenders(spec(Workload.defaults().withTopics(100).withSendMode(SendMode.ASYNC)
            .withClient(ClientMode.WIRE))), "async: 1000 slots");
    }
}
