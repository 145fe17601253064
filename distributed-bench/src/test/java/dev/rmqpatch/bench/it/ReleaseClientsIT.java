package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.HelperJdk;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.delivery.DeliveryCheck;
import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.protocol.LoadedClass;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.Jdk8Home;
import dev.rmqpatch.cluster.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The release clients of {@code --clients 4.9.8,5.3.3} against a stock 4.9.0 broker, both sides at once: an agent JVM on
 * that release's class path ({@link ClientVariant#classPathFirst}, on JDK 8 where one can be had, as the measurement runs
 * them) beside a stock 4.9.0 agent, each producing and each running one of the two subscriptions' push consumer. The
 * harness's count check then says that the stock consumer received every message the release's producer had acknowledged
 * (what the 4.9.0 broker stored of it, stamps intact) and the release's consumer every message the stock producer had
 * acknowledged, none missing, none without the harness's stamp. Nothing about speed.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReleaseClientsIT {
    @TempDir
    static Path dir;
    private BrokerAdmin admin;
    private LocalCluster cluster;

    @BeforeAll
    void startCluster() throws Exception {
        admin = new BrokerAdmin();
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = Dists.stock();
        spec.confName = "broker-tuned.conf";
        spec.brokerHeap = "512m";
        spec.workDir = dir.resolve("cluster");
        spec.overrides.put("mappedFileSizeCommitLog", Integer.toString(64 * 1024 * 1024));
        spec.stopGrace = Duration.ZERO;
        cluster = HarnessClusters.start(spec, admin);
    }

    @AfterAll
    void stopCluster() throws Exception {
        try (BrokerAdmin a = admin; LocalCluster c = cluster) {
            // closed in reverse order, also when a test failed
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.9.8", "5.3.3"})
    void theReleasesProducerAndConsumerMeetTheStockOnesThroughA490Broker(String release) throws Exception {
        Path jdk8 = Jdk8Home.forTests();
        ClientVariant client = ClientVariant.parse(jdk8 == null ? release : release + "@8");
        List<Path> first = client.classPathFirst(List.of(), Dists.distDir());
        List<AgentClient> agents = new ArrayList<>();
        try {
            agents.addAll(LocalAgents.launch(1, 1, dir.resolve("agents-" + release), HelperJdk.at(client.javaHome()),
                LocalAgents.DEFAULT_JVM_OPTIONS, first));
            agents.addAll(LocalAgents.launch(1, 2, dir.resolve("agents-" + release), HelperJdk.harness(), LocalAgents.DEFAULT_JVM_OPTIONS,
                List.of()));
            for (LoadedClass c : agents.get(0).status().rocketmqClasses) {
                assertTrue(c.jar != null && c.jar.endsWith("-" + release + ".jar") && c.jar.contains("rocketmq-" + release + "-stock"),
                    "the release's agent runs " + c.name + " from " + c.jar);
            }
            String java = agents.get(0).status().javaVersion;
            System.out.println("client " + client + ": agent JVM on Java " + java + ", class path first " + first.size() + " jars of "
                + first.get(0).getParent());
            assertTrue(java.startsWith(jdk8 == null ? "" : "1.8."), java);
            // One topic, two subscriptions of one consumer each, dealt over the agents: the first on the release's, the
            // second on the stock one's; both agents' producers send to it.
            Workload w = Workload.defaults().withThreadsPerAgent(2).withWarmupDurationSeconds(2).withTestDurationSeconds(4)
                .withProducerRate(400).withConsumers(2, 1, 0);
            RunSpec spec = new RunSpec();
            spec.workload = w;
            spec.namesrv = cluster.namesrvAddr();
            spec.label = "release-" + release;
            RunResult r = new Coordinator(agents, admin, null, List.of(cluster.brokerProcess()), System.out).run(spec);

            assertEquals("ok", r.status, r.error);
            for (RunResult.AgentView a : r.agents) {
                assertTrue(a.totalCounts.acked > 0, a.name + " had nothing acknowledged");
                assertTrue(a.consumeTps != null && a.consumeTps > 0, a.name + " consumed nothing");
            }
            DeliveryCheck.Report d = r.delivery;
            assertEquals(r.totalCounts.acked, d.acknowledged, "every acknowledged send is in the producers' sets");
            assertEquals(2, d.subscriptions.size());
            for (DeliveryCheck.Subscription s : d.subscriptions) {
                assertTrue(s.received >= d.acknowledged, s.group + " received " + s.received + " of " + d.acknowledged);
                assertEquals(0, s.missing, s.group + " missing, first: " + s.firstMissing);
            }
            assertEquals(0, d.missingMessages);
            assertTrue(d.drained);
            assertTrue(r.consumeErrors == null || r.consumeErrors.isEmpty(), "deliveries without the harness's stamp or failed: " + r.consumeErrors
                + " " + r.consumeErrorSamples);
        } finally {
            LocalAgents.stop(agents);
        }
    }
}
