package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.agent.Agent;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.StartRequest;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire client against a real stock 4.9.0 name server and broker: what it sends is stored, and a stock 4.9.0
 * consumer reads every message back with body, tags, keys and user properties intact; and a coordinator run with
 * {@code client: wire} through agent JVMs adds up and says which client produced it.
 */
@Timeout(300)
class WireClientIT {
    @TempDir
    Path dir;

    private LocalCluster.Spec clusterSpec() {
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = Dists.stock();
        spec.confName = "broker-tuned.conf";
        spec.brokerHeap = "512m";
        spec.workDir = dir.resolve("cluster");
        spec.overrides.put("mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024));
        // Its store is thrown away at close, as in the harness's comparisons: no clean shutdown to wait for.
        spec.stopGrace = Duration.ZERO;
        return spec;
    }

    @Test
    void aStockConsumerReadsWhatTheWireClientStored() throws Exception {
        String topic = "bench-wireit-0";
        int queues = 4;
        int size = 200;
        Map<String, String> props = new LinkedHashMap<>();
        props.put("color", "blue");
        props.put("weight", "42 kg");
        try (BrokerAdmin admin = new BrokerAdmin(); LocalCluster cluster = HarnessClusters.start(clusterSpec(), admin)) {
            admin.createTopic(cluster.brokerAddr(), topic, queues);
            PrepareRequest r = wireRequest("wireit", cluster.namesrvAddr(), topic, queues, size);
            r.producersPerTopic = 2;
            r.tags = "TagA";
            r.keys = "order-1 order-2";
            r.userProperties = props;
            long acked = sendBriefly(new Agent("wire-it"), r);

            byte[] body = new byte[size];
            new Random(size).nextBytes(body);
            List<MessageExt> read = consumeAll(cluster.namesrvAddr(), topic, acked);
            assertEquals(acked, read.size(), "every acknowledged message is stored once");
            Set<String> ids = new HashSet<>();
            Set<Integer> queueIds = new HashSet<>();
            for (MessageExt m : read) {
                assertArrayEquals(body, m.getBody(), "body");
                assertEquals("TagA", m.getTags());
                assertEquals("order-1 order-2", m.getKeys());
                assertEquals("blue", m.getUserProperty("color"));
                assertEquals("42 kg", m.getUserProperty("weight"));
                ids.add(m.getMsgId());
                queueIds.add(m.getQueueId());
                assertTrue(Math.abs(System.currentTimeMillis() - m.getBornTimestamp()) < 120_000, "born timestamp");
            }
            assertEquals(read.size(), ids.size(), "unique keys (client message ids) are unique");
            assertEquals(queues, queueIds.size(), "queues spread evenly: all used");
        }
    }

    @Test
    void keyedMessagesWithPooledBodiesAreStoredAsSent() throws Exception {
        String topic = "bench-wireit-keys-0";
        int queues = 4;
        int size = 400;
        try (BrokerAdmin admin = new BrokerAdmin(); LocalCluster cluster = HarnessClusters.start(clusterSpec(), admin)) {
            admin.createTopic(cluster.brokerAddr(), topic, queues);
            PrepareRequest r = wireRequest("wireitkeys", cluster.namesrvAddr(), topic, queues, size);
            r.producersPerTopic = 1;
            r.tags = "TagK";
            r.keyDistributor = "KEY_ROUND_ROBIN";
            r.randomizedPayloadPoolSize = 10;
            r.randomBytesRatio = 0.5;
            long acked = sendBriefly(new Agent("wire-it-keys"), r);

            List<MessageExt> read = consumeAll(cluster.namesrvAddr(), topic, acked);
            assertEquals(acked, read.size(), "every acknowledged message is stored once");
            Set<String> keys = new HashSet<>();
            Set<String> bodies = new HashSet<>();
            for (MessageExt m : read) {
                assertEquals("TagK", m.getTags());
                // OMB's keys: 7 random bytes in unpadded URL-safe base64, one per message, taken in turn by each sender.
                assertTrue(m.getKeys() != null && m.getKeys().matches("[A-Za-z0-9_-]{10}"), m.getKeys());
                keys.add(m.getKeys());
                byte[] b = m.getBody();
                assertEquals(size, b.length);
                for (int i = size / 2; i < size; i++) {
                    assertEquals(0, b[i], "a pool body: random bytes, then zeros");
                }
                bodies.add(java.util.Base64.getEncoder().encodeToString(b));
            }
            assertTrue(keys.size() > acked / 4 - 1, "each sender takes the key set in turn: " + keys.size() + " keys for " + acked);
            assertTrue(bodies.size() > 5, "bodies from the pool: " + bodies.size());
        }
    }

    /** A wire-client request: 4 synchronous senders at 400 msg/s to every queue of one topic. */
    private static PrepareRequest wireRequest(String runId, String namesrv, String topic, int queues, int size) {
        PrepareRequest r = new PrepareRequest();
        r.client = "wire";
        r.runId = runId;
        r.namesrv = namesrv;
        r.topics = List.of(topic);
        r.partitionsPerTopic = queues;
        r.messageSize = size;
        r.threads = 4;
        r.mode = "sync";
        r.ratePerSecond = 400;
        r.sendTimeoutMs = 10_000; // not a latency check: a loaded machine's first sends (route, connect) can take > 3 s
        return r;
    }

    /** Runs the agent for a second of warm-up and a second measured; every send acknowledged, none failed. */
    private static long sendBriefly(Agent agent, PrepareRequest r) throws Exception {
        agent.prepare(r);
        agent.start(new StartRequest());
        Thread.sleep(1000);
        agent.measure();
        Thread.sleep(1000);
        AgentResult result = agent.stop();
        assertTrue(result.total.balanced());
        assertEquals(0, result.total.failed, "" + result.byError);
        long acked = result.total.acked;
        assertTrue(acked > 100, "acked " + acked);
        return acked;
    }

    private static List<MessageExt> consumeAll(String namesrv, String topic, long expected) throws Exception {
        return PullAll.messages(namesrv, "rmqpatch-wireit-reader", topic, expected);
    }

    @Test
    void aCoordinatorRunWithTheWireClientAddsUp() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try (BrokerAdmin admin = new BrokerAdmin(); LocalCluster cluster = HarnessClusters.start(clusterSpec(), admin)) {
            agents.addAll(LocalAgents.launch(1, dir.resolve("agents"), LocalAgents.DEFAULT_JVM_OPTIONS));
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), HarnessClusters.gcMonitor(cluster),
                Map.of("broker", List.of(cluster.brokerPid())));
            RunSpec spec = new RunSpec();
            spec.workload = Workload.defaults().withThreadsPerAgent(8).withWarmupDurationSeconds(1).withTestDurationSeconds(3)
                .withClient(ClientMode.WIRE);
            spec.namesrv = cluster.namesrvAddr();
            spec.label = "wire-e2e";
            RunResult r = new Coordinator(agents, admin, probe, List.of(cluster.brokerProcess()), System.out).run(spec);
            assertEquals("ok", r.status, r.error);
            assertEquals("wire", r.clientMode);
            assertEquals("wire", r.agents.get(0).client);
            assertTrue(r.counts.acked > 0);
            assertTrue(r.counts.balanced() && r.totalCounts.balanced());
            assertTrue(r.agentCpuUsPerMsg != null && r.agentCpuUsPerMsg > 0);
            long stored = admin.storedMessages(cluster.brokerAddr(), spec.topics().get(0));
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (stored < r.totalCounts.acked && System.nanoTime() < deadline) {
                Thread.sleep(100);
                stored = admin.storedMessages(cluster.brokerAddr(), spec.topics().get(0));
            }
            if (r.totalCounts.failed == 0) {
                assertEquals(r.totalCounts.acked, stored);
            } else {
                assertTrue(stored >= r.totalCounts.acked && stored <= r.totalCounts.acked + r.totalCounts.failed);
            }
        } finally {
            LocalAgents.stop(agents);
        }
    }
}
