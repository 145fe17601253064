package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SYNC_MASTER and its SLAVE from a stock 4.9.7 install whose lib/ patch-lib patched (P23 and P24 on the replication
 * path there; P13, P14, P16 and P19 left out): a stock 4.9.0 client's sends are SEND_OK only once the slave holds them,
 * and read back whole; the slave reaches the master's CommitLog end, and its CommitLog is the master's byte for byte.
 */
class ReleaseMasterSlaveIT {

    private static final int MESSAGES = 200;

    @TempDir
    Path tmp;

    @Test
    void a497PairPatchedByPatchLibReplicatesEveryAcknowledgedMessage() throws Exception {
        Path dist = tmp.resolve("rocketmq-4.9.7-patch-lib");
        String report = PatchLibDist.make(TestCluster.dist("stock497"), dist);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P23 ha-gather-write") && l.contains(" applied")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P13 replica-ack") && l.contains(" needs variant")), report);
        try (TestCluster tc = new TestCluster(dist, "ms-sync/broker-a.conf").topology(Topology.MS_SYNC).start()) {
            DropInIT.roundTrip(tc, "4.9.7 SYNC_MASTER + SLAVE patched by patch-lib", MESSAGES);
            LocalCluster cluster = tc.cluster();
            long masterEnd = RuntimeInfo.commitLogMaxOffset(cluster.master().addr());
            long slaveEnd = RuntimeInfo.commitLogMaxOffset(cluster.slave().addr());
            long deadline = System.currentTimeMillis() + 30_000;
            while (slaveEnd != masterEnd && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
                slaveEnd = RuntimeInfo.commitLogMaxOffset(cluster.slave().addr());
            }
            assertEquals(masterEnd, slaveEnd, "the slave's CommitLog end, 30 s after the last send");
            assertTrue(masterEnd > 0);
            // Clean shutdowns flush what each holds.
            cluster.stop(cluster.slave());
            cluster.stop(cluster.master());
            assertArrayEquals(prefix(cluster.master().store().resolve("commitlog"), masterEnd),
                prefix(cluster.slave().store().resolve("commitlog"), masterEnd), "the slave's CommitLog is not the master's");
            System.out.println("[ReleaseMasterSlaveIT] " + MESSAGES + " messages SEND_OK and read back; CommitLog end "
                + masterEnd + " on both, the same bytes");
        }
    }

    /** The first {@code length} bytes of a CommitLog (within its first file). */
    private static byte[] prefix(Path commitLogDir, long length) throws Exception {
        byte[] all = Files.readAllBytes(commitLogDir.resolve("00000000000000000000"));
        assertTrue(length <= all.length, "the messages span more than one CommitLog file");
        return Arrays.copyOf(all, (int) length);
    }
}
