package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.profile.ProfiledJvm;
import java.util.List;

/**
 * One variant's broker as the window loop sees it: where its figures come from (its own JVM's /proc CPU and its own
 * stored-message counter), which processes must stay alive, and its profiler session when profiling.
 */
final class BrokerUnderTest {
    final String variant;
    final BrokerProbe probe;
    final List<ManagedProcess> watched;
    ProfiledJvm profiler;
    /** ms-sync: the slave's profiler session, resumed and paused with the master's. */
    ProfiledJvm slaveProfiler;
    /** Windows profiled so far (adjacent windows of one broker share one profiler session). */
    int profiledWindows;

    BrokerUnderTest(String variant, BrokerProbe probe, List<ManagedProcess> watched) {
        this.variant = variant;
        this.probe = probe;
        this.watched = List.copyOf(watched);
    }
}
