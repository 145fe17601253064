package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.agent.Agent;
import dev.rmqpatch.bench.agent.AgentHttpServer;
import dev.rmqpatch.bench.auth.AgentToken;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agents' clock offsets, against agents behind their real HTTP servers in this JVM: not local processes, so probed
 * over HTTP, yet reading this JVM's clock, so each offset must lie within its own uncertainty.
 */
class AgentClocksTest {
    private static final AgentToken TOKEN = AgentToken.generate();
    private final List<AgentHttpServer> servers = new ArrayList<>();

    @AfterEach
    void tearDown() {
        servers.forEach(AgentHttpServer::close);
    }

    @Test
    void sameClockOffsetsLieWithinTheirUncertainty() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            AgentHttpServer server = new AgentHttpServer(new Agent("agent-" + i), "127.0.0.1", 0, TOKEN, () -> { });
            servers.add(server);
            agents.add(new AgentClient("agent-" + i, "127.0.0.1:" + server.port(), TOKEN, null));
        }
        RunResult.ClockView v = AgentClocks.measure(agents, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(AgentClocks.METHOD, v.method);
        assertEquals(Set.of("agent-1", "agent-2"), v.offsetMicros.keySet());
        assertEquals(Set.of("agent-1", "agent-2"), v.uncertaintyMicros.keySet());
        for (String name : v.offsetMicros.keySet()) {
            long offset = v.offsetMicros.get(name);
            // The agent read the clock between the call's two readings: at most half the round trip from its midpoint.
            assertTrue(Math.abs(offset) <= v.uncertaintyMicros.get(name) + 1, name + ": offset " + offset + " us, uncertainty "
                + v.uncertaintyMicros.get(name) + " us");
            assertEquals(offset, AgentClocks.offsetOf(v, name));
        }
        assertEquals(0, AgentClocks.offsetOf(v, "agent-unknown"));
        assertEquals(0, AgentClocks.offsetOf(null, "agent-1"), "clocks not measured (no consumers): offset 0");
    }
}
