package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.agent.SubscriptionHeartbeats;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.ProgressPoint;
import dev.rmqpatch.bench.coordinator.RunFailedException;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.delivery.DeliveryCheck;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData;

/**
 * Produce and consume at once against a real name server and broker (stock 4.9.0): two agent JVMs, stock push
 * consumers spread over them, end-to-end latency from the body stamps, and the count check over both agents.
 */
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsumersIT {
    /** Static: made before {@link #startCluster}, shared by the tests. */
    @TempDir
    static Path dir;
    /** One name server and broker for every test (each run has topics and groups of its own): a start less per test. */
    private BrokerAdmin admin;
    private LocalCluster cluster;

    @BeforeAll
    void startCluster() throws Exception {
        admin = new BrokerAdmin();
        cluster = HarnessClusters.start(clusterSpec(), admin);
    }

    @AfterAll
    void stopCluster() throws Exception {
        try (BrokerAdmin a = admin; LocalCluster c = cluster) {
            // closed in reverse order, also when a test failed
        }
    }

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

    private static RunSpec runSpec(String namesrv, Workload w) {
        RunSpec spec = new RunSpec();
        spec.workload = w;
        spec.namesrv = namesrv;
        spec.label = "consume";
        return spec;
    }

    @Test
    void twoSubscriptionsOverTwoAgentsReceiveEveryAcknowledgedMessage() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try {
            agents.addAll(LocalAgents.launch(2, dir.resolve("agents-1"), LocalAgents.DEFAULT_JVM_OPTIONS));
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), null,
                Map.of("broker", List.of(cluster.brokerPid())));
            // 2 subscriptions x 3 consumers: 6 consumers dealt over 2 agents, so each group has consumers on both.
            Workload w = Workload.defaults().withThreadsPerAgent(4).withWarmupDurationSeconds(2).withTestDurationSeconds(4)
                .withProducerRate(2000).withConsumers(2, 3, 0);
            RunSpec spec = runSpec(cluster.namesrvAddr(), w);
            RunResult r = new Coordinator(agents, admin, probe, List.of(cluster.brokerProcess()), System.out).run(spec);

            assertEquals("ok", r.status, r.error);
            assertTrue(r.totalCounts.acked > 0);
            assertNotNull(r.consumeTps);
            assertTrue(r.consumeTps > 0, "consumed in the window");
            assertEquals(r.consumedInWindow.longValue(), r.endToEndLatencyMs.count, "one end-to-end sample per delivery in the window");
            assertTrue(r.endToEndLatencyMs.p50 > 0, "end-to-end latency recorded");
            // The send-to-consume path includes the broker's dispatch and a pull: never faster than the send's answer alone.
            assertTrue(r.endToEndLatencyMs.max >= r.latencyMs.p50, r.endToEndLatencyMs.max + " vs " + r.latencyMs.p50);
            assertEquals(0L, r.clock.offsetMicros.get(agents.get(0).name()), "local agents share the coordinator's clock");

            DeliveryCheck.Report d = r.delivery;
            assertEquals(r.totalCounts.acked, d.acknowledged, "every acknowledged send is in the producers' sets");
            assertEquals(2, d.subscriptions.size());
            for (DeliveryCheck.Subscription s : d.subscriptions) {
                assertEquals(3, s.consumers, s.group);
                assertTrue(s.received >= d.acknowledged, s.group + " received " + s.received + " of " + d.acknowledged);
                assertEquals(0, s.missing, s.group + " missing, first: " + s.firstMissing);
                assertEquals(s.deliveries, s.received + s.duplicates, s.group + ": deliveries = distinct + duplicates");
            }
            assertEquals(0, d.missingMessages);
            assertTrue(d.drained);
            // The consumers did their share on both agents.
            for (RunResult.AgentView a : r.agents) {
                assertNotNull(a.consumeTps, a.name);
                assertTrue(a.consumeTps > 0, a.name + " consumed nothing");
            }
            ProgressPoint last = r.progress.get(r.progress.size() - 1);
            assertNotNull(last.consumeTps);
            assertNotNull(last.backlogBytes);
            for (AgentClient a : agents) {
                assertEquals("IDLE", a.status().state, a.name() + " is ready for the next run");
            }
        } finally {
            LocalAgents.stop(agents);
        }
    }

    @Test
    void theWireClientStampsItsFramesForTheConsumers() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try {
            agents.addAll(LocalAgents.launch(1, dir.resolve("agents-2"), LocalAgents.DEFAULT_JVM_OPTIONS));
            Workload w = Workload.defaults().withThreadsPerAgent(4).withWarmupDurationSeconds(1).withTestDurationSeconds(3)
                .withProducerRate(2000).withClient(dev.rmqpatch.bench.workload.ClientMode.WIRE).withConsumers(1, 2, 0);
            RunResult r = new Coordinator(agents, admin, null, List.of(cluster.brokerProcess()), System.out)
                .run(runSpec(cluster.namesrvAddr(), w));

            assertEquals("ok", r.status, r.error);
            assertTrue(r.totalCounts.acked > 0);
            assertEquals(r.totalCounts.acked, r.delivery.acknowledged, "the wire agent kept every acknowledged (slot, sequence)");
            assertEquals(0, r.delivery.missingMessages, "first missing: " + r.delivery.subscriptions.get(0).firstMissing);
            assertTrue(r.consumeErrors.isEmpty(), "every delivery carried a stamp: " + r.consumeErrors);
            assertEquals(r.consumedInWindow.longValue(), r.endToEndLatencyMs.count);
        } finally {
            LocalAgents.stop(agents);
        }
    }

    @Test
    void aBacklogIsBuiltWithConsumersSuspendedThenDrained() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try {
            agents.addAll(LocalAgents.launch(1, dir.resolve("agents-3"), LocalAgents.DEFAULT_JVM_OPTIONS));
            // 1 MiB of backlog: about 3,500 messages of 300 B, built in well under the window at 2,000 msg/s.
            Workload w = Workload.defaults().withThreadsPerAgent(4).withWarmupDurationSeconds(1).withTestDurationSeconds(8)
                .withProducerRate(2000).withConsumers(1, 2, 1.0 / 1024);
            RunSpec spec = runSpec(cluster.namesrvAddr(), w);
            RunResult r = new Coordinator(agents, admin, null, List.of(cluster.brokerProcess()), System.out).run(spec);

            assertEquals("ok", r.status, r.error);
            assertNotNull(r.backlog);
            assertEquals(1L << 20, r.backlog.requestedBytes);
            assertNotNull(r.backlog.resumedAtSecond, "the backlog was built and the consumers resumed");
            assertTrue(r.backlog.peakBytes >= r.backlog.requestedBytes);
            assertEquals(0, r.delivery.missingMessages);
            // Suspended consumers only finish what they had already pulled: far less than was produced meanwhile.
            double produced = 0;
            double consumed = 0;
            for (ProgressPoint p : r.progress) {
                if ("measure".equals(p.phase) && p.second <= r.backlog.resumedAtSecond) {
                    produced += p.tps;
                    consumed += p.consumeTps;
                }
            }
            assertTrue(consumed < 0.2 * produced, "consumed " + consumed + " of " + produced + " while suspended");
        } finally {
            LocalAgents.stop(agents);
        }
    }

    @Test
    void aConsumerAgentThatDiesEndsTheRunWithAClearMessageAndPartialResults() throws Exception {
        List<AgentClient> agents = new ArrayList<>();
        try {
            agents.addAll(LocalAgents.launch(2, dir.resolve("agents-4"), LocalAgents.DEFAULT_JVM_OPTIONS));
            Workload w = Workload.defaults().withThreadsPerAgent(2).withWarmupDurationSeconds(1).withTestDurationSeconds(60)
                .withProducerRate(1000).withConsumers(1, 2, 0);
            RunSpec spec = runSpec(cluster.namesrvAddr(), w);
            AgentClient victim = agents.get(1);
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(5000);
                } catch (InterruptedException e) {
                    return;
                }
                ProcessHandle.of(victim.process().pid()).ifPresent(ProcessHandle::destroyForcibly);
            });
            killer.start();
            RunFailedException e = assertThrows(RunFailedException.class,
                () -> new Coordinator(agents, admin, null, List.of(cluster.brokerProcess()), System.out).run(spec));
            killer.join();
            assertTrue(e.getMessage().contains("agent-2") && e.getMessage().contains("exited with code"), e.getMessage());
            RunResult partial = e.partial();
            assertEquals("failed", partial.status);
            assertTrue(partial.error.contains("no count check"), partial.error);
            assertNull(partial.delivery, "no count check on a broken run");
            assertTrue(partial.progress.stream().anyMatch(p -> p.consumeTps != null && p.consumeTps > 0),
                "per-second consume rates until the failure are kept");
            assertEquals("IDLE", agents.get(0).status().state, "the surviving agent dropped its producers and consumers");
        } finally {
            LocalAgents.stop(agents);
        }
    }

    /**
     * What the agent's heartbeats at the window and the drain are for: a consumer whose newer subscription version the
     * broker missed (stock's rebalance heartbeat skipped under another heartbeat's lock) has every pull refused
     * (SUBSCRIPTION_NOT_LATEST) until the client's next timed heartbeat; one {@link SubscriptionHeartbeats#send} ends
     * the stall. The version is raised here by hand, as stock's rebalance raises it, and the timed heartbeat is moved
     * out of the test's reach (its first run, a second after start, is let pass; the next
     * comes after 10 minutes), so only the harness's heartbeat can end the stall.
     */
    @Test
    void aHeartbeatEndsPullsRefusedForASubscriptionVersionTheBrokerMissed() throws Exception {
        String topic = "heartbeat-" + Long.toString(System.nanoTime(), 36);
        admin.createTopic(cluster.brokerAddr(), topic, 1);
        DefaultMQProducer producer = new DefaultMQProducer(topic + "-producer");
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName(topic + "-producer");
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(topic + "-consumer");
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName(topic + "-consumer");
        consumer.setHeartbeatBrokerInterval(600_000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        AtomicInteger received = new AtomicInteger();
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        producer.start();
        consumer.start();
        try {
            producer.send(new Message(topic, new byte[100]));
            awaitAtLeast(1, received::get, 30_000, "the first message, before the version is raised");
            // The client's timed heartbeat runs first a second after start, then every heartbeatBrokerInterval: let the
            // first one pass, or it would carry the raised version.
            Thread.sleep(3000);

            SubscriptionData sub = consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getSubscriptionInner().get(topic);
            sub.setSubVersion(sub.getSubVersion() + 1);
            // A pull already waiting at the broker (long polling) still carries the old version and may serve one more.
            producer.send(new Message(topic, new byte[100]));
            Thread.sleep(4000);
            int before = received.get();
            for (int i = 0; i < 20; i++) {
                producer.send(new Message(topic, new byte[100]));
            }
            Thread.sleep(7000);
            assertEquals(before, received.get(), "pulls with a version the broker has not seen are refused (two retries of 3 s)");

            assertEquals(1, SubscriptionHeartbeats.send(List.of(consumer, consumer)), "one client instance, one heartbeat");
            awaitAtLeast(22, received::get, 20_000, "every message after the harness's heartbeat");
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
    }

    private static void awaitAtLeast(int expected, IntSupplier actual, long timeoutMs, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (actual.getAsInt() < expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(actual.getAsInt() >= expected, what + ": " + actual.getAsInt() + " of " + expected + " received");
    }
}
