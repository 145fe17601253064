package dev.rmqpatch.cluster;

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
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One name server and one master broker ({@link Topology#SINGLE}), a name server, a SYNC_MASTER and its SLAVE
 * ({@link Topology#MS_SYNC}), or a name server and two ASYNC_MASTERs of different brokerNames ({@link Topology#TWO_MASTERS}:
 * {@link #FIRST_MASTER} and {@link #SECOND_MASTER}), started from a distribution's {@code bin/mqnamesrv} and {@code bin/mqbroker} (the same
 * scripts an operator runs) in their own JVMs, on a loopback address, with fresh stores under the spec's work folder.
 * A broker conf is the distribution's conf file with ports, paths, the topology's role settings and the spec's
 * overrides appended (later keys win).
 *
 * <p>This is the one launcher of the project: the broker-patches ITs and the distributed-bench harness both start
 * brokers here. Every port a process binds is chosen free beforehand (a 4.9 broker binds three: P, P-2 and P+1), and
 * when another process takes one of them between the probe and the bind, start-up fails with "Address already in
 * use", the cluster is stopped and started again on new ports ({@link Spec#startAttempts}).
 */
public final class LocalCluster implements AutoCloseable {
    /**
     * What a 4.9 master logs when its slave's first offset report arrives. Until then the master pushes nothing and a
     * SYNC_MASTER send waits syncFlushTimeout and fails, and 4.9 has no admin request for HA state (5.x added one).
     */
    static final String HA_TRANSFER_STARTED = "master transfer data from";

    /** What a JVM prints when a port it binds is taken: the name server's and the broker's start-up both die with it. */
    static final String PORT_TAKEN = "Address already in use";

    /** What a 4.9 broker (and name server) prints to stdout once started; the broker registers before it. */
    public static final String BOOT_SUCCESS = "boot success";

    /** The brokerNames of {@link Topology#TWO_MASTERS}: the master ({@link #master()}) and the second ({@link #secondMaster()}). */
    public static final String FIRST_MASTER = "broker-a";
    public static final String SECOND_MASTER = "broker-b";

    private final Spec spec;
    private final Ports ports;
    private final Broker master;
    /** The slave (ms-sync), the second master (two-masters), or null (single). */
    private final Broker second;
    private final List<AutoCloseable> attached = new ArrayList<>();
    private ManagedProcess namesrv;

    /** One broker JVM's files and process. */
    public static final class Broker {
        private final String name;
        private final String host;
        private final int listenPort;
        private final long brokerId;
        private final Path conf;
        private final Path home;
        private final Path store;
        private final Path output;
        private ManagedProcess process;

        Broker(String name, String host, int listenPort, long brokerId, Path workDir, String suffix) {
            this.name = name;
            this.host = host;
            this.listenPort = listenPort;
            this.brokerId = brokerId;
            this.conf = workDir.resolve("broker" + suffix + ".conf");
            // Own user.home per broker: two brokers under one home would write the same log files.
            this.home = workDir.resolve("home" + suffix).toAbsolutePath();
            this.store = workDir.resolve("store" + suffix).toAbsolutePath();
            this.output = workDir.resolve("broker" + suffix + ".out");
        }

        public String name() {
            return name;
        }

        public String addr() {
            return host + ":" + listenPort;
        }

        public long brokerId() {
            return brokerId;
        }

        /** The broker JVM's stdout and stderr. */
        public Path output() {
            return output;
        }

        /** Where the broker's logback writes (its user.home's logs/rocketmqlogs). */
        public Path logDir() {
            return home.resolve("logs/rocketmqlogs");
        }

        public ManagedProcess process() {
            return process;
        }

        /** The broker's store root (commitlog/, consumequeue/, checkpoint ...). */
        public Path store() {
            return store;
        }
    }

    /**
     * How {@link #start} knows a broker serves. The default waits for {@link #BOOT_SUCCESS} in the broker's output,
     * which 4.9 prints after its first registration with the name server; the harness also waits until the broker's
     * statistics answer.
     */
    @FunctionalInterface
    public interface Readiness {
        /** Null once {@code broker} serves; otherwise what it still waits for (shown when start-up times out). */
        String waitingFor(LocalCluster cluster, Broker broker) throws Exception;

        Readiness BOOT_LOGGED = (cluster, broker) -> outputContains(broker.output, BOOT_SUCCESS) ? null
            : "'" + BOOT_SUCCESS + "' in " + broker.output;
    }

    /**
     * Ports of one cluster, all distinct: name server, and per broker its listen port P, P-2 (VIP channel) and P+1
     * (HA). The HA port is always P+1 because 4.9's BrokerStartup overwrites haListenPort with listenPort+1 after
     * reading the conf; the ms-sync confs still write it, so the conf says what the broker does. {@code second} is the
     * slave's (ms-sync) or the second master's (two-masters) listen port, 0 in the single topology.
     */
    record Ports(int namesrv, int master, int second) {
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

        int secondHa() {
            return second == 0 ? 0 : second + 1;
        }

        /** Every port the cluster's processes bind. */
        List<Integer> bound() {
            List<Integer> all = new ArrayList<>(List.of(namesrv));
            all.addAll(FreePorts.brokerPorts(master));
            if (second != 0) {
                all.addAll(FreePorts.brokerPorts(second));
            }
            return all;
        }
    }

    /** Chooses a cluster's ports; a test replaces it to provoke a port collision. */
    interface PortPlan {
        Ports allocate(Topology topology) throws IOException;
    }

    /**
     * Given to every server when {@link Spec#javaHome} is set: JDK 8 seeds SecureRandom from /dev/random, which blocks
     * for seconds at each server start on idle VMs. It changes nothing else (JDK 9+ read urandom by default).
     */
    public static final String ENTROPY = "-Djava.security.egd=file:/dev/./urandom";

    /** What to start. */
    public static final class Spec {
        /** Distribution folder, e.g. broker-patches/target/rocketmq-4.9.0-stock. */
        public Path dist;
        public Topology topology = Topology.SINGLE;
        /** A file (or path) under the distribution's conf/ folder, e.g. broker-tuned.conf. */
        public String confName = "broker.conf";
        /** Appended to the conf after the ports and paths, so they can override anything. */
        public Map<String, String> overrides = new LinkedHashMap<>();
        /**
         * The loopback address every server is reached at and the broker advertises (brokerIP1, brokerIP2). The
         * servers still listen on every address unless a flag such as rmqpatch's -Drmqpatch.bindAddress says otherwise.
         */
        public String host = "127.0.0.1";
        /** Heap of every broker JVM (master and slave, or both masters, alike). */
        public String brokerHeap = "2g";
        public String namesrvHeap = "256m";
        /** More flags for every broker JVM, after the heap (e.g. -XX:ActiveProcessorCount=2); fixed words, never user text. */
        public List<String> brokerJvmOptions = new ArrayList<>();
        /**
         * More flags for the master broker JVM only (two-masters: {@link #FIRST_MASTER}'s only), after
         * {@link #brokerJvmOptions}; fixed words, never user text. For what concerns the store under test and not its
         * slave's or the other master's (the harness's stall agent, --stall; failover's stalled broker-a).
         */
        public List<String> masterJvmOptions = new ArrayList<>();
        /** More flags for the name server JVM. */
        public List<String> namesrvJvmOptions = new ArrayList<>();
        /**
         * The JDK every server of this cluster runs on (its bin scripts are given it as JAVA_HOME), e.g. a JDK 8 from
         * scripts/jdk8.sh; null: the JAVA_HOME (else the java on PATH) this process inherited. Given, every server also
         * gets {@link #ENTROPY} and is checked, once up, to run this JDK's {@code java} (start fails otherwise).
         */
        public Path javaHome;
        /** Confs, process output, logs ({@code home/logs/rocketmqlogs}) and the stores go here. */
        public Path workDir;
        /** Keep the stores after stop (for debugging); by default they are deleted. */
        public boolean keepStore;
        public Duration startTimeout = Duration.ofSeconds(90);
        /**
         * SIGTERM grace before SIGKILL at stop. A 4.9 broker's shutdown sleeps over a second by design; a comparison
         * that throws the store away anyway stops with zero grace and saves that time every round.
         */
        public Duration stopGrace = Duration.ofSeconds(15);
        public Readiness readiness = Readiness.BOOT_LOGGED;
        /** Start-ups that died on a taken port are retried on new ports this many times in all. */
        public int startAttempts = 3;
        /** Where the launcher says that it retries (the harness prints to its console, tests to stderr). */
        public Consumer<String> log = System.err::println;
    }

    LocalCluster(Spec spec, Ports ports) {
        this.spec = spec;
        this.ports = ports;
        switch (spec.topology) {
            case SINGLE -> {
                this.master = new Broker("broker", spec.host, ports.master(), 0, spec.workDir, "");
                this.second = null;
            }
            case MS_SYNC -> {
                this.master = new Broker("master broker", spec.host, ports.master(), 0, spec.workDir, "");
                this.second = new Broker("slave broker", spec.host, ports.second(), 1, spec.workDir, "-slave");
            }
            case TWO_MASTERS -> {
                this.master = new Broker(FIRST_MASTER, spec.host, ports.master(), 0, spec.workDir, "");
                this.second = new Broker(SECOND_MASTER, spec.host, ports.second(), 0, spec.workDir, "-b");
            }
            default -> throw new IllegalArgumentException("unknown topology " + spec.topology);
        }
    }

    /**
     * Starts the processes and waits until the broker serves (ms-sync: and until the slave serves and the master has
     * started replicating to it); on any failure stops what it started. A start-up that died on a taken port is
     * retried on new ports.
     */
    public static LocalCluster start(Spec spec) throws ClusterException {
        return start(spec, Ports::allocate);
    }

    static LocalCluster start(Spec spec, PortPlan plan) throws ClusterException {
        checkDistribution(spec.dist, spec.confName);
        for (int attempt = 1; ; attempt++) {
            LocalCluster cluster;
            try {
                Files.createDirectories(spec.workDir);
                cluster = new LocalCluster(spec, plan.allocate(spec.topology));
            } catch (IOException e) {
                throw new ClusterException("cannot prepare " + spec.workDir + ": " + e.getMessage(), e);
            }
            try {
                cluster.startNamesrv();
                cluster.launchAndAwait(cluster.master);
                if (cluster.second != null) {
                    cluster.launchAndAwait(cluster.second);
                }
                cluster.checkJavaHome();
                return cluster;
            } catch (ClusterException | RuntimeException e) {
                boolean collision = cluster.portTaken();
                cluster.close();
                cluster.clearOutputs();
                if (!collision || attempt >= spec.startAttempts) {
                    throw e;
                }
                spec.log.accept("local cluster: a port of " + cluster.ports.bound() + " was taken by another process "
                    + "before the servers bound it; starting again on new ports (attempt " + (attempt + 1) + " of "
                    + spec.startAttempts + ")");
            }
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

    /** With a {@link Spec#javaHome}: every server runs that JDK's java (its executable, from /proc), else start fails. */
    private void checkJavaHome() throws ClusterException {
        if (spec.javaHome == null) {
            return;
        }
        Path home = spec.javaHome.toAbsolutePath().normalize();
        for (ManagedProcess p : processes()) {
            String exe = javaOf(p.pid());
            if (exe == null || !Path.of(exe).toAbsolutePath().normalize().startsWith(home)) {
                throw new ClusterException(p.name() + " (pid " + p.pid() + ") runs " + exe + ", not the java of " + home
                    + "; do the distribution's bin scripts honour JAVA_HOME?", null);
            }
        }
    }

    /** The executable process {@code pid} runs (from /proc), or null when it has ended or is not visible. */
    public static String javaOf(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().command()).orElse(null);
    }

    private Map<String, String> env(String heap, Path home, List<String> jvmOptions) {
        Map<String, String> env = new LinkedHashMap<>();
        // user.home isolates logs (and anything else RocketMQ keeps under ~) in the run folder.
        StringBuilder opt = new StringBuilder("-Xms" + heap + " -Xmx" + heap + " -Duser.home=" + home);
        jvmOptions.forEach(o -> opt.append(' ').append(o));
        if (spec.javaHome != null && !jvmOptions.contains(ENTROPY)) {
            opt.append(' ').append(ENTROPY);
        }
        env.put("JAVA_OPT", opt.toString());
        // An inherited ROCKETMQ_HOME would make the bin scripts load another installation's jars.
        env.put("ROCKETMQ_HOME", null);
        if (spec.javaHome != null) {
            env.put("JAVA_HOME", spec.javaHome.toString());
        }
        return env;
    }

    private void startNamesrv() throws ClusterException {
        Path conf = namesrvConf();
        try {
            Files.createDirectories(master.home);
            Files.writeString(conf, "listenPort=" + ports.namesrv() + "\n");
            namesrv = ManagedProcess.start("name server", List.of(spec.dist.resolve("bin/mqnamesrv").toString(), "-c", conf.toString()),
                env(spec.namesrvHeap, master.home, spec.namesrvJvmOptions), spec.workDir, namesrvOutput());
        } catch (IOException e) {
            throw new ClusterException("cannot start the name server from " + spec.dist + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        while (!listening(spec.host, ports.namesrv())) {
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

    private void launch(Broker broker) throws ClusterException {
        try {
            Files.createDirectories(broker.home);
            if (Files.exists(broker.output)) {
                // A restart: the readiness check must not find the previous start's "boot success".
                Files.move(broker.output, broker.output.resolveSibling(broker.output.getFileName() + ".previous"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Files.writeString(broker.conf, confText(broker), StandardCharsets.UTF_8);
            broker.process = ManagedProcess.start(broker.name, List.of(spec.dist.resolve("bin/mqbroker").toString(), "-c",
                broker.conf.toString()), env(spec.brokerHeap, broker.home, jvmOptions(broker)), spec.workDir, broker.output);
        } catch (IOException e) {
            throw new ClusterException("cannot start the " + broker.name + " from " + spec.dist + ": " + e.getMessage(), e);
        }
    }

    /** Every broker's flags, then the master's own. */
    private List<String> jvmOptions(Broker broker) {
        if (broker != master || spec.masterJvmOptions.isEmpty()) {
            return spec.brokerJvmOptions;
        }
        List<String> all = new ArrayList<>(spec.brokerJvmOptions);
        all.addAll(spec.masterJvmOptions);
        return all;
    }

    /**
     * Ready means: the spec's readiness holds, and for a slave also that the master has received the slave's first HA
     * offset report (about haSendHeartbeatInterval, 5 s, after the slave connects), so the first SYNC_MASTER sends of
     * a warm-up are replicated instead of timing out.
     */
    private void launchAndAwait(Broker broker) throws ClusterException {
        launch(broker);
        long deadline = System.nanoTime() + spec.startTimeout.toNanos();
        String last = "not started yet";
        while (true) {
            checkAlive(broker);
            if (broker != master) {
                checkAlive(master);
            }
            try {
                last = spec.readiness.waitingFor(this, broker);
                if (last == null && broker == slave() && !logContains(master, HA_TRANSFER_STARTED)) {
                    last = "the master has not logged '" + HA_TRANSFER_STARTED + "' (the slave's first HA offset report)";
                }
                if (last == null) {
                    return;
                }
            } catch (Exception e) {
                last = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new ClusterException(broker.name + " not ready within " + spec.startTimeout.toSeconds() + " s (waiting for "
                    + last + ")" + broker.process.lastOutput() + logTail(broker) + (broker == master ? "" : logTail(master)), null);
            }
            sleep(200);
        }
    }

    private void checkAlive(Broker broker) throws ClusterException {
        if (!broker.process.isAlive()) {
            throw new ClusterException(broker.name + " did not start or died: " + broker.process.describeState() + logTail(broker), null);
        }
    }

    /** Whether a process of this cluster died because a port was taken (the race between probing a port and binding it). */
    private boolean portTaken() {
        List<Path> outputs = new ArrayList<>(List.of(namesrvOutput()));
        brokers().forEach(b -> outputs.add(b.output));
        return outputs.stream().anyMatch(out -> outputContains(out, PORT_TAKEN));
    }

    /** A retry starts in the same folder: the old outputs and logs would still say "Address already in use". */
    private void clearOutputs() {
        List<Path> outputs = new ArrayList<>(List.of(namesrvOutput()));
        brokers().forEach(b -> outputs.add(b.output));
        for (Path out : outputs) {
            try {
                Files.deleteIfExists(out);
            } catch (IOException e) {
                // The next start appends to it; the readiness checks only look for text of the new start.
            }
        }
        brokers().forEach(b -> deleteTree(b.home));
    }

    /** The conf a broker runs with: the distribution's conf, then ports, paths, role, then the spec's overrides. */
    String confText(Broker broker) throws IOException {
        StringBuilder conf = new StringBuilder(Files.readString(spec.dist.resolve("conf").resolve(spec.confName), StandardCharsets.UTF_8));
        conf.append("\n\n# appended by rmqpatch local-cluster (later keys win)\n");
        Map<String, String> appended = new LinkedHashMap<>();
        appended.put("listenPort", Integer.toString(broker.listenPort));
        appended.put("namesrvAddr", namesrvAddr());
        appended.put("brokerIP1", spec.host);
        appended.put("storePathRootDir", broker.store.toString());
        appended.put("storePathCommitLog", broker.store.resolve("commitlog").toString());
        if (spec.topology == Topology.MS_SYNC) {
            // brokerIP2 is the HA address the master registers; its default is a non-loopback interface address.
            appended.put("brokerIP2", spec.host);
            appended.put("flushDiskType", "ASYNC_FLUSH");
            if (broker == master) {
                appended.put("brokerId", "0");
                appended.put("brokerRole", "SYNC_MASTER");
                appended.put("haListenPort", Integer.toString(ports.masterHa()));
                if (brokerMajorVersion(spec.dist) >= 5) {
                    // 5.x's SYNC_MASTER answers a send without waiting for the slave unless inSyncReplicas (default 1:
                    // the master alone) is at least 2 (5.3.3 CommitLog.handleHA: needAckNums <= 1 is PUT_OK at once;
                    // outside controller mode and slave-acting-master nothing raises it). 2 makes SEND_OK mean what it
                    // means on 4.x's SYNC_MASTER: the slave holds the message. An override still wins.
                    appended.put("inSyncReplicas", "2");
                }
            } else {
                appended.put("brokerId", "1");
                appended.put("brokerRole", "SLAVE");
                appended.put("haListenPort", Integer.toString(ports.secondHa()));
                if (brokerMajorVersion(spec.dist) < 5) {
                    // Set, a 4.x slave connects at once instead of waiting for the name server to hand it the address.
                    // A 5.x (5.3.3) slave given it never connected here: it logged "HAClient connect to master null
                    // failed" every 5 s for the 90 s start timeout. Its HA client's address ends up null (where it is
                    // reset was not traced), and with haMasterAddress set 5.3.3's BrokerController.initialize turns
                    // off taking the one the name server returns at registration (updateMasterHAServerAddrPeriodically).
                    // Left out, the slave takes the master's HA address from its first registration, seconds after start.
                    appended.put("haMasterAddress", spec.host + ":" + ports.masterHa());
                }
            }
        }
        if (spec.topology == Topology.TWO_MASTERS) {
            // Two brokerNames, each its own master: a producer spreads over both and can move to the other.
            appended.put("brokerName", broker == master ? FIRST_MASTER : SECOND_MASTER);
            appended.put("brokerId", "0");
            appended.put("brokerRole", "ASYNC_MASTER");
            appended.put("flushDiskType", "ASYNC_FLUSH");
        }
        appended.putAll(spec.overrides);
        appended.forEach((k, v) -> conf.append(k).append('=').append(v).append('\n'));
        return conf.toString();
    }

    /**
     * The major version of the distribution's broker, from its {@code lib/rocketmq-broker-<version>.jar} (4 when there is
     * none to read, as in the tests' fake distributions).
     */
    static int brokerMajorVersion(Path dist) {
        try (Stream<Path> jars = Files.list(dist.resolve("lib"))) {
            return jars.map(j -> j.getFileName().toString())
                .map(BROKER_JAR::matcher)
                .filter(java.util.regex.Matcher::matches)
                .map(m -> Integer.parseInt(m.group(1)))
                .findFirst().orElse(4);
        } catch (IOException e) {
            return 4;
        }
    }

    private static final java.util.regex.Pattern BROKER_JAR = java.util.regex.Pattern.compile("rocketmq-broker-([0-9]+)\\..*\\.jar");

    String masterConfText() throws IOException {
        return confText(master);
    }

    String slaveConfText() throws IOException {
        if (slave() == null) {
            throw new IllegalStateException("no slave in topology " + spec.topology);
        }
        return confText(slave());
    }

    String secondMasterConfText() throws IOException {
        if (secondMaster() == null) {
            throw new IllegalStateException("no second master in topology " + spec.topology);
        }
        return confText(secondMaster());
    }

    Ports ports() {
        return ports;
    }

    Spec spec() {
        return spec;
    }

    /** The brokerName of the conf the (master) broker runs with (the distribution's, unless overridden). */
    public String brokerName() {
        return brokerName(master);
    }

    /** The brokerName {@code broker} runs with: the master's and its slave's are one; two masters have two. */
    public String brokerName(Broker broker) {
        try {
            java.util.Properties p = new java.util.Properties();
            p.load(new java.io.StringReader(confText(broker)));
            return p.getProperty("brokerName", "DEFAULT_BROKER");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String logTail(Broker broker) {
        Path log = broker.logDir().resolve("broker.log");
        String tail = ManagedProcess.tail(log, 15);
        return tail.isBlank() ? "" : "\nlast lines of " + log + ":\n" + tail;
    }

    /** Searches every *.log of the broker (this project's logback conf writes one broker.log, stock ones several). */
    private static boolean logContains(Broker broker, String text) {
        if (!Files.isDirectory(broker.logDir())) {
            return false;
        }
        try (Stream<Path> logs = Files.list(broker.logDir())) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                if (outputContains(log, text)) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static boolean outputContains(Path file, String text) {
        try {
            // ISO-8859-1 never fails to decode, and the searched texts are ASCII.
            return Files.exists(file) && new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean listening(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 200);
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

    // --- the running cluster ---------------------------------------------------------------------------------------

    public Topology topology() {
        return spec.topology;
    }

    public String namesrvAddr() {
        return spec.host + ":" + ports.namesrv();
    }

    public int namesrvPort() {
        return ports.namesrv();
    }

    /** The (master) broker's address: the one producers send to. */
    public String brokerAddr() {
        return master.addr();
    }

    /** The (master) broker's listen port P; it also binds P-2 (VIP channel) and P+1 (HA). */
    public int brokerPort() {
        return ports.master();
    }

    public Broker master() {
        return master;
    }

    /** The slave (ms-sync), or null. */
    public Broker slave() {
        return spec.topology == Topology.MS_SYNC ? second : null;
    }

    /** The second master, {@link #SECOND_MASTER} (two-masters), or null; {@link #master()} is {@link #FIRST_MASTER}. */
    public Broker secondMaster() {
        return spec.topology == Topology.TWO_MASTERS ? second : null;
    }

    /** Every broker of the cluster, the master first. */
    public List<Broker> brokers() {
        return second == null ? List.of(master) : List.of(master, second);
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

    /** The slave's process (ms-sync), or null. */
    public ManagedProcess slaveProcess() {
        return slave() == null ? null : slave().process;
    }

    public String slaveAddr() {
        return slave() == null ? null : slave().addr();
    }

    /** Every process of the cluster: name server, broker, and the slave or the second master when there is one. */
    public List<ManagedProcess> processes() {
        List<ManagedProcess> all = new ArrayList<>(List.of(master.process, namesrv));
        if (second != null) {
            all.add(second.process);
        }
        return all;
    }

    public ManagedProcess namesrvProcess() {
        return namesrv;
    }

    /** The (master) broker's conf file, which a 4.9 broker also rewrites when its config is updated at run time. */
    public Path brokerConf() {
        return master.conf;
    }

    /** The name server's properties file (passed with -c; 4.9 persists run-time config updates into it). */
    public Path namesrvConf() {
        return spec.workDir.resolve("namesrv.properties");
    }

    private Path namesrvOutput() {
        return spec.workDir.resolve("namesrv.out");
    }

    /** The (master) broker's log folder. */
    public Path logDir() {
        return master.logDir();
    }

    /** The name server's log folder (it shares the master's user.home). */
    public Path namesrvLogDir() {
        return master.logDir();
    }

    /** The (master) broker's CommitLog folder. */
    public Path commitLogDir() {
        return master.store.resolve("commitlog");
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

    /** Closes {@code resource} (a monitor of one of the cluster's processes, say) before the processes stop. */
    public synchronized <T extends AutoCloseable> T attach(T resource) {
        attached.add(resource);
        return resource;
    }

    /** The first attached resource of this type. */
    public synchronized <T> Optional<T> attached(Class<T> type) {
        return attached.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** SIGTERM to the (master) broker, SIGKILL after the spec's grace; its store stays for {@link #restartBroker()}. */
    public void stopBroker() {
        stop(master);
    }

    /** SIGKILL, as a crash would: nothing in the broker runs after this; its store stays. */
    public void killBroker() {
        kill(master);
    }

    /** Starts the (master) broker again, on the same ports and store, and waits until it serves. */
    public void restartBroker() throws ClusterException {
        restart(master);
    }

    /** SIGTERM to {@code broker} (the master or the slave), SIGKILL after the spec's grace; its store stays. */
    public void stop(Broker broker) {
        broker.process.stop(spec.stopGrace);
    }

    /** SIGKILL to {@code broker} (the master or the slave), as a crash would; its store stays. */
    public void kill(Broker broker) {
        broker.process.kill();
    }

    /** Starts {@code broker} (the master or the slave) again, on the same ports and store, and waits until it serves. */
    public void restart(Broker broker) throws ClusterException {
        if (broker.process.isAlive()) {
            throw new IllegalStateException("the " + broker.name + " still runs; stop it first");
        }
        launchAndAwait(broker);
    }

    /** Stops attached resources, brokers and name server (SIGTERM, SIGKILL after the spec's grace) and deletes the stores. */
    @Override
    public void close() {
        List<AutoCloseable> resources;
        synchronized (this) {
            resources = new ArrayList<>(attached);
            attached.clear();
        }
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                // A monitor that fails to stop must not keep the processes running.
            }
        }
        List<ManagedProcess> running = new ArrayList<>();
        if (namesrv != null) {
            running.add(namesrv);
        }
        for (Broker broker : brokers()) {
            if (broker.process != null) {
                running.add(broker.process);
            }
        }
        ChildProcesses.stopAll(running, spec.stopGrace);
        if (!spec.keepStore) {
            brokers().forEach(b -> deleteTree(b.store));
        }
    }

    /** Deletes a folder and everything in it; what cannot be deleted is left (a later run uses a new folder). */
    public static void deleteTree(Path root) {
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
