package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.Topology;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One run's servers: a name server and two masters of the variant ({@link Topology#TWO_MASTERS}: broker-a, broker-b,
 * ASYNC_MASTER, ASYNC_FLUSH, the variant's conf, overrides and JDK), the stall agent on broker-a only, and the run's
 * topic created on both.
 */
final class FailoverCluster {
    private FailoverCluster() {
    }

    /** The stalled broker: the first master, the one whose JVM gets the stall agent. */
    static final String STALLED = LocalCluster.FIRST_MASTER;

    static LocalCluster.Spec spec(Variant v, FailoverOptions o, Path workDir) throws LocalCluster.ClusterException {
        LocalCluster.Spec cs = v.clusterSpec(o.distDir, v.overrides(Runtime.getRuntime().availableProcessors()));
        cs.topology = Topology.TWO_MASTERS;
        cs.brokerHeap = o.brokerHeap;
        cs.workDir = workDir;
        cs.stopGrace = Duration.ZERO;
        cs.masterJvmOptions.add(o.stall.jvmOption(o.stallAgentJar, o.stallAfterMillis(), o.stallTimes));
        return cs;
    }

    /** Starts the servers (each counted up once the name server lists it and it answers) and creates the topic on both. */
    static LocalCluster start(LocalCluster.Spec spec, BrokerAdmin admin) throws Exception {
        LocalCluster cluster = HarnessClusters.start(spec, admin);
        try {
            for (LocalCluster.Broker b : cluster.brokers()) {
                admin.createTopic(b.addr(), FailoverOptions.TOPIC, FailoverOptions.QUEUES_PER_BROKER);
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }
}
