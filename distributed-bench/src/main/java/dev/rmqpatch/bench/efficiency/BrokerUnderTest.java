package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.BrokerSample;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.profile.ProfiledJvm;
import java.util.List;

/**
 * One variant's broker as the window loop sees it: where its figures come from (a local broker: its own JVM's /proc CPU
 * and its own stored-message counter; a remote one: the same counter and its JVM's CPU over JMX, {@link RemoteBrokers}),
 * which processes must stay alive, and its profiler session when profiling.
 */
final class BrokerUnderTest {
    /** Takes the broker's counters at one instant; two samples bracket a window. */
    interface Source {
        BrokerSample sample() throws BrokerAdmin.AdminException;
    }

    final String variant;
    final Source probe;
    final List<ManagedProcess> watched;
    ProfiledJvm profiler;
    /** ms-sync: the slave's profiler session, resumed and paused with the master's. */
    ProfiledJvm slaveProfiler;
    /** Windows profiled so far (adjacent windows of one broker share one profiler session). */
    int profiledWindows;

    BrokerUnderTest(String variant, BrokerProbe probe, List<ManagedProcess> watched) {
        this(variant, probe::sample, watched);
    }

    BrokerUnderTest(String variant, Source probe, List<ManagedProcess> watched) {
        this.variant = variant;
        this.probe = probe;
        this.watched = List.copyOf(watched);
    }
}
