package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.Topology;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A SYNC_MASTER and its SLAVE from a stock 4.9.4, 4.9.7 and 4.9.8 install whose lib/ patch-lib patched (P23, P24 and P37 on the
 * replication path there, P38 in the jars (it ships off), P13 and P15 as their 4.9.3+ variants; P14, P16 and P19 left out): a stock 4.9.0 client's sends are
 * SEND_OK only once the slave holds them, and read back whole; the slave reaches the master's CommitLog end, and its
 * CommitLog is the master's byte for byte. With the slave paused (SIGSTOP: connected, acknowledging nothing) a send is
 * answered FLUSH_SLAVE_TIMEOUT at the release's slaveTimeout (1.5 s here), not at syncFlushTimeout (6 s here), as
 * stock 4.9.3+'s doWaitTransfer does with the request's own deadline; with the slave stopped, SLAVE_NOT_AVAILABLE, as
 * stock's submitReplicaRequest answers when isSlaveOK is false (CommitLog.java lines 891-900 of 4.9.7, which no patch
 * edits). The control (P13 and P15 off) runs on 4.9.7.
 */
class ReleaseMasterSlaveIT {

    private static final int MESSAGES = 200;

    @TempDir
    Path tmp;

    /** The releases whose HAService and CommitLog replica path P13's variant was read against: 4.9.3+'s. */
    static List<String> laterReleases() {
        return ReleaseInstalls.releases().stream().filter(r -> !r.equals("4.9.0")).collect(Collectors.toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laterReleases")
    void aPairPatchedByPatchLibReplicatesEveryAcknowledgedMessage(String release) throws Exception {
        Path dist = ReleaseInstalls.patched(release, tmp);
        String report = Files.readString(dist.resolve("lib").resolve("rmqpatch").resolve("report.txt"));
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P23 ha-gather-write") && l.contains(" applied")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P37 ha-ack-per-read") && l.contains(" applied")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P38 reput-wakeup") && l.contains(" applied")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P13 replica-ack") && l.contains("as variant")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P15 direct-response") && l.contains("as variant")), report);
        try (TestCluster tc = new TestCluster(dist, "ms-sync/broker-a.conf", "slaveTimeout=" + SLAVE_TIMEOUT_MS,
            "syncFlushTimeout=" + SYNC_FLUSH_TIMEOUT_MS).topology(Topology.MS_SYNC).start()) {
            DropInIT.roundTrip(tc, release + " SYNC_MASTER + SLAVE patched by patch-lib", MESSAGES);
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
            // The master's start-up line: both variants in the jars and running.
            String line = Files.readAllLines(tc.brokerLog(), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("rmqpatch: patches in the jars: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no rmqpatch start-up line in " + tc.brokerLog()));
            String inJars = line.substring(line.indexOf("patches in the jars: ")).split(";")[0];
            String active = line.substring(line.indexOf("; active: ")).split(";")[1];
            for (String label : new String[] {"P13 replica-ack", "P15 direct-response"}) {
                assertTrue(inJars.contains(label), label + " not in the jars: " + line);
                assertTrue(active.contains(label.split(" ")[0]), label + " not active: " + line);
            }
            slaveAnswersAsStock(tc, cluster, release + ": P13 and P15 as variants");
            // Clean shutdowns flush what each holds (the slave was stopped above).
            cluster.stop(cluster.master());
            assertArrayEquals(prefix(cluster.master().store().resolve("commitlog"), masterEnd),
                prefix(cluster.slave().store().resolve("commitlog"), masterEnd), "the slave's CommitLog is not the master's");
            System.out.println("[ReleaseMasterSlaveIT] " + MESSAGES + " messages SEND_OK and read back; CommitLog end "
                + masterEnd + " on both, the same bytes");
        }
    }

