package dev.rmqpatch.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The launcher's retry on a port collision, against a real name server and broker. It lives here, not in local-cluster,
 * because the distributions it starts are built by this module; it is in the launcher's package to replace its port
 * plan. The collision is the one a full build once hit: a port the broker binds besides its listen port (the VIP
 * channel at P-2) taken by another process after the ports were chosen.
 */
class PortCollisionIT {

    private static LocalCluster.Spec spec(Path dir, List<String> log) {
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = Path.of(System.getProperty("rmqpatch.dist.stock"));
        spec.workDir = dir;
        spec.brokerHeap = "384m";
        spec.namesrvHeap = "256m";
        spec.stopGrace = java.time.Duration.ZERO;
        spec.log = log::add;
        return spec;
    }

    @Test
    void aTakenVipPortIsRetriedOnNewPorts() throws Exception {
        Path dir = Files.createTempDirectory("rmqpatch-collision-");
        LocalCluster.Ports first = LocalCluster.Ports.allocate(Topology.SINGLE);
        AtomicInteger plans = new AtomicInteger();
        List<String> log = new ArrayList<>();
        try (ServerSocket squatter = new ServerSocket()) {
            squatter.bind(new InetSocketAddress("0.0.0.0", first.master() - 2));
            try (LocalCluster cluster = LocalCluster.start(spec(dir, log),
                topology -> plans.incrementAndGet() == 1 ? first : LocalCluster.Ports.allocate(topology))) {
                assertEquals(2, plans.get(), "one collision, one retry");
                assertTrue(cluster.master().process().isAlive());
                assertFalse(cluster.ports().bound().contains(first.master() - 2), "the retry chose other ports: " + cluster.ports());
                assertEquals(1, log.size(), log.toString());
                assertTrue(log.get(0).contains("taken by another process") && log.get(0).contains("attempt 2 of 3"), log.get(0));
            }
        } finally {
            LocalCluster.deleteTree(dir);
        }
    }

    @Test
    void otherStartFailuresAreNotRetried() throws Exception {
        Path dir = Files.createTempDirectory("rmqpatch-collision-");
        AtomicInteger plans = new AtomicInteger();
        List<String> log = new ArrayList<>();
        LocalCluster.Spec spec = spec(dir, log);
        // The broker dies at start on a JVM flag it does not know, not on a port.
        spec.brokerJvmOptions.add("-XX:+NoSuchFlagForRmqpatch");
        try {
            LocalCluster.ClusterException e = assertThrows(LocalCluster.ClusterException.class, () -> LocalCluster.start(spec,
                topology -> {
                    plans.incrementAndGet();
                    return LocalCluster.Ports.allocate(topology);
                }));
            assertEquals(1, plans.get(), "not a port collision: no retry");
            assertTrue(log.isEmpty(), log.toString());
            assertTrue(e.getMessage().contains("broker did not start or died") && e.getMessage().contains("NoSuchFlagForRmqpatch"),
                e.getMessage());
        } finally {
            LocalCluster.deleteTree(dir);
        }
    }
}
