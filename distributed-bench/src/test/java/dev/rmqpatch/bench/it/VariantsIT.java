package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.Topology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stock 4.9.8 and 5.3.3 variants (distributions broker-patches builds with scripts/stock-lib.sh), each started as
 * the harness starts a variant ({@link Variant#clusterSpec}, {@link HarnessClusters#start}: loopback, free ports,
 * stores in a temp folder, stopped at the end whatever happens), on the harness's JDK and on JDK 8, and 5.3.3 also as
 * a SYNC_MASTER with its SLAVE (classic master/slave, no controller), and 4.9.7-patched (rocketmq-4.9.7-stock with its
 * lib/ patched by patch-lib, scripts/patched-dist.sh; broker-patches makes it before the ITs): a stock 4.9.0 producer
 * (the project's client) sends messages with keys, tags and a user property, and a stock 4.9.0 pull consumer reads
 * every one back equal; 5.3.3's SYNC_MASTER answers a send FLUSH_SLAVE_TIMEOUT while its slave is paused, as 4.x's does.
 */
@Timeout(300)
class VariantsIT {
    private static final int MESSAGES = 40;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"4.9.8, single", "4.9.8@8, single", "5.3.3, single", "5.3.3@8, single", "5.3.3@8, ms-sync"})
    void aStock490ClientsMessagesComeBackEqual(String name, String topology) throws Exception {
        sendAndReadBack(name, topology);
    }

    /** A later release's patched variant (issue 45): its own test, so it can be run alone (-Dit.test=VariantsIT#...). */
    @Test
    void aStock490ClientsMessagesComeBackEqualFromPatched497() throws Exception {
        sendAndReadBack("4.9.7-patched", "single");
    }

    private void sendAndReadBack(String name, String topology) throws Exception {
        Variant v = Variant.parse(name);
        Path distDir = Dists.distDir();
        v.check(distDir);
        LocalCluster.Spec spec = v.clusterSpec(distDir, v.overrides(Runtime.getRuntime().availableProcessors()));
        spec.topology = Topology.parse(topology);
        spec.brokerHeap = "512m";
        spec.workDir = dir.resolve("cluster");
        spec.stopGrace = Duration.ZERO;
        String topic = "variants-it";
        try (BrokerAdmin admin = new BrokerAdmin(); LocalCluster cluster = HarnessClusters.start(spec, admin)) {
            assertTrue(String.join(" ", cluster.brokerCommandLine()).contains(v.distName()),
                "the broker runs the " + v.distName() + " distribution: " + cluster.brokerCommandLine());
            if (v.patched()) {
                // patch-lib's output, its report kept in the distribution; the release's own defaults, as its stock
                // variant's.
                Path lib = v.dist(distDir).resolve("lib");
                assertTrue(Files.isRegularFile(lib.resolve("rmqpatch/report.txt")), "patch-lib's report in " + lib);
                try (var jars = Files.list(lib)) {
                    assertTrue(jars.anyMatch(j -> j.getFileName().toString().startsWith("rmqpatch-codec-")),
                        "the codec jar patch-lib adds is in " + lib);
                }
                assertEquals("broker.conf", spec.confName);
                assertEquals(Map.of(), spec.overrides, "no tuned parameters on a later release");
            }
            assertEquals(v.version(), admin.runtimeInfo(cluster.brokerAddr()).get("brokerVersionDesc").replace("V", "")
                .replace('_', '.'), "the broker says it is " + v.version());
            admin.createTopic(cluster.brokerAddr(), topic, 4);

            Map<String, Message> sent = new HashMap<>();
            DefaultMQProducer producer = new DefaultMQProducer("variants-it-producer");
            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setInstanceName("variants-it-" + System.nanoTime());
            producer.setSendMsgTimeout(10_000); // a loaded machine's first send (route, connect) can take seconds
            producer.start();
            try {
                for (int i = 0; i < MESSAGES; i++) {
                    Message m = new Message(topic, "Tag" + (i % 3), "key-" + i + " order-" + (i / 2),
                        ("body " + i + " of " + name + " \u00e9\u4e2d").getBytes(StandardCharsets.UTF_8));
                    m.putUserProperty("color", i % 2 == 0 ? "blue" : "red, " + i);
                    SendResult r = producer.send(m);
                    assertEquals(SendStatus.SEND_OK, r.getSendStatus(), "send " + i + ": " + r);
                    sent.put(r.getMsgId(), m);
                }
            } finally {
                producer.shutdown();
            }

            List<MessageExt> read = consumeAll(cluster.namesrvAddr(), topic, MESSAGES);
            assertEquals(MESSAGES, read.size(), "every sent message read back once");
            for (MessageExt m : read) {
                Message s = sent.remove(m.getMsgId());
                assertNotNull(s, "a message that was sent: " + m);
                assertArrayEquals(s.getBody(), m.getBody(), "body");
                assertEquals(s.getKeys(), m.getKeys(), "keys");
                assertEquals(s.getTags(), m.getTags(), "tags");
                assertEquals(s.getUserProperty("color"), m.getUserProperty("color"), "user property");
            }
            assertTrue(sent.isEmpty(), "not read back: " + sent.keySet());
            if (cluster.slaveAddr() != null) {
                var rep = HarnessClusters.replication(cluster, admin, Duration.ofSeconds(10));
                assertTrue(rep.caughtUp(), "the slave has what the master stored: " + rep.slaveBehindBytes + " bytes behind");
                sendWaitsForTheSlave(cluster, topic, name);
            }
        }
    }

    /**
     * SYNC_MASTER's promise: SEND_OK only once the slave holds the message. With the slave paused (SIGSTOP: still
     * connected, acknowledging nothing) a send is answered FLUSH_SLAVE_TIMEOUT; a 5.x master answers SEND_OK there
     * unless the harness's inSyncReplicas=2 is in its conf (5.3.3's default, 1, does not wait for the slave).
     */
    private static void sendWaitsForTheSlave(LocalCluster cluster, String topic, String name) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("variants-it-paused");
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName("variants-it-paused-" + System.nanoTime());
        producer.setSendMsgTimeout(15_000);
        producer.start();
        long pid = cluster.slave().process().pid();
        try {
            signal("STOP", pid);
            SendResult r;
            try {
                r = producer.send(new Message(topic, "paused", "slave paused".getBytes(StandardCharsets.UTF_8)));
            } finally {
                signal("CONT", pid);
            }
            assertEquals(SendStatus.FLUSH_SLAVE_TIMEOUT, r.getSendStatus(), name + ", slave paused: " + r);
        } finally {
            producer.shutdown();
        }
    }

    /** A signal to a broker process this test started (its pid, a number). */
    private static void signal(String signal, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor(), "kill -" + signal + " " + pid);
    }

    private static List<MessageExt> consumeAll(String namesrv, String topic, int expected) throws Exception {
        return PullAll.messages(namesrv, "variants-it-reader", topic, expected);
    }
}
