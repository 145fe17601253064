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
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.bench.broker.JmxTestJvm;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.sink.SinkServer;
import dev.rmqpatch.bench.workload.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.rmqpatch.bench.auth.AgentToken;

/** Broker figures over JMX in a whole (in-process) run: where they land, and that a broker without JMX fails nothing. */
class CoordinatorJmxTest {
    private static final AgentToken TOKEN = AgentToken.generate();
    private SinkServer sink;
    private BrokerAdmin admin;
    private AgentHttpServer server;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        sink = new SinkServer("127.0.0.1", 0, 18, 2);
        admin = new BrokerAdmin();
        server = new AgentHttpServer(new Agent("agent-1"), "127.0.0.1", 0, TOKEN, () -> { });
    }

    @AfterEach
    void tearDown() {
        server.close();
        admin.close();
        sink.close();
    }

    private RunResult run(JmxBrokerProbe jmx) throws Exception {
        RunSpec spec = new RunSpec();
        spec.workload = Workload.defaults().withThreadsPerAgent(2).withWarmupDurationSeconds(1).withTestDurationSeconds(2);
        spec.namesrv = "127.0.0.1:" + sink.port();
        spec.label = "test";
        BrokerProbe probe = new BrokerProbe(admin, List.of("127.0.0.1:" + sink.port()), null, null, Map.of());
        List<AgentClient> agents = List.of(new AgentClient("agent-1", "127.0.0.1:" + server.port(), TOKEN, null));
        return new Coordinator(agents, admin, probe, jmx, List.of(), new PrintStream(printed, true, StandardCharsets.UTF_8)).run(spec);
    }

    @Test
    void jmxFiguresFillTheBrokerFields() throws Exception {
        try (JmxTestJvm jvm = JmxTestJvm.start();
             JmxBrokerProbe jmx = new JmxBrokerProbe(List.of(jvm.target()), Duration.ofSeconds(20))) {
            RunResult r = run(jmx);
            assertEquals("ok", r.status);
            assertTrue(r.warnings.isEmpty(), r.warnings.toString());
            // The observed JVM is not the sink, so only presence is checked here; the value is JmxBrokerProbeTest's.
            assertNotNull(r.broker.cpuUsPerMsg);
            assertNotNull(r.broker.brokerCores);
            assertNotNull(r.broker.gcPauseMillis);
            assertNotNull(r.broker.gcCollections);
        }
    }

    @Test
    void anUnreachableBrokerLeavesTheFiguresEmptyWithAWarning() throws Exception {
        String ghost = "127.0.0.1:" + FreePorts.any();
        try (JmxBrokerProbe jmx = new JmxBrokerProbe(List.of(ghost), Duration.ofSeconds(5))) {
            RunResult r = run(jmx);
            assertEquals("ok", r.status);
            assertNull(r.broker.cpuUsPerMsg);
            assertNull(r.broker.gcPauseMillis);
            assertNotNull(r.broker.messagesStored, "the admin-API figures are unaffected");
            assertEquals(1, r.warnings.size(), r.warnings.toString());
            assertTrue(r.warnings.get(0).contains(ghost), r.warnings.get(0));
            assertTrue(printed.toString(StandardCharsets.UTF_8).contains("WARNING: broker JMX " + ghost));
        }
    }
}
