package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.protocol.ProgressReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who loads what in a client comparison's windows, and whose messages a window counts. */
class ClientRoutingTest {
    private static final int PAUSE = WindowRunner.PAUSE;

    private static ProgressReport report(long acked, long consumed) {
        ProgressReport r = new ProgressReport();
        r.acked = acked;
        r.consumed = consumed;
        return r;
    }

    @Test
    void producerSideLoadsOnlyTheWindowsClientsAgents() {
        // Two clients with two agents each: agents 0, 1 run client 0; agents 2, 3 client 1.
        ClientRouting r = new ClientRouting(ClientVariant.Side.PRODUCER, new int[] {0, 0, 1, 1});
        assertEquals(List.of(0, 0, PAUSE, PAUSE), List.of(r.target(0, 0), r.target(1, 0), r.target(2, 0), r.target(3, 0)));
        assertEquals(List.of(PAUSE, PAUSE, 0, 0), List.of(r.target(0, 1), r.target(1, 1), r.target(2, 1), r.target(3, 1)));
        assertEquals(2, r.senders(1), "the window's rate is shared by its client's agents only");
        List<ProgressReport> reports = List.of(report(3, 0), report(4, 0), report(1000, 0), report(1200, 0));
        assertEquals(2200L, r.clientMessages(reports, 1), "what the window's client had acknowledged");
        assertEquals(7L, r.clientMessages(reports, 0));
    }

    @Test
    void consumerSideFeedsTheWindowsClientsTopicsFromTheLoadAgents() {
        // One load agent (stock producers), then one agent per client.
        ClientRouting r = new ClientRouting(ClientVariant.Side.CONSUMER, new int[] {ClientRouting.LOAD, 0, 1});
        assertEquals(List.of(1, PAUSE, PAUSE), List.of(r.target(0, 1), r.target(1, 1), r.target(2, 1)),
            "the load agent sends to client 1's topics (its target 1); the clients' own producers stay paused");
        assertEquals(0, r.target(0, 0));
        assertEquals(1, r.senders(0), "the load agents share the rate");
        List<ProgressReport> reports = List.of(report(900, 0), report(0, 2), report(0, 880));
        assertEquals(880L, r.clientMessages(reports, 1), "what the window's client's consumers received");
    }

    @Test
    void brokerComparisonsLoadEveryAgentAndCountNoClient() {
        WindowRunner.Routing r = WindowRunner.everyAgent(3);
        assertEquals(2, r.target(1, 2));
        assertEquals(3, r.senders(0));
        assertEquals(null, r.clientMessages(List.of(report(1, 1)), 0));
    }
}
