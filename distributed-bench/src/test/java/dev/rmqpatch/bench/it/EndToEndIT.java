package dev.rmqpatch.bench.it;

import dev.rmqpatch.bench.broker.HarnessClusters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.RunsAlone;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.RunFailedException;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Coordinator with two agent processes against a real name server and broker from the stock distribution. */
// Alone: beside another test class, aBrokerThatDiesEndsTheRunWithAClearError once failed with the probe's "connect
// failed" instead of the broker's exit (which error the coordinator reports first is a race under load).
@RunsAlone
@Timeout(300)
class EndToEndIT {
    @TempDir
    Path dir;

    private LocalCluster.Spec clusterSpec() {
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = Dists.stock();
        spec.confName = "broker-tuned.conf";
        spec.brokerHeap = "512m";
        spec.workDir = dir.resolve("cluster");
        // Small CommitLog files: the test writes a few MB, no need to map 1 GB.
        spec.overrides.put("mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024));
        // Its store is thrown away at close, as in the harness's comparisons: no clean shutdown to wait for.
        spec.stopGrace = Duration.ZERO;
        return spec;
    }

    private static RunSpec runSpec(String namesrv) {
        RunSpec spec = new RunSpec();
        spec.workload = Workload.defaults().withThreadsPerAgent(4).withWarmupDurationSeconds(1).withTestDurationSeconds(3);
        spec.namesrv = namesrv;
        spec.label = "e2e";
        return spec;
    }

    @Test
    void twoAgentsAgainstARealBrokerCountsAddUp() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try (BrokerAdmin admin = new BrokerAdmin(); LocalCluster cluster = HarnessClusters.start(clusterSpec(), admin)) {
            agents.addAll(LocalAgents.launch(2, dir.resolve("agents"), LocalAgents.DEFAULT_JVM_OPTIONS));
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), HarnessClusters.gcMonitor(cluster),
                Map.of("broker", List.of(cluster.brokerPid())));
            RunSpec spec = runSpec(cluster.namesrvAddr());
            RunResult r = new Coordinator(agents, admin, probe, List.of(cluster.brokerProcess()), System.out).run(spec);

            assertEquals("ok", r.status, r.error);
            assertEquals(2, r.agents.size());
            for (RunResult.AgentView a : r.agents) {
                assertTrue(a.counts.acked > 0, a.name + " sent nothing");
                assertBalanced(a.name + " window", a.counts);
                assertBalanced(a.name + " total", a.totalCounts);
                assertTrue(a.pid != ProcessHandle.current().pid(), "agents run in their own JVMs");
            }
            assertBalanced("window", r.counts);
            assertBalanced("total", r.totalCounts);
            assertEquals(r.agents.get(0).totalCounts.acked + r.agents.get(1).totalCounts.acked, r.totalCounts.acked);

            // What the broker stored equals what it acknowledged, over the whole run (warm-up included).
            long stored = storedEventually(admin, cluster.brokerAddr(), spec.topics().get(0), r.totalCounts.acked);
            if (r.totalCounts.failed == 0) {
                assertEquals(r.totalCounts.acked, stored);
            } else {
                // A send that timed out may still have been stored; never more than was sent.
                assertTrue(stored >= r.totalCounts.acked && stored <= r.totalCounts.acked + r.totalCounts.failed,
                    "stored " + stored + " vs " + r.totalCounts.acked + " acked + " + r.totalCounts.failed + " failed");
            }

            assertNotNull(r.broker.cpuUsPerMsg, "broker CPU from /proc");
            assertTrue(r.broker.cpuUsPerMsg > 0);
            assertNotNull(r.broker.storedBytesPerMsg);
            // Each stored message is its 300-byte body plus topic, properties and the fixed CommitLog header.
            assertTrue(r.broker.storedBytesPerMsg > 300 && r.broker.storedBytesPerMsg < 1300, "" + r.broker.storedBytesPerMsg);
            assertTrue(r.broker.messagesStored > 0);
            assertEquals(r.counts.acked, r.latencyMs.count);
        } finally {
            LocalAgents.stop(agents);
        }
        for (AgentClient a : agents) {
            assertTrue(!a.process().isAlive(), a.name() + " was stopped");
        }
    }

    @Test
    void aBrokerThatDiesEndsTheRunWithAClearError() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try (BrokerAdmin admin = new BrokerAdmin(); LocalCluster cluster = HarnessClusters.start(clusterSpec(), admin)) {
            agents.addAll(LocalAgents.launch(1, dir.resolve("agents"), LocalAgents.DEFAULT_JVM_OPTIONS));
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), null, Map.of());
            RunSpec spec = runSpec(cluster.namesrvAddr());
            spec.workload = spec.workload.withTestDurationSeconds(30);
            Thread killer = new Thread(() -> {
                sleep(4000);
                ProcessHandle.of(cluster.brokerPid()).ifPresent(ProcessHandle::destroyForcibly);
            });
            killer.start();
            RunFailedException e = assertThrows(RunFailedException.class,
                () -> new Coordinator(agents, admin, probe, List.of(cluster.brokerProcess()), System.out).run(spec));
            killer.join();
            assertTrue(e.getMessage().contains("broker") && e.getMessage().contains("exited with code"), e.getMessage());
            assertEquals("failed", e.partial().status);
            assertTrue(!e.partial().progress.isEmpty(), "progress until the failure is kept");
            // The agent was told to drop the run and can serve the next one.
            assertEquals("IDLE", agents.get(0).status().state);
        } finally {
            LocalAgents.stop(agents);
        }
    }

    private static void assertBalanced(String what, Counts c) {
        assertTrue(c.balanced(), what + ": sent " + c.sent + " != acked " + c.acked + " + failed " + c.failed
            + " + unconfirmed " + c.unconfirmed + " + in flight " + c.inFlight);
        assertEquals(0, c.inFlight, what + ": sync sends are never left in flight");
    }

    /** Consume queues are built asynchronously after the CommitLog append; wait until they caught up (bounded). */
    private static long storedEventually(BrokerAdmin admin, String broker, String topic, long expected) throws Exception {
        long stored = admin.storedMessages(broker, topic);
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (stored < expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            stored = admin.storedMessages(broker, topic);
        }
        return stored;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
