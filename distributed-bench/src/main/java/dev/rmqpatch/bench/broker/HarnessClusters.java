package dev.rmqpatch.bench.broker;

import dev.rmqpatch.cluster.LocalCluster;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/**
 * The harness's way to start a {@link LocalCluster}: a broker counts as up once the name server lists it and its
 * statistics answer (a 4.9 broker fails runtime-info requests during its first second, before the stats sampler has
 * run once), and the master's GC is watched with jstat (the broker's own JDK's) from then on.
 */
public final class HarnessClusters {
    private HarnessClusters() {
    }

    public static LocalCluster start(LocalCluster.Spec spec, BrokerAdmin admin) throws LocalCluster.ClusterException {
        spec.readiness = (cluster, broker) -> {
            String name = cluster.brokerName(broker);
            Map<Long, String> addrs = admin.brokers(cluster.namesrvAddr()).get(name);
            if (addrs == null || !broker.addr().equals(addrs.get(broker.brokerId()))) {
                return "registration at the name server as brokerId " + broker.brokerId() + " of " + name
                    + " (registered: " + addrs + ")";
            }
            admin.runtimeInfo(broker.addr());
            return null;
        };
        LocalCluster cluster = LocalCluster.start(spec);
        try {
            cluster.attach(GcMonitor.start(cluster.brokerPid(), spec.javaHome, spec.workDir.resolve("broker-gc.jstat")));
        } catch (IOException e) {
            cluster.close();
            throw new LocalCluster.ClusterException("cannot start the GC monitor of the broker: " + e.getMessage(), e);
        }
        return cluster;
    }

    /** The master's GC monitor, started by {@link #start}. */
    public static GcMonitor gcMonitor(LocalCluster cluster) {
        return cluster.attached(GcMonitor.class)
            .orElseThrow(() -> new IllegalStateException("cluster not started by HarnessClusters.start"));
    }

    /**
     * Reads the master's and the slave's CommitLog max offsets after the load, waiting up to {@code catchUp} for them to
     * match; the slave applies what the master pushed asynchronously, so a last batch can still be in flight.
     */
    public static Replication replication(LocalCluster cluster, BrokerAdmin admin, Duration catchUp) throws BrokerAdmin.AdminException {
        if (cluster.slaveAddr() == null) {
            throw new IllegalStateException("no slave in topology " + cluster.topology());
        }
        Replication r = new Replication();
        r.masterAddr = cluster.brokerAddr();
        r.slaveAddr = cluster.slaveAddr();
        long start = System.nanoTime();
        long deadline = start + catchUp.toNanos();
        while (true) {
            r.masterCommitLogMaxOffset = admin.commitLogMaxOffset(r.masterAddr);
            r.slaveCommitLogMaxOffset = admin.commitLogMaxOffset(r.slaveAddr);
            r.slaveBehindBytes = r.masterCommitLogMaxOffset - r.slaveCommitLogMaxOffset;
            r.waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            if (r.caughtUp() || System.nanoTime() > deadline) {
                return r;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the slave", e);
            }
        }
    }
}
