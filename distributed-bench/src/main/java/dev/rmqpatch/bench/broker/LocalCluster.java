package dev.rmqpatch.bench.broker;

import dev.rmqpatch.bench.proc.ChildProcesses;
import dev.rmqpatch.bench.proc.ManagedProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One name server and one master broker on 127.0.0.1, started from a distribution's {@code bin/mqnamesrv} and
 * {@code bin/mqbroker} (the same scripts an operator runs) in their own JVMs, with a fresh store. The broker conf is
 * the distribution's conf file with ports, paths and the spec's overrides appended (later keys win).
 */
public final class LocalCluster implements AutoCloseable {
    private final Spec spec;
    private final int namesrvPort;
    private final int brokerPort;
    private final Path brokerConf;
    private ManagedProcess namesrv;
    private ManagedProcess broker;
    private GcMonitor gc;

    /** What to start. */
    public static final class Spec {
        /** Distribution folder, e.g. broker-patches/target/rocketmq-4.9.0-stock. */
        public Path dist;
        /** A file in the distribution's conf/ folder, e.g. broker-tuned.conf. */
        public String confName = "broker.conf";
        /** Appended to the conf after the ports and paths, so they can override anything. */
        public Map<String, String> overrides = new LinkedHashMap<>();
        public String brokerHeap = "2g";
        public String namesrvHeap = "256m";
        /** Confs, process output, logs ({@code home/logs/rocketmqlogs}) and the store go here. */
        public Path workDir;
        /** Keep the store after stop (for debugging); by default it is deleted. */
        public boolean keepStore;
        public Duration startTimeout = Duration.ofSeconds(90);
        /**
         * SIGTERM grace before SIGKILL at stop. A 4.9 broker's shutdown sleeps over a second by design; a comparison
         * that throws the store away anyway stops with zero grace and saves that time every round.
         */
        public Duration stopGrace = Duration.ofSeconds(15);
    }

    private LocalCluster(Spec spec, int namesrvPort, int brokerPort) {
        this.spec = spec;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
        this.brokerConf = spec.workDir.resolve("broker.conf");
    }