    /**
     * The control: the same install with -Drmqpatch.disable=P13,P15 runs stock 4.9.7's code on those paths (the
     * switches' bridges) and gives the same answers within the same bounds.
     */
    @Test
    void withP13AndP15DisabledThePairAnswersAsStock497() throws Exception {
        Path dist = tmp.resolve("rocketmq-4.9.7-patch-lib");
        PatchLibDist.make(TestCluster.dist("stock497"), dist);
        try (TestCluster tc = new TestCluster(dist, "ms-sync/broker-a.conf", "slaveTimeout=" + SLAVE_TIMEOUT_MS,
            "syncFlushTimeout=" + SYNC_FLUSH_TIMEOUT_MS).topology(Topology.MS_SYNC).javaOpt("-Drmqpatch.disable=P13,P15")
            .start()) {
            DropInIT.roundTrip(tc, "4.9.7 SYNC_MASTER + SLAVE, P13 and P15 off", 20);
            String line = Files.readAllLines(tc.brokerLog(), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("rmqpatch: patches in the jars: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no rmqpatch start-up line in " + tc.brokerLog()));
            String active = line.substring(line.indexOf("; active: ")).split(";")[1];
            assertTrue(!active.contains("P13") && !active.contains("P15") && line.contains("[P13, P15]"), line);
            slaveAnswersAsStock(tc, tc.cluster(), "P13 and P15 disabled (stock 4.9.7's paths)");
        }
    }

    private static final int SLAVE_TIMEOUT_MS = 1_500;
    private static final int SYNC_FLUSH_TIMEOUT_MS = 6_000;

    /**
     * Stock 4.9.3+'s answers with the slave paused (FLUSH_SLAVE_TIMEOUT at the request's deadline, slaveTimeout) and
     * with it stopped (SLAVE_NOT_AVAILABLE once the master has dropped the connection; a send that was queued before
     * that times out as above). The slave is stopped afterwards.
     */
    private static void slaveAnswersAsStock(TestCluster tc, LocalCluster cluster, String what) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("release-ms-it-producer");
        producer.setNamesrvAddr(tc.namesrvAddr());
        producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
        producer.start();
        try {
            Message m = new Message("ReleaseMasterSlaveIT", "t", "paused", "slave paused".getBytes(StandardCharsets.UTF_8));
            assertEquals(SendStatus.SEND_OK, producer.send(m).getSendStatus(), "the pair answers before the pause");
            long pid = cluster.slave().process().pid();
            signal("STOP", pid);
            long took;
            SendResult paused;
            try {
                long t0 = System.nanoTime();
                paused = producer.send(m);
                took = (System.nanoTime() - t0) / 1_000_000;
            } finally {
                signal("CONT", pid);
            }
            assertEquals(SendStatus.FLUSH_SLAVE_TIMEOUT, paused.getSendStatus(), "slave paused: " + paused);
            assertTrue(took >= SLAVE_TIMEOUT_MS - 100 && took < SYNC_FLUSH_TIMEOUT_MS - 1_000,
                "answered after " + took + " ms: 4.9.3+ times out at slaveTimeout " + SLAVE_TIMEOUT_MS
                    + " ms (the request's deadline), not syncFlushTimeout " + SYNC_FLUSH_TIMEOUT_MS + " ms");
            cluster.stop(cluster.slave());
            SendStatus stopped = null;
            for (int i = 0; i < 5 && stopped != SendStatus.SLAVE_NOT_AVAILABLE; i++) {
                stopped = producer.send(m).getSendStatus();
                assertTrue(stopped == SendStatus.SLAVE_NOT_AVAILABLE || stopped == SendStatus.FLUSH_SLAVE_TIMEOUT,
                    "slave stopped: " + stopped);
            }
            assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, stopped, "slave stopped, the master has dropped it");
            System.out.println("[ReleaseMasterSlaveIT] " + what + ": slave paused: FLUSH_SLAVE_TIMEOUT after " + took
                + " ms; slave stopped: SLAVE_NOT_AVAILABLE");
        } finally {
            producer.shutdown();
        }
    }

    /** Sends a signal to a broker process this test started. */
    private static void signal(String name, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor(), "kill -" + name + " " + pid);
    }

    /** The first {@code length} bytes of a CommitLog (within its first file). */
    private static byte[] prefix(Path commitLogDir, long length) throws Exception {
        byte[] all = Files.readAllBytes(commitLogDir.resolve("00000000000000000000"));
        assertTrue(length <= all.length, "the messages span more than one CommitLog file");
        return Arrays.copyOf(all, (int) length);
    }
}
