package dev.rmqpatch.patches;

import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.cluster.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The ITs' view of the project's one launcher ({@link LocalCluster}, module local-cluster): a name server and a broker
 * from a distribution's own bin/ scripts, on loopback and free ports (all three a broker binds), with everything
 * (store, logs, user.home) in a temp folder that {@link #close()} deletes. What it adds: the ITs' small heaps and fast
 * delay levels, JVM flags for both servers, and start-up failures as unchecked exceptions carrying the process output.
 */
final class TestCluster implements AutoCloseable {

    static final String FAST_DELAY_LEVELS = "1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s";
    private static final List<String> HEAP = List.of("-XX:MaxDirectMemorySize=256m");

    final Path dist;
    final Path dir;
    private final LocalCluster.Spec spec = new LocalCluster.Spec();
    private LocalCluster cluster;

    TestCluster(Path dist, String confName, String... extraConf) throws IOException {
        this.dist = dist;
        this.dir = Files.createTempDirectory("rmqpatch-it-");
        spec.dist = dist;
        spec.confName = confName;
        spec.workDir = dir;
        spec.brokerHeap = "384m";
        spec.namesrvHeap = "384m";
        spec.brokerJvmOptions.addAll(HEAP);
        spec.namesrvJvmOptions.addAll(HEAP);
        // A clean shutdown flushes the CommitLog; the crash and restart tests read it afterwards.
        spec.stopGrace = Duration.ofSeconds(60);
        spec.overrides.put("mappedFileSizeCommitLog", "67108864");
        spec.overrides.put("flushIntervalCommitLog", "100");
        spec.overrides.put("messageDelayLevel", FAST_DELAY_LEVELS);
        for (String kv : extraConf) {
            int eq = kv.indexOf('=');
            spec.overrides.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
    }

    /** Extra JVM flags for the name server and the broker, e.g. {@code -Drmqpatch.disable=S1}. */
    TestCluster javaOpt(String flags) {
        for (String flag : flags.trim().split("\\s+")) {
            spec.brokerJvmOptions.add(flag);
            spec.namesrvJvmOptions.add(flag);
        }
        return this;
    }

    /**
     * The JDK the name server and broker run on (given to their bin scripts as JAVA_HOME, with LocalCluster's
     * {@link LocalCluster#ENTROPY}), e.g. {@code Jdk8.home()}.
     */
    TestCluster javaHome(Path home) {
        spec.javaHome = home;
        return this;
    }

    /**
     * The loopback address the broker advertises and clients use (default 127.0.0.1); with S4's
     * -Drmqpatch.bindAddress the servers listen on it alone.
     */
    TestCluster host(String address) {
        spec.host = address;
        return this;
    }

    /**
     * The servers on JDK 8 where it can be had ({@link Jdk8#homeOrNull}: always in CI); elsewhere, without one, on the
     * JDK the tests run on ({@link #onJdk8} says which).
     */
    TestCluster preferJdk8() {
        return javaHome(Jdk8.homeOrNull());
    }

    /** ms-sync: a SYNC_MASTER and its SLAVE (confName then names the master's conf, e.g. ms-sync/broker-a.conf). */
    TestCluster topology(Topology topology) {
        spec.topology = topology;
        return this;
    }

    /** The running cluster, for what the shortcuts here do not cover (the slave, say). */
    LocalCluster cluster() {
        return cluster;
    }

    boolean onJdk8() {
        return spec.javaHome != null;
    }

    /** Starts the servers; with a {@link #javaHome} given, checks (from /proc) that both run its java. */
    TestCluster start() {
        try {
            cluster = LocalCluster.start(spec);
        } catch (LocalCluster.ClusterException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        if (spec.javaHome != null) {
            assertServersRunOnTheirJdk();
        }
        return this;
    }

    /** The broker's config file: what stock persists run-time config updates into. */
    Path brokerConfFile() {
        return cluster.brokerConf();
    }

    Path namesrvConfFile() {
        return cluster.namesrvConf();
    }

    /** The broker's own log (INFO, from conf/logback_broker.xml under user.home). */
    Path brokerLog() {
        return cluster.logDir().resolve("broker.log");
    }

    Path namesrvLog() {
        return cluster.namesrvLogDir().resolve("namesrv.log");
    }

    String namesrvAddr() {
        return cluster.namesrvAddr();
    }

    String brokerAddr() {
        return cluster.brokerAddr();
    }

    int namesrvPort() {
        return cluster.namesrvPort();
    }

    /** Asserts that the name server and the broker run the java of {@link #javaHome}, printing which for the report. */
    private void assertServersRunOnTheirJdk() {
        Jdk8.assertRunsOn("name server", cluster.namesrvPid(), spec.javaHome);
        Jdk8.assertRunsOn("broker", cluster.brokerPid(), spec.javaHome);
        if (cluster.slave() != null) {
            Jdk8.assertRunsOn("slave", cluster.slave().process().pid(), spec.javaHome);
        }
    }

    int brokerPort() {
        return cluster.brokerPort();
    }

    Path commitLogDir() {
        return cluster.commitLogDir();
    }

    /** Starts the broker again on its ports and store, after {@link #stopBroker()} or {@link #killBroker()}. */
    void startBroker() {
        try {
            cluster.restartBroker();
        } catch (LocalCluster.ClusterException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Stops the broker with SIGTERM (a clean shutdown flushes the CommitLog) and waits for it. */
    void stopBroker() {
        cluster.stopBroker();
    }

    /** SIGKILL, as a crash would: nothing in the broker runs after this. */
    void killBroker() {
        cluster.killBroker();
    }

    /**
     * Runs this cluster's distribution's own bin/mqadmin with fixed arguments (no shell), as an operator would, and
     * returns its output; its logs go under the cluster's folder.
     */
    String mqadmin(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(dist.resolve("bin/mqadmin").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JAVA_OPT", "-Duser.home=" + dir);
        pb.environment().remove("ROCKETMQ_HOME");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("mqadmin did not finish: " + out);
        }
        return out;
    }

    /**
     * SIGKILL to every server, then deletes the folder: nothing of the cluster is read after this, so a clean shutdown
     * (a 4.9 broker's takes seconds, by design) would only cost time. {@link #stopBroker()} is the clean one.
     */
    @Override
    public void close() {
        try {
            if (cluster != null) {
                cluster.processes().forEach(ManagedProcess::kill);
                cluster.close();
            }
        } finally {
            LocalCluster.deleteTree(dir);
        }
    }

    static Path dist(String variant) {
        String p = System.getProperty("rmqpatch.dist." + variant);
        if (p == null) {
            throw new IllegalStateException("system property rmqpatch.dist." + variant + " not set (run through mvn verify)");
        }
        return Path.of(p);
    }
}
