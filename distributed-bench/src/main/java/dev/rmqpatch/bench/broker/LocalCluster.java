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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One name server and one master broker on 127.0.0.1 ({@link Topology#SINGLE}), or a name server, a SYNC_MASTER and
 * its SLAVE ({@link Topology#MS_SYNC}), started from a distribution's {@code bin/mqnamesrv} and {@code bin/mqbroker}
 * (the same scripts an operator runs) in their own JVMs, with fresh stores. A broker conf is the distribution's conf
 * file with ports, paths, the topology's role settings and the spec's overrides appended (later keys win).
 */
public final class LocalCluster implements AutoCloseable {
    /**
     * What a 4.9 master logs when its slave's first offset report arrives. Until then the master pushes nothing and a
     * SYNC_MASTER send waits syncFlushTimeout and fails, and 4.9 has no admin request for HA state (5.x added one).
     */
    static final String HA_TRANSFER_STARTED = "master transfer data from";

    private final Spec spec;
    private final Ports ports;
    private final Node master;
    private final Node slave;
    private ManagedProcess namesrv;
    private GcMonitor gc;

    /** One broker JVM's files and process. */
    private static final class Node {
        final String name;
        final int listenPort;
        final Path conf;
        final Path home;
        final Path store;
        final Path output;
        ManagedProcess process;

        Node(String name, int listenPort, Path workDir, String suffix) {
            this.name = name;
            this.listenPort = listenPort;
            this.conf = workDir.resolve("broker" + suffix + ".conf");
            // Own user.home per broker: two brokers under one home would write the same log files.
            this.home = workDir.resolve("home" + suffix).toAbsolutePath();
            this.store = workDir.resolve("store" + suffix).toAbsolutePath();
            this.output = workDir.resolve("broker" + suffix + ".out");
        }

        String addr() {
            return "127.0.0.1:" + listenPort;
        }

        Path logDir() {
            return home.resolve("logs/rocketmqlogs");
        }
    }

    /**
     * Ports of one cluster, all distinct: name server, and per broker its listen port P, P-2 (VIP channel) and P+1
     * (HA). The HA port is always P+1 because 4.9's BrokerStartup overwrites haListenPort with listenPort+1 after
     * reading the conf; the ms-sync confs still write it, so the conf says what the broker does. Slave fields are 0
     * in the single topology.
     */
    record Ports(int namesrv, int master, int slave) {
        static Ports allocate(Topology topology) throws IOException {
            Set<Integer> taken = new HashSet<>();
            int ns = FreePorts.any(taken);
            taken.add(ns);
            int m = FreePorts.forBroker(taken);
            taken.addAll(FreePorts.brokerPorts(m));
            int s = topology == Topology.SINGLE ? 0 : FreePorts.forBroker(taken);
            return new Ports(ns, m, s);
        }

        int masterHa() {
            return master + 1;
        }

        int slaveHa() {
            return slave == 0 ? 0 : slave + 1;
        }

        /** Every port the cluster's processes bind. */
        List<Integer> bound() {
            List<Integer> all = new ArrayList<>(List.of(namesrv));
            all.addAll(FreePorts.brokerPorts(master));
            if (slave != 0) {
                all.addAll(FreePorts.brokerPorts(slave));
            }
            return all;
        }
    }

    /** What to start. */
    public static final class Spec {
        /** Distribution folder, e.g. broker-patches/target/rocketmq-4.9.0-stock. */
        public Path dist;
        public Topology topology = Topology.SINGLE;
        /** A file in the distribution's conf/ folder, e.g. broker-tuned.conf. */
        public String confName = "broker.conf";
        /** Appended to the conf after the ports and paths, so they can override anything. */
        public Map<String, String> overrides = new LinkedHashMap<>();
        /** Heap of every broker JVM (master and slave alike). */
        public String brokerHeap = "2g";
        public String namesrvHeap = "256m";
        /** More flags for every broker JVM, after the heap (e.g. -XX:ActiveProcessorCount=2); fixed words, never user text. */
        public List<String> brokerJvmOptions = new ArrayList<>();
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

    LocalCluster(Spec spec, Ports ports) {
        this.spec = spec;
        this.ports = ports;
        this.master = new Node(spec.topology == Topology.SINGLE ? "broker" : "master broker", ports.master(), spec.workDir, "");
        this.slave = spec.topology == Topology.SINGLE ? null : new Node("slave broker", ports.slave(), spec.workDir, "-slave");
    }

    /**
     * Starts the processes and waits until the broker has registered (ms-sync: and until the slave has registered and
     * the master has started replicating to it); on any failure stops what it started.
     */
    public static LocalCluster start(Spec spec, BrokerAdmin admin) throws ClusterException {
        checkDistribution(spec.dist, spec.confName);
        LocalCluster cluster;
        try {
            Files.createDirectories(spec.workDir);
            cluster = new LocalCluster(spec, Ports.allocate(spec.topology));
        } catch (IOException e) {
            throw new ClusterException("cannot prepare " + spec.workDir + ": " + e.getMessage(), e);
        }
        try {
            cluster.startNamesrv();
            cluster.startMaster(admin);
            if (cluster.slave != null) {
                cluster.startSlave(admin);
            }
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

    private static Map<String, String> env(String heap, Path home, List<String> jvmOptions) {
        Map<String, String> env = new LinkedHashMap<>();
        // user.home isolates logs (and anything else RocketMQ keeps under ~) in the run folder.
        StringBuilder opt = new StringBuilder("-Xms" + heap + " -Xmx" + heap + " -Duser.home=" + home);
        jvmOptions.forEach(o -> opt.append(' ').append(o));
        env.put("JAVA_OPT", opt.toString());
        // An inherited ROCKETMQ_HOME would make the bin scripts load another installation's jars.
        env.put("ROCKETMQ_HOME", null);
        return env;
    }

    private void startNamesrv() throws ClusterException {
        Path conf = spec.workDir.resolve("namesrv.properties");
        try {
            Files.createDirectories(master.home);
            Files.writeString(conf, "listenPort=" + ports.namesrv() + "\n");
            namesrv = ManagedProcess.start("name server", List.of(spec.dist.resolve("bin/mqnamesrv").toString(), "-c", conf.toString()),
                env(spec.namesrvHeap, master.home, List.of()), spec.workDir, spec.workDir.resolve("namesrv.out"));
        } catch (IOException e) {
            throw new ClusterException("cannot start the name server from " + spec.dist + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        while (!listening(ports.namesrv())) {
            if (!namesrv.isAlive()) {
                throw new ClusterException("name server did not start: " + namesrv.describeState(), null);
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException("name server not listening on port " + ports.namesrv() + " after "
                    + spec.startTimeout.toSeconds() + " s" + namesrv.lastOutput(), null);
            }
            sleep(100);
        }
    }

    private void launch(Node node) throws ClusterException {
        try {
            Files.createDirectories(node.home);
            Files.writeString(node.conf, confText(node), StandardCharsets.UTF_8);
            node.process = ManagedProcess.start(node.name, List.of(spec.dist.resolve("bin/mqbroker").toString(), "-c", node.conf.toString()),
                env(spec.brokerHeap, node.home, spec.brokerJvmOptions), spec.workDir, node.output);
        } catch (IOException e) {
            throw new ClusterException("cannot start the " + node.name + " from " + spec.dist + ": " + e.getMessage(), e);
        }
    }

    private void startMaster(BrokerAdmin admin) throws ClusterException {
        launch(master);
        try {
            gc = GcMonitor.start(master.process.pid(), spec.workDir.resolve("broker-gc.jstat"));
        } catch (IOException e) {
            throw new ClusterException("cannot start the GC monitor of the " + master.name + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        String last = "not registered yet";
        while (true) {
            checkAlive(master);
            try {
                // Registered, and its statistics answer: a 4.9 broker fails runtime-info requests during its
                // first second, before the stats sampler has run once.
                if (master.addr().equals(admin.masterBrokers(namesrvAddr()).get(brokerName()))) {
                    admin.runtimeInfo(master.addr());
                    return;
                }
            } catch (BrokerAdmin.AdminException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException(master.name + " did not register at the name server within " + spec.startTimeout.toSeconds()
                    + " s (" + last + ")" + master.process.lastOutput() + logTail(master), null);
            }
            sleep(200);
        }
    }

    /**
     * Ready means: registered at the name server as brokerId 1 of the master's brokerName, answering admin requests,
     * and the master has received the slave's first HA offset report (about haSendHeartbeatInterval, 5 s, after the
     * slave connects), so the first SYNC_MASTER sends of the warm-up are replicated instead of timing out.
     */
    private void startSlave(BrokerAdmin admin) throws ClusterException {
        launch(slave);
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        String last = "not registered yet";
        while (true) {
            checkAlive(slave);
            checkAlive(master);
            try {
                Map<Long, String> addrs = admin.brokers(namesrvAddr()).get(brokerName());
                if (addrs != null && slave.addr().equals(addrs.get(1L))) {
                    admin.runtimeInfo(slave.addr());
                    if (logContains(master, HA_TRANSFER_STARTED)) {
                        return;
                    }
                    last = "registered, but the master has not logged '" + HA_TRANSFER_STARTED + "' (the slave's first HA offset report)";
                } else {
                    last = "not registered as brokerId 1 of " + brokerName() + " yet (registered: " + addrs + ")";
                }
            } catch (BrokerAdmin.AdminException e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException(slave.name + " not ready within " + spec.startTimeout.toSeconds() + " s (" + last + ")"
                    + slave.process.lastOutput() + logTail(slave) + logTail(master), null);
            }
            sleep(200);
        }
    }

    private void checkAlive(Node node) throws ClusterException {
        if (!node.process.isAlive()) {
            throw new ClusterException(node.name + " did not start or died: " + node.process.describeState() + logTail(node), null);
        }
    }

    /** The conf a broker runs with: the distribution's conf, then ports, paths, role, then the spec's overrides. */
    String confText(Node node) throws IOException {
        StringBuilder conf = new StringBuilder(Files.readString(spec.dist.resolve("conf").resolve(spec.confName), StandardCharsets.UTF_8));
        conf.append("\n\n# appended by rmqpatch distributed-bench (later keys win)\n");
        Map<String, String> appended = new LinkedHashMap<>();
        appended.put("listenPort", Integer.toString(node.listenPort));
        appended.put("namesrvAddr", namesrvAddr());
        appended.put("brokerIP1", "127.0.0.1");
        appended.put("storePathRootDir", node.store.toString());
        appended.put("storePathCommitLog", node.store.resolve("commitlog").toString());
        if (spec.topology == Topology.MS_SYNC) {
            // brokerIP2 is the HA address the master registers; its default is a non-loopback interface address.
            appended.put("brokerIP2", "127.0.0.1");
            appended.put("flushDiskType", "ASYNC_FLUSH");
            if (node == master) {
                appended.put("brokerId", "0");
                appended.put("brokerRole", "SYNC_MASTER");
                appended.put("haListenPort", Integer.toString(ports.masterHa()));
            } else {
                appended.put("brokerId", "1");
                appended.put("brokerRole", "SLAVE");
                appended.put("haListenPort", Integer.toString(ports.slaveHa()));
                // Set, the slave connects at once instead of waiting for the name server to hand it the address.
                appended.put("haMasterAddress", "127.0.0.1:" + ports.masterHa());
            }
        }
        appended.putAll(spec.overrides);
        appended.forEach((k, v) -> conf.append(k).append('=').append(v).append('\n'));
        return conf.toString();
    }

    String masterConfText() throws IOException {
        return confText(master);
    }

    String slaveConfText() throws IOException {
        if (slave == null) {
            throw new IllegalStateException("no slave in topology " + spec.topology);
        }
        return confText(slave);
    }

    Ports ports() {
        return ports;
    }

    Spec spec() {
        return spec;
    }

    private String brokerName() {
        try {
            java.util.Properties p = new java.util.Properties();
            p.load(new java.io.StringReader(Files.readString(master.conf)));
            return p.getProperty("brokerName", "DEFAULT_BROKER");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String logTail(Node node) {
        Path log = node.logDir().resolve("broker.log");
        String tail = ManagedProcess.tail(log, 15);
        return tail.isBlank() ? "" : "\nlast lines of " + log + ":\n" + tail;
    }

    /** Searches every *.log of the broker (this project's logback conf writes one broker.log, stock ones several). */
    private static boolean logContains(Node node, String text) {
        if (!Files.isDirectory(node.logDir())) {
            return false;
        }
        try (Stream<Path> logs = Files.list(node.logDir())) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                // ISO-8859-1 never fails to decode, and the searched text is ASCII.
                if (new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1).contains(text)) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /**
     * Reads the master's and the slave's CommitLog max offsets after the load, waiting up to {@code catchUp} for them to
     * match; the slave applies what the master pushed asynchronously, so a last batch can still be in flight.
     */
    public Replication replication(BrokerAdmin admin, Duration catchUp) throws BrokerAdmin.AdminException {
        if (slave == null) {
            throw new IllegalStateException("no slave in topology " + spec.topology);
        }
        Replication r = new Replication();
        r.masterAddr = master.addr();
        r.slaveAddr = slave.addr();
        long start = System.nanoTime();
        long deadline = start + catchUp.toNanos();
        while (true) {
            r.masterCommitLogMaxOffset = admin.commitLogMaxOffset(master.addr());
            r.slaveCommitLogMaxOffset = admin.commitLogMaxOffset(slave.addr());
            r.slaveBehindBytes = r.masterCommitLogMaxOffset - r.slaveCommitLogMaxOffset;
            r.waitedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            if (r.caughtUp() || System.nanoTime() > deadline) {
                return r;
            }
            sleep(100);
        }
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
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }

    public Topology topology() {
        return spec.topology;
    }

    public String namesrvAddr() {
        return "127.0.0.1:" + ports.namesrv();
    }

    /** The (master) broker's address: the one producers send to. */
    public String brokerAddr() {
        return master.addr();
    }

    public long brokerPid() {
        return master.process.pid();
    }

    public long namesrvPid() {
        return namesrv.pid();
    }

    public ManagedProcess brokerProcess() {
        return master.process;
    }

    /** The slave (ms-sync), or null. */
    public ManagedProcess slaveProcess() {
        return slave == null ? null : slave.process;
    }

    public String slaveAddr() {
        return slave == null ? null : slave.addr();
    }

    /** Every process of the cluster: name server, broker, and the slave when there is one. */
    public List<ManagedProcess> processes() {
        List<ManagedProcess> all = new ArrayList<>(List.of(master.process, namesrv));
        if (slave != null) {
            all.add(slave.process);
        }
        return all;
    }

    public ManagedProcess namesrvProcess() {
        return namesrv;
    }

    public GcMonitor gcMonitor() {
        return gc;
    }

    public Path brokerConf() {
        return master.conf;
    }

    public Path logDir() {
        return master.logDir();
    }

    /** The broker JVM's full command line (all flags as the bin script built them), from /proc. */
    public List<String> brokerCommandLine() {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(master.process.pid()), "cmdline"));
            List<String> args = new ArrayList<>();
            for (String a : new String(raw, StandardCharsets.UTF_8).split("\0")) {
                if (!a.isEmpty()) {
                    args.add(a);
                }
            }
            return args;
        } catch (IOException e) {
            return master.process.command();
        }
    }

    /** Stops brokers, GC monitor and name server (SIGTERM, SIGKILL after the spec's grace) and deletes the stores. */
    @Override
    public void close() {
        List<ManagedProcess> running = new ArrayList<>();
        if (namesrv != null) {
            running.add(namesrv);
        }
        for (Node node : slave == null ? List.of(master) : List.of(master, slave)) {
            if (node.process != null) {
                running.add(node.process);
            }
        }
        if (gc != null) {
            gc.close();
        }
        ChildProcesses.stopAll(running, spec.stopGrace);
        if (!spec.keepStore) {
            deleteTree(master.store);
            if (slave != null) {
                deleteTree(slave.store);
            }
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
