package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.agent.Agent;
import dev.rmqpatch.bench.agent.AgentHttpServer;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.cluster.FreePorts;
import dev.rmqpatch.bench.sink.SinkServer;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.rmqpatch.bench.auth.AgentToken;

/**
 * Coordinator, agents and sink in one JVM (agents behind their real HTTP servers), so the protocol, the phases and the
 * accounting are tested in seconds. The process-level behaviour is covered by the *IT tests.
 */
class CoordinatorInProcessTest {
    private static final AgentToken TOKEN = AgentToken.generate();
    private SinkServer sink;
    private BrokerAdmin admin;
    private final List<AgentHttpServer> servers = new ArrayList<>();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() {
        sink = new SinkServer("127.0.0.1", 0, 18, 2);
        admin = new BrokerAdmin();
    }

    @AfterEach
    void tearDown() {
        servers.forEach(AgentHttpServer::close);
        admin.close();
        sink.close();
    }

    private List<AgentClient> agents(int n) throws Exception {
        List<AgentClient> clients = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            AgentHttpServer server = new AgentHttpServer(new Agent("agent-" + i), "127.0.0.1", 0, TOKEN, () -> { });
            servers.add(server);
            clients.add(new AgentClient("agent-" + i, "127.0.0.1:" + server.port(), TOKEN, null));
        }
        return clients;
    }

    private RunSpec spec(Workload w) {
        RunSpec spec = new RunSpec();
        spec.workload = w;
        spec.namesrv = "127.0.0.1:" + sink.port();
        spec.label = "test";
        return spec;
    }

    private Coordinator coordinator(List<AgentClient> agents) {
        BrokerProbe probe = new BrokerProbe(admin, List.of("127.0.0.1:" + sink.port()), null, null, Map.of());
        return new Coordinator(agents, admin, probe, List.of(), new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    private static Workload small() {
        return Workload.defaults().withThreadsPerAgent(2).withWarmupDurationSeconds(1).withTestDurationSeconds(2);
    }

    @Test
    void syncRunWithTwoAgentsAddsUp() throws Exception {
        RunResult r = coordinator(agents(2)).run(spec(small()));
        assertEquals("ok", r.status);
        assertEquals(2, r.agents.size());
        assertTrue(r.counts.acked > 0, "something was acknowledged");
        assertTrue(r.counts.balanced(), ProducerResults.describe(r.counts));
        assertTrue(r.totalCounts.balanced(), ProducerResults.describe(r.totalCounts));
        assertEquals(0, r.counts.failed);
        assertEquals(r.agents.get(0).counts.acked + r.agents.get(1).counts.acked, r.counts.acked);
        // Every acknowledged send of the run, warm-up included, reached the sink exactly once.
        assertEquals(r.totalCounts.acked, sink.messages());
        assertEquals(r.counts.acked, r.latencyMs.count, "one latency per acknowledged send in the window");
        assertEquals(r.counts.acked, r.byStatus.get("SEND_OK"));
        assertTrue(r.tps > 0);
        assertNull(r.sendDelayMs, "not rate-limited");
        assertNotNull(r.broker.messagesStored);
        assertNull(r.broker.storedBytesPerMsg, "the sink stores nothing");
        assertEquals(3, r.progress.size(), "one progress point per second of warm-up and measurement");
        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("[test] warm-up") && out.contains("[test] measure"), out);
        assertTrue(r.warnings.isEmpty(), r.warnings.toString());
    }

    @Test
    void asyncAndOnewayAddUp() throws Exception {
        List<AgentClient> agents = agents(1);
        RunResult async = coordinator(agents).run(spec(small().withSendMode(SendMode.ASYNC)));
        assertTrue(async.counts.acked > 0);
        assertTrue(async.counts.balanced(), ProducerResults.describe(async.counts));
        assertEquals(0, async.counts.inFlight);

        long before = sink.messages();
        RunResult oneway = coordinator(agents).run(spec(small().withSendMode(SendMode.ONEWAY)));
        assertEquals(0, oneway.counts.acked, "oneway sends are never acknowledged");
        assertTrue(oneway.counts.unconfirmed > 0);
        assertTrue(oneway.counts.balanced(), ProducerResults.describe(oneway.counts));
        assertTrue(oneway.tps > 0);
        // Oneway messages may still be on the wire when the agent stops; they arrive shortly after.
        long deadline = System.currentTimeMillis() + 5000;
        while (sink.messages() - before < oneway.totalCounts.unconfirmed && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(oneway.totalCounts.unconfirmed, sink.messages() - before);
    }

    @Test
    void rateLimitedRunRecordsSendDelayAndKeepsTheRate() throws Exception {
        RunResult r = coordinator(agents(2)).run(spec(small().withProducerRate(200)));
        assertNotNull(r.sendDelayMs, "send delay is recorded when rate-limited");
        assertEquals(r.counts.acked, r.sendDelayMs.count);
        // 200 msg/s for a 2 s window: a generous bound that no timing noise reaches, but an unlimited run does.
        assertTrue(r.counts.sent <= 200 * 2 * 2, "sent " + r.counts.sent);
    }

    @Test
    void maxRateSearchSetsARateEveryControlPeriodAndLosesNoSends() throws Exception {
        // 1 s warm-up and 5 s measured: the 3 s control periods end at the measured phase's seconds 2 and 5.
        RunResult r = coordinator(agents(2)).run(spec(small().withTestDurationSeconds(5).withMaxRateSearch()));
        assertEquals("ok", r.status, r.error);
        assertEquals(2, r.rateSearch.size(), "one step per control period");
        assertEquals("measure", r.rateSearch.get(0).phase);
        assertEquals(2, r.rateSearch.get(0).second);
        assertEquals(5, r.rateSearch.get(1).second);
        assertTrue(r.rateSearch.get(0).rate >= 1, "never 0: an agent given 0 would send unlimited");
        assertTrue(r.workload.maxRateSearch);
        assertNotNull(r.sendDelayMs, "the search sends rate-limited");
        assertTrue(r.counts.balanced() && r.totalCounts.balanced(), ProducerResults.describe(r.totalCounts));
        assertEquals(r.totalCounts.acked, sink.messages(), "rate changes lose no acknowledged send");
        assertEquals(6, r.progress.size());
        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("[test] producerRate 0: searching for the maximum sustainable rate from 10,000 msg/s"), out);
        assertTrue(out.contains("[test] rate search: next "), out);
    }

    @Test
    void unreachableAgentEndsTheRunWithItsName() throws Exception {
        List<AgentClient> agents = new ArrayList<>(agents(1));
        agents.add(new AgentClient("agent-ghost", "127.0.0.1:" + FreePorts.any(), TOKEN, null));
        RunFailedException e = assertThrows(RunFailedException.class, () -> coordinator(agents).run(spec(small())));
        assertTrue(e.getMessage().contains("agent-ghost") && e.getMessage().contains("cannot be reached"), e.getMessage());
        assertEquals("failed", e.partial().status);
        assertEquals(e.getMessage(), e.partial().error);
    }

    @Test
    void agentThatCannotConnectSaysWhy() throws Exception {
        RunSpec spec = spec(small());
        spec.namesrv = "127.0.0.1:" + FreePorts.any();
        spec.createTopics = false;
        spec.routeWaitMs = 1000;
        RunFailedException e = assertThrows(RunFailedException.class, () -> coordinator(agents(1)).run(spec));
        assertTrue(e.getMessage().contains("agent-1") && e.getMessage().contains("no usable route"), e.getMessage());
        assertTrue(e.getMessage().contains(spec.namesrv), e.getMessage());
    }

    @Test
    void agentsAreReusableAfterAFailedRun() throws Exception {
        List<AgentClient> agents = agents(1);
        RunSpec bad = spec(small());
        bad.namesrv = "127.0.0.1:" + FreePorts.any();
        bad.createTopics = false;
        bad.routeWaitMs = 500;
        assertThrows(RunFailedException.class, () -> coordinator(agents).run(bad));
        assertEquals("ok", coordinator(agents).run(spec(small())).status);
    }

    @Test
    void wireClientAgainstTheRawSinkAddsUpInEveryMode() throws Exception {
        List<AgentClient> agents = agents(1);
        try (dev.rmqpatch.bench.sink.RawSinkServer raw = new dev.rmqpatch.bench.sink.RawSinkServer("127.0.0.1", 0, 18, 1, null)) {
            String addr = "127.0.0.1:" + raw.port();
            BrokerProbe probe = new BrokerProbe(admin, List.of(addr), null, null, Map.of());
            for (SendMode mode : SendMode.values()) {
                long before = raw.messages();
                RunSpec spec = spec(small().withSendMode(mode).withClient(dev.rmqpatch.bench.workload.ClientMode.WIRE));
                spec.namesrv = addr;
                RunResult r = new Coordinator(agents, admin, probe, List.of(), new PrintStream(printed, true, StandardCharsets.UTF_8)).run(spec);
                assertEquals("ok", r.status, r.error);
                assertEquals("wire", r.clientMode);
                assertEquals("wire", r.workload.client);
                assertTrue(r.counts.balanced() && r.totalCounts.balanced(), ProducerResults.describe(r.counts));
                assertEquals(0, r.counts.failed, "" + r.byError);
                assertEquals(0, r.counts.inFlight);
                assertTrue(r.tps > 0);
                long expected = mode == SendMode.ONEWAY ? r.totalCounts.unconfirmed : r.totalCounts.acked;
                long deadline = System.currentTimeMillis() + 5000;
                while (raw.messages() - before < expected && System.currentTimeMillis() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals(expected, raw.messages() - before, mode + ": every send the agent counted reached the sink once");
                if (mode != SendMode.ONEWAY) {
                    assertEquals(r.counts.acked, r.latencyMs.count);
                }
            }
        }
    }
}
