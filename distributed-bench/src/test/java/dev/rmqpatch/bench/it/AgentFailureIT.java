package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.RunFailedException;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.sink.SinkServer;
import dev.rmqpatch.bench.workload.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An agent process that dies mid-run ends the run with its name and cause, not a hang or a bare status code. */
@Timeout(120)
class AgentFailureIT {
    @TempDir
    Path dir;

    @Test
    void aDeadAgentIsNamedWithItsExitCode() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try (SinkServer sink = new SinkServer("127.0.0.1", 0, 18, 2); BrokerAdmin admin = new BrokerAdmin()) {
            agents.addAll(LocalAgents.launch(2, dir, LocalAgents.DEFAULT_JVM_OPTIONS));
            RunSpec spec = new RunSpec();
            spec.workload = Workload.defaults().withThreadsPerAgent(2).withWarmupDurationSeconds(1).withTestDurationSeconds(60);
            spec.namesrv = "127.0.0.1:" + sink.port();
            spec.label = "kill";
            AgentClient victim = agents.get(1);
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(3000);
                } catch (InterruptedException e) {
                    return;
                }
                ProcessHandle.of(victim.process().pid()).ifPresent(ProcessHandle::destroyForcibly);
            });
            killer.start();
            RunFailedException e = assertThrows(RunFailedException.class,
                () -> new Coordinator(agents, admin, null, List.of(), System.out).run(spec));
            killer.join();
            assertTrue(e.getMessage().contains("agent-2") && e.getMessage().contains("exited with code"), e.getMessage());
            assertFalse(e.getMessage().contains("HTTP 500"), e.getMessage());
            assertEquals("failed", e.partial().status);
            assertEquals("IDLE", agents.get(0).status().state, "the surviving agent dropped the run");
        } finally {
            LocalAgents.stop(agents);
        }
    }
}
