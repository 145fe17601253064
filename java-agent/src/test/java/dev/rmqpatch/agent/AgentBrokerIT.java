package dev.rmqpatch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.cluster.Jdk8Home;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.codec.switches.PatchSwitches;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The STOCK 4.9.0 distribution (broker-patches' rocketmq-4.9.0-stock, its own bin/ scripts) with
 * {@code -javaagent:rmqpatch-agent.jar} in the name server's and broker's JAVA_OPT, on JDK 8 where one can be had:
 * both report every patch at start, exactly as the patched jars do; a stock 4.9.0 client sends and reads back; the
 * CommitLog holds no WAIT property (P3, which only a patched broker leaves out); an application packaged as a Spring
 * Boot fat jar runs against it with only the agent added, then with every patch off ({@link FatJarApplication}). Then
 * the broker is killed and restarted on the same store with every patch switched off (-Drmqpatch.disable): it reports none active, and what it stores carries
 * WAIT again, as stock's does.
 */
class AgentBrokerIT {

    private static final int MESSAGES = 20;
    private static final byte[] WAIT = "WAIT\u0001true".getBytes(StandardCharsets.UTF_8);

    @Test
    void stockBrokerWithTheAgentIsPatchedAndSwitchesOff() throws Exception {
        Path dir = Files.createTempDirectory("rmqpatch-agent-it-");
        LocalCluster.Spec spec = agentSpec(ShadedAgent.path("rmqpatch.dist.stock"), dir);
        System.out.println("[AgentBrokerIT] servers on " + (spec.javaHome == null ? "the tests' JDK" : spec.javaHome));
        long t0 = System.nanoTime();
        List<Long> pids = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.start(spec)) {
            lap("name server and broker up", t0);
            pids.addAll(List.of(cluster.namesrvPid(), cluster.brokerPid()));
            List<String> labels = Patches.all().stream().map(PatchTargets::label).toList();
            TreeSet<String> sorted = new TreeSet<>(labels);
            List<String> ids = sorted.stream().map(l -> l.split(" ", 2)[0])
                .filter(id -> !PatchSwitches.OFF_BY_DEFAULT.contains(id)).toList();
            String inTheJars = "rmqpatch: patches in the jars: " + sorted;
            String allActive = inTheJars + "; active: " + ids + "; disabled by -Drmqpatch.disable: none; off by default "
                + "(-Drmqpatch.enable turns on): " + PatchSwitches.OFF_BY_DEFAULT;

            assertTrue(log(cluster.logDir().resolve("broker.log")).contains(allActive), "broker start-up report:\n"
                + grep(cluster.logDir().resolve("broker.log")));
            assertTrue(log(cluster.namesrvLogDir().resolve("namesrv.log")).contains(allActive), "name server report:\n"
                + grep(cluster.namesrvLogDir().resolve("namesrv.log")));
            String agentLine = Agent.PREFIX + "RocketMQ V4_9_0 in the application class loader";
            assertTrue(log(cluster.master().output()).contains(agentLine), log(cluster.master().output()));

            roundTrip(cluster, "agent-on");
            assertEquals(0, count(cluster.commitLogDir()), "the patched broker stores no WAIT (P3)");
            lap("round trip, CommitLog read", t0);
            // The same broker serves an application's Spring Boot fat jar run with only -javaagent added.
            FatJarApplication.check(cluster.namesrvAddr(), dir);
            lap("fat-jar application with the agent, then with -Drmqpatch.disable=all", t0);

            long killed = cluster.brokerPid();
            assertEquals(1, codecFolders(killed).size(), "the agent's folder for the codec jar, named by its pid");
            cluster.killBroker();
            String off = String.join(",", Patches.all().stream().map(p -> p.id()).toList());
            spec.brokerJvmOptions.add("-Drmqpatch.disable=" + off);
            cluster.restartBroker();
            lap("broker killed and restarted, every patch off", t0);
            pids.add(cluster.brokerPid());
            assertEquals(List.of(), codecFolders(killed), "the killed broker's folder, removed by the next agent");
            String noneActive = inTheJars + "; active: []; disabled by -Drmqpatch.disable: ";
            assertTrue(log(cluster.logDir().resolve("broker.log")).contains(noneActive), "report with every patch off:\n"
                + grep(cluster.logDir().resolve("broker.log")));
            roundTrip(cluster, "agent-all-off");
            lap("round trip", t0);
            assertEquals(MESSAGES, count(cluster.commitLogDir()),
                "with every patch off the broker stores WAIT as stock does, with every message of the second round only");
        } finally {
            cleanUp(dir, pids);
        }
    }

    /**
     * A later release's STOCK distribution (4.9.4, 4.9.7, 4.9.8: the build's rocketmq-4.9.x-stock, its own bin/
     * scripts, on JDK 8 where one can be had) with only {@code -javaagent} added: the agent names the release, the
     * broker's start-up report lists exactly the patches that release declares (as written or as its variant, the
     * ones patch-lib applies there), all active, and a stock 4.9.0 client's messages come back. (4.9.8's distribution
     * exists where its broker was built, -Drmqpatch.stock498.skip=false, as in CI.)
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"4.9.4", "4.9.7", "4.9.8"})
    void aLaterStockBrokerWithTheAgentRunsWhatItsReleaseDeclares(String release) throws Exception {
        Path stock = ShadedAgent.stockLib(release).getParent();
        assumeTrue(Files.isDirectory(stock.resolve("lib")), "no " + stock);
        Release r = Release.of(release);
        Path dir = Files.createTempDirectory("rmqpatch-agent-it-" + release + "-");
        LocalCluster.Spec spec = agentSpec(stock, dir);
        List<Long> pids = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.start(spec)) {
            pids.addAll(List.of(cluster.namesrvPid(), cluster.brokerPid()));
            TreeSet<String> declared = Patches.all().stream().filter(p -> p.on(r).applies()).map(PatchTargets::label)
                .collect(Collectors.toCollection(TreeSet::new));
            String inTheJars = "rmqpatch: patches in the jars: " + declared + "; active: "
                + declared.stream().map(l -> l.split(" ", 2)[0]).filter(id -> !PatchSwitches.OFF_BY_DEFAULT.contains(id))
                    .toList() + "; disabled by -Drmqpatch.disable: none";
            assertTrue(log(cluster.logDir().resolve("broker.log")).contains(inTheJars), "broker start-up report, "
                + release + ", expected " + inTheJars + ":\n" + grep(cluster.logDir().resolve("broker.log")));
            String agentLine = Agent.PREFIX + "RocketMQ V" + release.replace('.', '_') + " in the application class loader";
            assertTrue(log(cluster.master().output()).contains(agentLine), log(cluster.master().output()));
            roundTrip(cluster, "agent-" + release.replace(".", ""));
            System.out.println("[AgentBrokerIT] " + release + ": " + declared.size() + " patches reported, round trip done");
        } finally {
            cleanUp(dir, pids);
        }
    }

    /**
     * A stock distribution's name server and broker with only {@code -javaagent} added, on JDK 8 where one can be had,
     * small heaps and 64 MB CommitLog files (1 GB by default; count() reads them whole). The store is thrown away and
     * the WAIT count reads the CommitLog's mapping, not the disk: no clean shutdown needed (a 4.9 broker's takes
     * seconds), so the servers are killed.
     */
    private static LocalCluster.Spec agentSpec(Path dist, Path dir) {
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = dist;
        spec.workDir = dir;
        spec.javaHome = Jdk8Home.forTests();
        spec.brokerHeap = "384m";
        spec.namesrvHeap = "256m";
        String agent = "-javaagent:" + ShadedAgent.jar();
        spec.brokerJvmOptions.addAll(List.of("-XX:MaxDirectMemorySize=256m", agent));
        spec.namesrvJvmOptions.add(agent);
        spec.overrides.put("mappedFileSizeCommitLog", "67108864");
        spec.stopGrace = Duration.ZERO;
        return spec;
    }

    /** The work folder, and the codec jar's folders of the servers' agents (killed, so their exit hooks did not). */
    private static void cleanUp(Path dir, List<Long> pids) throws Exception {
        LocalCluster.deleteTree(dir);
        for (long pid : pids) {
            codecFolders(pid).forEach(LocalCluster::deleteTree);
        }
    }

    private static void lap(String what, long t0) {
        System.out.printf("[AgentBrokerIT] %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, what);
    }

    /** Sends {@value #MESSAGES} messages to a topic of their own with a stock 4.9.0 client and reads them all back. */
    private static void roundTrip(LocalCluster cluster, String topic) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("agent-it-producer-" + topic);
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName("agent-it-" + topic);
        producer.start();
        Set<String> sent = new HashSet<>();
        try {
            for (int i = 0; i < MESSAGES; i++) {
                String body = topic + " " + i + " ✓";
                Message m = new Message(topic, "tag", "key-" + i, body.getBytes(StandardCharsets.UTF_8));
                m.putUserProperty("seq", Integer.toString(i));
                SendResult r = producer.send(m);
                assertEquals(SendStatus.SEND_OK, r.getSendStatus());
                sent.add(body);
            }
        } finally {
            producer.shutdown();
        }
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("agent-it-consumer-" + topic);
        consumer.setNamesrvAddr(cluster.namesrvAddr());
        consumer.setInstanceName("agent-it-" + topic);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.start();
        Set<String> got = new HashSet<>();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (got.size() < MESSAGES && System.nanoTime() < deadline) {
                for (MessageExt m : consumer.poll(1000)) {
                    got.add(new String(m.getBody(), StandardCharsets.UTF_8));
                    assertEquals(m.getKeys(), "key-" + m.getProperty("seq"));
                }
            }
        } finally {
            consumer.shutdown();
        }
        assertEquals(sent, got, topic + ": every message read back");
    }

    /** Occurrences of WAIT=true in the CommitLog files (the broker mmaps them, so a read sees what it wrote). */
    private static int count(Path commitLogDir) throws Exception {
        int n = 0;
        try (Stream<Path> files = Files.list(commitLogDir)) {
            for (Path f : files.toList()) {
                byte[] hay = Files.readAllBytes(f);
                outer:
                for (int i = 0; i + WAIT.length <= hay.length; i++) {
                    for (int j = 0; j < WAIT.length; j++) {
                        if (hay[i + j] != WAIT[j]) {
                            continue outer;
                        }
                    }
                    n++;
                }
            }
        }
        return n;
    }

    /** The folders the agent of process {@code pid} wrote its codec jar to (CodecAccess.privateFolder). */
    private static List<Path> codecFolders(long pid) throws Exception {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("rmqpatch-agent-" + pid + "-")).toList();
        }
    }

    private static String log(Path file) throws Exception {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
    }

    private static String grep(Path file) throws Exception {
        List<String> lines = new ArrayList<>();
        log(file).lines().filter(l -> l.contains("rmqpatch")).forEach(lines::add);
        return String.join("\n", lines);
    }
}
