package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.RunsAlone;
import dev.rmqpatch.bench.agent.Agent;
import dev.rmqpatch.bench.agent.AgentHttpServer;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.AgentGroup;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.sink.SinkServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.rmqpatch.bench.auth.AgentToken;

/**
 * The window loop against two no-op sinks standing in for two variants' brokers, with a real agent behind its HTTP
 * server, all in this JVM on loopback: the load moves between the targets in the counterbalanced order, each window
 * counts its own target's messages, and a paused agent sends nothing. Windows are short and nothing about speed is
 * asserted.
 */
@RunsAlone
class WindowRunnerInProcessTest {
    private static final AgentToken TOKEN = AgentToken.generate();
    private final List<SinkServer> sinks = new ArrayList<>();
    private AgentHttpServer server;
    private AgentGroup group;
    private BrokerAdmin admin;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        sinks.add(new SinkServer("127.0.0.1", 0, 4, 2));
        sinks.add(new SinkServer("127.0.0.1", 0, 4, 2));
        admin = new BrokerAdmin();
        server = new AgentHttpServer(new Agent("agent-1"), "127.0.0.1", 0, TOKEN, () -> { });
        group = new AgentGroup(List.of(new AgentClient("agent-1", "127.0.0.1:" + server.port(), TOKEN, null)));
    }

    @AfterEach
    void tearDown() {
        if (group != null) {
            group.close();
        }
        if (server != null) {
            server.close();
        }
        if (admin != null) {
            admin.close();
        }
        sinks.forEach(SinkServer::close);
    }

    private String addr(int i) {
        return "127.0.0.1:" + sinks.get(i).port();
    }

    /** The agent prepared for both sinks (a topic each) and started, waiting for its first switch. */
    private void prepareBothTargets() throws Exception {
        PrepareRequest prepare = new PrepareRequest();
        prepare.runId = "t";
        prepare.targets = List.of(new PrepareRequest.Target(addr(0), List.of("topic-a")), new PrepareRequest.Target(addr(1), List.of("topic-b")));
        prepare.partitionsPerTopic = 4;
        prepare.messageSize = 100;
        prepare.producersPerTopic = 1;
        prepare.threads = 2;
        prepare.mode = "sync";
        prepare.sendTimeoutMs = 3000;
        prepare.maxOutstanding = 100;
        group.forAll(a -> a.prepare(prepare));
        group.forAll(a -> a.start(0));
    }

    private static List<Slot> twoPairs() {
        List<Slot> slots = new ArrayList<>();
        for (int pair = 0; pair < 2; pair++) {
            for (int v : WindowOrder.of(pair, 2)) {
                slots.add(new Slot(v, 500, Window.MEASURE, pair + 1, Placement.UNPINNED, false));
            }
        }
        return slots;
    }

    @Test
    void loadMovesBetweenTargetsAndEachWindowCountsItsOwnBroker() throws Exception {
        prepareBothTargets();
        Thread.sleep(300);
        assertEquals(0, sinks.get(0).messages() + sinks.get(1).messages(), "with several targets the agent waits for the first switch");

        List<BrokerUnderTest> brokers = List.of(
            new BrokerUnderTest("a", new BrokerProbe(admin, List.of(addr(0)), null, null, Map.of()), List.of()),
            new BrokerUnderTest("b", new BrokerProbe(admin, List.of(addr(1)), null, null, Map.of()), List.of()));
        List<String> warnings = new ArrayList<>();
        WindowRunner runner = new WindowRunner(group, brokers, List.of(), Duration.ofMillis(400),
            new PrintStream(printed, true, StandardCharsets.UTF_8), warnings);
        List<Window> seen = new ArrayList<>();
        List<Window> windows = runner.run(twoPairs(), seen::add);

        assertEquals(windows, seen, "each window is handed over as it closes");
        assertEquals(List.of("a", "b", "b", "a"), windows.stream().map(w -> w.variant).toList());
        long[] counted = new long[2];
        for (Window w : windows) {
            assertNotNull(w.messagesStored);
            assertTrue(w.messagesStored > 0, "window " + w.index + " loaded its own target");
            assertEquals(500.0, w.targetRateMsgPerS);
            assertNotNull(w.heldRate);
            assertTrue(w.latencyMs.count > 0);
            counted[w.variant.equals("a") ? 0 : 1] += w.messagesStored;
        }
        // B's two adjacent windows share one sample, so no message is counted twice.
        assertTrue(counted[0] <= sinks.get(0).messages() && counted[1] <= sinks.get(1).messages(),
            counted[0] + "/" + sinks.get(0).messages() + ", " + counted[1] + "/" + sinks.get(1).messages());
        assertTrue(warnings.isEmpty(), warnings.toString());
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("[measure     pair   2] b"), printed.toString(StandardCharsets.UTF_8));

        Thread.sleep(200);
        long[] paused = {sinks.get(0).messages(), sinks.get(1).messages()};
        Thread.sleep(300);
        assertEquals(paused[0], sinks.get(0).messages(), "paused after the sequence");
        assertEquals(paused[1], sinks.get(1).messages(), "paused after the sequence");
        assertFalse(group.forAll(a -> a.stop(Duration.ofSeconds(10))).isEmpty());
    }

    /**
     * --freeze-idle (signals recorded, the sinks keep running): every sample of a variant is taken while it alone runs,
     * the load pauses between two variants' windows (so the one left is stopped before the next continues), adjacent
     * windows of one variant stay one stretch, and the sequence starts and ends with every variant stopped.
     */
    @Test
    void withFreezingEachVariantRunsOnlyForItsOwnWindowsAndTheirSamples() throws Exception {
        prepareBothTargets();
        List<String> sent = new ArrayList<>();
        boolean[] running = {true, true};
        IdleFreeze freeze = new IdleFreeze(List.of(List.of(10L), List.of(11L)), (pid, stop) -> {
            sent.add((stop ? "STOP " : "CONT ") + pid);
            running[(int) (pid - 10)] = !stop;
        }, Duration.ofMillis(20));
        List<String> wrong = new ArrayList<>();
        List<BrokerUnderTest> brokers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int own = i;
            BrokerProbe probe = new BrokerProbe(admin, List.of(addr(i)), null, null, Map.of());
            brokers.add(new BrokerUnderTest(i == 0 ? "a" : "b", () -> {
                if (!running[own] || running[1 - own]) {
                    wrong.add("sample of " + own + " with running " + running[0] + "," + running[1]);
                }
                return probe.sample();
            }, List.of()));
        }
        WindowRunner runner = new WindowRunner(group, brokers, List.of(), Duration.ofMillis(400),
            new PrintStream(printed, true, StandardCharsets.UTF_8), new ArrayList<>());
        runner.freezeWith(freeze);
        List<Window> windows = runner.run(twoPairs(), w -> { });

        assertEquals(List.of("a", "b", "b", "a"), windows.stream().map(w -> w.variant).toList());
        assertEquals(List.of(), wrong);
        assertEquals(List.of("STOP 10", "STOP 11", "CONT 10", "STOP 10", "CONT 11", "STOP 11", "CONT 10", "STOP 10"), sent,
            "b's two adjacent windows are one stretch");
        assertTrue(freeze.frozen(0) && freeze.frozen(1), "the sequence ends with every variant stopped");
        for (Window w : windows) {
            assertTrue(w.messagesStored != null && w.messagesStored > 0, "window " + w.index + " loaded its own target");
        }
        freeze.close();
        assertFalse(group.forAll(a -> a.stop(Duration.ofSeconds(10))).isEmpty());
    }

    /**
     * --clients' routing: two agents (two clients) and one sink (the one broker); each window only its client's agent
     * sends, and the window counts that agent's acknowledged messages and its JVM's CPU (here this JVM's).
     */
    @Test
    void clientWindowsLoadOnlyTheirOwnClientsAgent() throws Exception {
        AgentHttpServer second = new AgentHttpServer(new Agent("agent-2"), "127.0.0.1", 0, TOKEN, () -> { });
        AgentGroup two = new AgentGroup(List.of(new AgentClient("agent-1", "127.0.0.1:" + server.port(), TOKEN, null),
            new AgentClient("agent-2", "127.0.0.1:" + second.port(), TOKEN, null)));
        try {
            PrepareRequest prepare = new PrepareRequest();
            prepare.runId = "c";
            prepare.targets = List.of(new PrepareRequest.Target(addr(0), List.of("topic-a")));
            prepare.partitionsPerTopic = 4;
            prepare.messageSize = 100;
            prepare.producersPerTopic = 1;
            prepare.threads = 2;
            prepare.mode = "sync";
            prepare.sendTimeoutMs = 3000;
            prepare.maxOutstanding = 100;
            two.forAll(a -> a.prepare(prepare));
            two.forAll(a -> a.start(0));
            Map<String, List<Long>> roles = Map.of(WindowRunner.CLIENT_ROLE, List.of(ProcessHandle.current().pid()));
            List<BrokerUnderTest> clients = List.of(
                new BrokerUnderTest("stock", new BrokerProbe(admin, List.of(addr(0)), null, null, roles), List.of()),
                new BrokerUnderTest("patched", new BrokerProbe(admin, List.of(addr(0)), null, null, roles), List.of()));
            WindowRunner runner = new WindowRunner(two, clients, List.of(), Duration.ofMillis(400),
                new PrintStream(printed, true, StandardCharsets.UTF_8), new ArrayList<>());
            runner.routeWith(new ClientRouting(dev.rmqpatch.bench.engine.ClientVariant.Side.PRODUCER, new int[] {0, 1}));
            List<Slot> slots = new ArrayList<>();
            for (int pair = 0; pair < 2; pair++) {
                for (int v : WindowOrder.of(pair, 2)) {
                    slots.add(new Slot(v, 500, Window.MEASURE, pair + 1, Placement.UNPINNED, false));
                }
            }
            List<Window> windows = runner.run(slots, w -> { });
            assertEquals(List.of("stock", "patched", "patched", "stock"), windows.stream().map(w -> w.variant).toList());
            long handled = 0;
            for (Window w : windows) {
                assertNotNull(w.clientMessages, "window " + w.index);
                assertTrue(w.clientMessages > 0, "window " + w.index + ": its client's agent sent");
                // The other agent was paused: at most its last in-flight sync sends (one per thread) fall into this window.
                assertTrue(w.acked - w.clientMessages <= 2 * prepare.threads, w.acked + " acked, " + w.clientMessages + " by the window's client");
                assertNotNull(w.clientCpuUsPerMsg, "this JVM's CPU per message of the window's client");
                assertNotNull(w.clientKeptUp);
                handled += w.clientMessages;
            }
            assertTrue(handled <= sinks.get(0).messages(), handled + " of " + sinks.get(0).messages());
            assertTrue(printed.toString(StandardCharsets.UTF_8).contains("client "), printed.toString(StandardCharsets.UTF_8));
            two.forAll(a -> a.stop(Duration.ofSeconds(10)));
        } finally {
            two.close();
            second.close();
        }
    }
}