    /** Starts both processes and waits until the broker has registered; on any failure stops what it started. */
    public static LocalCluster start(Spec spec, BrokerAdmin admin) throws ClusterException {
        checkDistribution(spec.dist, spec.confName);
        LocalCluster cluster;
        try {
            Files.createDirectories(spec.workDir);
            cluster = new LocalCluster(spec, FreePorts.any(), FreePorts.forBroker());
        } catch (IOException e) {
            throw new ClusterException("cannot prepare " + spec.workDir + ": " + e.getMessage(), e);
        }
        try {
            cluster.startNamesrv();
            cluster.startBroker(admin);
            return cluster;
        } catch (ClusterException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public static void checkDistribution(Path dist, String confName) throws ClusterException {
        if (dist == null || !Files.isExecutable(dist.resolve("bin/mqbroker")) || !Files.isExecutable(dist.resolve("bin/mqnamesrv"))) {
            throw new ClusterException("no RocketMQ distribution at " + dist + " (bin/mqbroker and bin/mqnamesrv missing); "
                + "build it with scripts/build.sh", null);
        }
        if (!Files.isRegularFile(dist.resolve("conf").resolve(confName))) {
            throw new ClusterException("distribution " + dist + " has no conf/" + confName, null);
        }
    }

    private Map<String, String> env(String heap) {
        Map<String, String> env = new LinkedHashMap<>();
        // user.home isolates logs (and anything else RocketMQ keeps under ~) in the run folder.
        env.put("JAVA_OPT", "-Xms" + heap + " -Xmx" + heap + " -Duser.home=" + home());
        // An inherited ROCKETMQ_HOME would make the bin scripts load another installation's jars.
        env.put("ROCKETMQ_HOME", null);
        return env;
    }

    private Path home() {
        return spec.workDir.resolve("home").toAbsolutePath();
    }

    private Path store() {
        return spec.workDir.resolve("store").toAbsolutePath();
    }

    private void startNamesrv() throws ClusterException {
        Path conf = spec.workDir.resolve("namesrv.properties");
        try {
            Files.createDirectories(home());
            Files.writeString(conf, "listenPort=" + namesrvPort + "\n");
            namesrv = ManagedProcess.start("name server", List.of(spec.dist.resolve("bin/mqnamesrv").toString(), "-c", conf.toString()),
                env(spec.namesrvHeap), spec.workDir, spec.workDir.resolve("namesrv.out"));
        } catch (IOException e) {
            throw new ClusterException("cannot start the name server from " + spec.dist + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        while (!listening(namesrvPort)) {
            if (!namesrv.isAlive()) {
                throw new ClusterException("name server did not start: " + namesrv.describeState(), null);
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException("name server not listening on port " + namesrvPort + " after "
                    + spec.startTimeout.toSeconds() + " s" + namesrv.lastOutput(), null);
            }
            sleep(100);
        }
    }

    private void startBroker(BrokerAdmin admin) throws ClusterException {
        try {
            Files.writeString(brokerConf, brokerConfText(), StandardCharsets.UTF_8);
            broker = ManagedProcess.start("broker", List.of(spec.dist.resolve("bin/mqbroker").toString(), "-c", brokerConf.toString()),
                env(spec.brokerHeap), spec.workDir, spec.workDir.resolve("broker.out"));
            gc = GcMonitor.start(broker.pid(), spec.workDir.resolve("broker-gc.jstat"));
        } catch (IOException e) {
            throw new ClusterException("cannot start the broker from " + spec.dist + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        String last = "not registered yet";
        while (true) {
            if (!broker.isAlive()) {
                throw new ClusterException("broker did not start: " + broker.describeState() + brokerLogTail(), null);
            }
            try {
                // Registered, and its statistics answer: a 4.9 broker fails runtime-info requests during its
                // first second, before the stats sampler has run once.
                if (brokerAddr().equals(admin.masterBrokers(namesrvAddr()).get(brokerName()))) {
                    admin.runtimeInfo(brokerAddr());
                    return;
                }
            } catch (BrokerAdmin.AdminException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException("broker did not register at the name server within " + spec.startTimeout.toSeconds()
                    + " s (" + last + ")" + broker.lastOutput() + brokerLogTail(), null);
            }
            sleep(200);
        }
    }

    String brokerConfText() throws IOException {
        StringBuilder conf = new StringBuilder(Files.readString(spec.dist.resolve("conf").resolve(spec.confName), StandardCharsets.UTF_8));
        conf.append("\n\n# appended by rmqpatch distributed-bench (later keys win)\n");
        Map<String, String> appended = new LinkedHashMap<>();
        appended.put("listenPort", Integer.toString(brokerPort));
        appended.put("namesrvAddr", namesrvAddr());
        appended.put("brokerIP1", "127.0.0.1");
        appended.put("storePathRootDir", store().toString());
        appended.put("storePathCommitLog", store().resolve("commitlog").toString());
        appended.putAll(spec.overrides);
        appended.forEach((k, v) -> conf.append(k).append('=').append(v).append('\n'));
        return conf.toString();
    }

    private String brokerName() {
        try {
            java.util.Properties p = new java.util.Properties();
            p.load(new java.io.StringReader(Files.readString(brokerConf)));
            return p.getProperty("brokerName", "DEFAULT_BROKER");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String brokerLogTail() {
        Path log = home().resolve("logs/rocketmqlogs/broker.log");
        String tail = ManagedProcess.tail(log, 15);
        return tail.isBlank() ? "" : "\nlast lines of " + log + ":\n" + tail;
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the cluster", e);
        }
    }

    public String namesrvAddr() {
        return "127.0.0.1:" + namesrvPort;
    }

    public String brokerAddr() {
        return "127.0.0.1:" + brokerPort;
    }

    public long brokerPid() {
        return broker.pid();
    }

    public long namesrvPid() {
        return namesrv.pid();
    }

    public ManagedProcess brokerProcess() {
        return broker;
    }

    public ManagedProcess namesrvProcess() {
        return namesrv;
    }

    public GcMonitor gcMonitor() {
        return gc;
    }

    public Path brokerConf() {
        return brokerConf;
    }

    public Path logDir() {
        return home().resolve("logs/rocketmqlogs");
    }

    /** The broker JVM's full command line (all flags as the bin script built them), from /proc. */
    public List<String> brokerCommandLine() {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(broker.pid()), "cmdline"));
            List<String> args = new ArrayList<>();
            for (String a : new String(raw, StandardCharsets.UTF_8).split("\0")) {
                if (!a.isEmpty()) {
                    args.add(a);
                }
            }
            return args;
        } catch (IOException e) {
            return broker.command();
        }
    }

    /** Stops broker, GC monitor and name server (SIGTERM, SIGKILL after the spec's grace) and deletes the store. */
    @Override
    public void close() {
        List<ManagedProcess> running = new ArrayList<>();
        if (namesrv != null) {
            running.add(namesrv);
        }
        if (broker != null) {
            running.add(broker);
        }
        if (gc != null) {
            gc.close();
        }
        ChildProcesses.stopAll(running, spec.stopGrace);
        if (!spec.keepStore) {
            deleteTree(store());
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A leftover store in the run folder is harmless; the next run uses a new folder.
        }
    }

    /** The cluster could not be started; the message carries the process output that explains why. */
    public static final class ClusterException extends Exception {
        public ClusterException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
