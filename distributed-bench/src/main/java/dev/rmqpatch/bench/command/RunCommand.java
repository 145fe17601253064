package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.broker.JmxAccess;
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.LocalJvm;
import dev.rmqpatch.bench.coordinator.RunFailedException;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.coordinator.RunTable;
import dev.rmqpatch.bench.omb.OmbResult;
import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.report.ResultsFile;
import dev.rmqpatch.bench.sink.SinkMain;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.ManagedProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code run}: the coordinator command for one workload. */
public final class RunCommand {
    static final Flag<Boolean> SINK = Flag.toggle("--sink", "a local no-op endpoint that acknowledges at once: the harness's own ceiling");
    static final Flag<String> SINK_SERVER = Flag.oneOf("--sink-server", "with --sink. raw: reads only code and opaque, pre-encoded "
        + "answers (the ceiling); remoting: the stock remoting server (its CPU/msg is the remoting floor)", "raw", "remoting")
        .defaultingTo("raw");
    static final Flag<Path> DIST = Flag.path("--dist", "DIR", "start a fresh name server + broker from a distribution (bin/mqbroker ...)");
    static final Flag<String> CONF = Flag.text("--conf", "NAME", "with --dist: broker conf in DIR/conf").defaultingTo("broker.conf");
    // Shared with compare --efficiency's remote brokers (HarnessFlags): --agent, --agent-token-file, --broker-jmx-password-file,
    // --broker-jmx-tls-cert.
    private static final Flag<String> AGENT = HarnessFlags.AGENT;
    private static final Flag<Path> AGENT_TOKEN_FILE = HarnessFlags.AGENT_TOKEN_FILE;
    private static final Flag<Path> BROKER_JMX_PASSWORD_FILE = HarnessFlags.BROKER_JMX_PASSWORD_FILE;
    private static final Flag<Path> BROKER_JMX_TLS_CERT = HarnessFlags.BROKER_JMX_TLS_CERT;
    static final Flag<String> NAMESRV = Flag.text("--namesrv", "HOST:PORT", "an already running cluster (all its masters get the topics)");
    static final Flag<Long> BROKER_PID = Flag.pid("--broker-pid",
        "with --namesrv: pid of its broker on this machine, for CPU and GC figures");
    static final Flag<String> BROKER_JMX = Flag.text("--broker-jmx", "HOST:PORT[,HOST:PORT...]", "with --namesrv: JMX ports of its master "
        + "brokers (other hosts), for CPU and GC figures; a broker that cannot be read leaves them empty with a warning").repeatable();
    static final Flag<Integer> PARTITIONS = Flag.whole("--partitions", "N", 1, "queues per topic")
        .defaultingTo(Workload.defaults().partitionsPerTopic());
    static final Flag<Integer> TOPICS = Flag.whole("--topics", "N", 1, "topics").defaultingTo(Workload.defaults().topics());
    static final Flag<Integer> PRODUCERS_PER_TOPIC = Flag.whole("--producers-per-topic", "N", 1, "producer instances per topic per agent")
        .defaultingTo(Workload.defaults().producersPerTopic());
    static final Flag<Integer> IO_THREADS = Flag.whole("--io-threads", "N", 1, "--client wire only: netty event-loop threads per agent")
        .defaultingTo(1);
    static final Flag<Integer> SEND_TIMEOUT = Flag.whole("--send-timeout", "MS", 1, "producer send timeout").defaultingTo(3000);
    static final Flag<Integer> MAX_OUTSTANDING = Flag.whole("--max-outstanding", "N", 1, "async only: messages in flight per agent")
        .defaultingTo(1000);
    static final Flag<Integer> DRAIN_TIMEOUT = Flag.whole("--drain-timeout", "S", 1, "with consumers: how long they may take, after "
        + "the producers stopped, to receive every acknowledged message before the count check").defaultingTo(null,
        "60, plus 1 s per 100 queues: stock consumers take a while to settle on 10,000 queues");
    static final Flag<Double> BACKLOG_GB = Flag.number("--backlog-gb", "GB", 0, "overrides the workload's consumerBacklogSizeGB (OMB's "
        + "files ask for up to 512 GB; a local broker's disk may not hold that), 0 = no backlog phase");

    static final FlagSet FLAGS = new FlagSet("Usage: bench run (--sink | --dist DIR | --namesrv HOST:PORT) [options]", String.join("\n",
        "Runs one workload: starts or reaches the load agents, creates the topics, starts all agents at the same",
        "moment, prints aggregate progress every second, merges the agents' latency histograms, and prints a",
        "table. Results go to <out>/results.json (also when the run fails: status \"failed\" and the error), and in",
        "OpenMessaging Benchmark's result format to <out>/omb-result.json (for its bin/create_charts.py)."))
        .section("Target (exactly one):", SINK, SINK_SERVER, DIST, CONF, HarnessFlags.SET, HarnessFlags.BROKER_HEAP, NAMESRV, BROKER_PID,
            BROKER_JMX, BROKER_JMX_PASSWORD_FILE, BROKER_JMX_TLS_CERT)
        .section("Agents:", HarnessFlags.AGENTS, AGENT, AGENT_TOKEN_FILE)
        .section("Workload (overrides apply on top of --workload, or of the defaults shown):", HarnessFlags.WORKLOAD, HarnessFlags.PAYLOAD_DIR,
            HarnessFlags.THREADS, HarnessFlags.SIZE, PARTITIONS, TOPICS, PRODUCERS_PER_TOPIC, HarnessFlags.MODE, HarnessFlags.CLIENT,
            IO_THREADS, HarnessFlags.RATE.defaultingTo(0.0, "0"), HarnessFlags.WARMUP.defaultingTo(Workload.defaults().warmupDurationSeconds()),
            HarnessFlags.DURATION.defaultingTo(Workload.defaults().testDurationSeconds()), SEND_TIMEOUT, MAX_OUTSTANDING,
            HarnessFlags.CONSUMERS, BACKLOG_GB, DRAIN_TIMEOUT)
        .section("Output:", HarnessFlags.CEILING, HarnessFlags.OUT.defaultingTo(null, "target/run-<timestamp>"))
        .epilogue("-h, --help: this text.");

    private RunCommand() {
    }

    public static String helpText() {
        return FLAGS.help();
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        Args f = FLAGS.parse(args);
        int targets = (f.has(SINK) ? 1 : 0) + (f.has(DIST) ? 1 : 0) + (f.has(NAMESRV) ? 1 : 0);
        if (targets != 1) {
            throw new UsageException("give exactly one of --sink, --dist DIR, --namesrv HOST:PORT");
        }
        if (f.has(AGENT) && f.has(HarnessFlags.AGENTS)) {
            throw new UsageException("give either --agents N (local) or --agent HOST:PORT (remote), not both");
        }
        if (f.has(BROKER_JMX) && (!f.has(NAMESRV) || f.has(BROKER_PID))) {
            throw new UsageException("--broker-jmx goes with --namesrv, instead of --broker-pid");
        }
        if ((f.has(BROKER_JMX_PASSWORD_FILE) || f.has(BROKER_JMX_TLS_CERT)) && !f.has(BROKER_JMX)) {
            throw new UsageException("--broker-jmx-password-file and --broker-jmx-tls-cert go with --broker-jmx");
        }
        if (f.has(AGENT_TOKEN_FILE) && !f.has(AGENT)) {
            throw new UsageException("--agent-token-file goes with --agent (local agents get a token of their own)");
        }
        if (f.has(SINK_SERVER) && !f.has(SINK)) {
            throw new UsageException("--sink-server goes with --sink");
        }
        String sinkServer = f.get(SINK_SERVER);
        List<String> jmxTargets = jmxTargets(f);
        AgentToken remoteToken = f.has(AGENT) ? remoteAgentToken(f) : null;
        JmxAccess jmxAccess = jmxTargets == null ? null : JmxAccess.of(f.get(BROKER_JMX_PASSWORD_FILE), f.get(BROKER_JMX_TLS_CERT));
        Workload workload = workload(f);
        try {
            // Before any cluster or agent starts: more consumers per agent than an agent holds is a usage error.
            Coordinator.checkConsumersPerAgent(workload, f.has(AGENT) ? f.all(AGENT).size() : f.get(HarnessFlags.AGENTS));
        } catch (Coordinator.Abort e) {
            throw new UsageException(e.getMessage());
        }
        if (f.has(SINK) && workload.hasConsumers()) {
            throw new UsageException("the sink acknowledges sends and stores nothing, so there is nothing to consume: run --sink "
                + "without consumers (--consumers 0)");
        }
        Double ceiling = f.get(HarnessFlags.CEILING);
        Path outDir = (f.has(HarnessFlags.OUT) ? f.get(HarnessFlags.OUT)
            : Path.of("target/run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))).toAbsolutePath();
        Files.createDirectories(outDir);
        dev.rmqpatch.bench.logging.ClientLogging.configure(outDir.resolve("logs"));

        RunSpec spec = new RunSpec();
        spec.workload = workload;
        spec.payloadDir = HarnessFlags.payloadDir(f, workload);
        spec.ombDriver = ombDriver(f);
        spec.sendTimeoutMs = f.get(SEND_TIMEOUT);
        spec.maxOutstanding = f.get(MAX_OUTSTANDING);
        spec.drainTimeoutSeconds = f.has(DRAIN_TIMEOUT) ? f.get(DRAIN_TIMEOUT) : 0;
        spec.label = f.has(SINK) ? "sink" : "run";
        spec.ioThreads = f.has(IO_THREADS) ? f.get(IO_THREADS) : 0;
        if (f.has(IO_THREADS) && workload.client() != ClientMode.WIRE) {
            throw new UsageException("--io-threads applies to --client wire only");
        }

        List<AgentClient> agents = new ArrayList<>();
        LocalCluster cluster = null;
        ManagedProcess sink = null;
        JmxBrokerProbe jmx = null;
        String jmxMismatch = null;
        Path resultsFile = outDir.resolve("results.json");
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("command", Metadata.commandLine("run", args));
        file.put("clientMode", workload.client().label());
        if (f.has(SINK)) {
            file.put("sinkServer", sinkServer);
        }
        file.put("machine", Metadata.machine());
        file.put("coordinatorJvm", Metadata.coordinatorJvm());
        try (BrokerAdmin admin = new BrokerAdmin()) {
            List<String> remote = f.all(AGENT);
            if (remote.isEmpty()) {
                int n = f.get(HarnessFlags.AGENTS);
                out.printf("starting %d local agent(s) ...%n", n);
                agents.addAll(LocalAgents.launch(n, outDir.resolve("agents"), LocalAgents.DEFAULT_JVM_OPTIONS));
            } else {
                for (int i = 0; i < remote.size(); i++) {
                    agents.add(new AgentClient("agent-" + (i + 1) + "@" + remote.get(i), remote.get(i), remoteToken, null));
                }
            }
            List<ManagedProcess> watched = new ArrayList<>();
            Map<String, List<Long>> roles = new LinkedHashMap<>();
            List<String> brokers;
            Long brokerPid;
            dev.rmqpatch.bench.broker.GcMonitor gc = null;
            if (f.has(SINK)) {
                out.println("starting the sink ...");
                LocalJvm.Started started = LocalJvm.launch("sink", List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"),
                    SinkMain.arguments(sinkServer, workload.partitionsPerTopic(), outDir.resolve("sink")),
                    outDir.resolve("sink.out"), SinkMain.READY_PREFIX, Duration.ofSeconds(60));
                sink = started.process;
                spec.namesrv = "127.0.0.1:" + started.port;
                brokers = List.of(spec.namesrv);
                brokerPid = sink.pid();
                watched.add(sink);
                roles.put("sink", List.of(sink.pid()));
            } else if (f.has(DIST)) {
                LocalCluster.Spec cs = new LocalCluster.Spec();
                cs.dist = f.get(DIST).toAbsolutePath();
                cs.confName = f.get(CONF);
                cs.brokerHeap = f.has(HarnessFlags.BROKER_HEAP) ? f.get(HarnessFlags.BROKER_HEAP) : cs.brokerHeap;
                cs.workDir = outDir.resolve("cluster");
                cs.overrides.putAll(HarnessFlags.settings(f));
                out.printf("starting name server and broker from %s (conf/%s) ...%n", cs.dist, cs.confName);
                cluster = HarnessClusters.start(cs, admin);
                spec.namesrv = cluster.namesrvAddr();
                brokers = List.of(cluster.brokerAddr());
                brokerPid = cluster.brokerPid();
                gc = HarnessClusters.gcMonitor(cluster);
                watched.add(cluster.brokerProcess());
                watched.add(cluster.namesrvProcess());
                roles.put("broker", List.of(cluster.brokerPid()));
                roles.put("namesrv", List.of(cluster.namesrvPid()));
                file.put("brokerCommandLine", cluster.brokerCommandLine());
            } else {
                spec.namesrv = f.get(NAMESRV);
                brokers = new ArrayList<>(admin.masterBrokers(spec.namesrv).values());
                if (brokers.isEmpty()) {
                    throw new IOException("no broker is registered at name server " + spec.namesrv);
                }
                brokerPid = f.get(BROKER_PID);
                if (brokerPid != null) {
                    roles.put("broker", List.of(brokerPid));
                    gc = dev.rmqpatch.bench.broker.GcMonitor.start(brokerPid, null, outDir.resolve("broker-gc.jstat"));
                }
                if (jmxTargets != null) {
                    jmx = new JmxBrokerProbe(jmxTargets, jmxAccess, JmxBrokerProbe.DEFAULT_TIMEOUT);
                    List<String> reached = jmx.connect();
                    out.printf("broker JMX: %d of %d reachable %s%n", reached.size(), jmxTargets.size(), jmxTargets);
                    for (String w : jmx.warnings()) {
                        out.println("WARNING: " + w);
                    }
                    if (jmxTargets.size() != brokers.size()) {
                        jmxMismatch = String.format("%d broker JMX target(s) for %d master(s) %s: broker CPU and GC are those of the "
                            + "targets only, per message of all masters", jmxTargets.size(), brokers.size(), brokers);
                        out.println("WARNING: " + jmxMismatch);
                    }
                }
            }
            List<Long> agentPids = new ArrayList<>();
            for (AgentClient a : agents) {
                if (a.isLocal()) {
                    agentPids.add(a.process().pid());
                }
            }
            if (!agentPids.isEmpty()) {
                roles.put("agents", agentPids);
            }
            roles.put("coordinator", List.of(ProcessHandle.current().pid()));
            BrokerProbe probe = new BrokerProbe(admin, brokers, brokerPid, gc, roles);
            out.printf("%s against %s with %d agent(s)%n", workload, spec.namesrv, agents.size());
            workload.notes().forEach(n -> out.println("note: " + n));
            RunResult result;
            int exit = 0;
            try {
                result = new Coordinator(agents, admin, probe, jmx, watched, out).run(spec);
            } catch (RunFailedException e) {
                result = e.partial();
                exit = 1;
            }
            if (jmxMismatch != null) {
                result.warnings.add(jmxMismatch);
            }
            if (ceiling != null && result.tps != null && result.tps > ceiling / 2) {
                result.warnings.add(String.format("this run reached %.0f%% of the harness ceiling (%,.0f msg/s measured with --sink): "
                    + "the load generator, not the broker, may be what limits it; add agents or agent hosts", 100 * result.tps / ceiling, ceiling));
            }
            file.put("result", result);
            ResultsFile.write(resultsFile, file);
            if (result.omb != null) {
                ResultsFile.write(outDir.resolve(OmbResult.FILE_NAME), result.omb);
            }
            out.println();
            out.print(RunTable.render(result));
            if (f.has(SINK) && result.tps != null) {
                out.printf("%s on this machine with --client %s: %,.0f msg/s (pass --ceiling %s to broker runs)%n",
                    sinkServer.equals("raw") ? "harness ceiling" : "remoting floor (stock remoting sink)", workload.client().label(), result.tps,
                    resultsFile);
            }
            out.println("results: " + resultsFile + (result.omb != null ? " (OpenMessaging Benchmark format: " + outDir.resolve(OmbResult.FILE_NAME) + ")" : ""));
            return exit;
        } catch (LocalCluster.ClusterException | BrokerAdmin.AdminException e) {
            file.put("result", Map.of("status", "failed", "error", e.getMessage()));
            ResultsFile.write(resultsFile, file);
            throw new IOException(e.getMessage() + "\n(results: " + resultsFile + ")", e);
        } finally {
            if (jmx != null) {
                jmx.close();
            }
            if (cluster != null) {
                cluster.close();
            }
            if (sink != null) {
                sink.stop(Duration.ofSeconds(10));
            }
            LocalAgents.stop(agents);
        }
    }

    static Workload workload(Args f) throws UsageException, IOException {
        Workload w = HarnessFlags.workload(f, Workload.defaults());
        try {
            if (f.has(PARTITIONS)) {
                w = w.withPartitionsPerTopic(f.get(PARTITIONS));
            }
            if (f.has(TOPICS)) {
                w = w.withTopics(f.get(TOPICS));
            }
            if (f.has(PRODUCERS_PER_TOPIC)) {
                w = w.withProducersPerTopic(f.get(PRODUCERS_PER_TOPIC));
            }
            if (f.has(HarnessFlags.RATE)) {
                w = w.withProducerRate(f.get(HarnessFlags.RATE));
            }
            if (f.has(BACKLOG_GB)) {
                w = w.withConsumers(w.subscriptionsPerTopic(), w.consumerPerSubscription(), f.get(BACKLOG_GB));
            }
            if (w.maxRateSearch() && w.consumerBacklogSizeGB() > 0) {
                throw new UsageException("the workload's producerRate 0 (search for the maximum sustainable rate) cannot be combined with "
                    + "a backlog (--backlog-gb); give --rate, or --backlog-gb 0");
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return w;
    }

    /** The OMB result's "driver", the legend in OMB's charts: the distribution's folder, the sink, or the name server. */
    static String ombDriver(Args f) {
        if (f.has(SINK)) {
            return "rmqpatch-sink-" + f.get(SINK_SERVER);
        }
        if (f.has(DIST)) {
            Path name = f.get(DIST).toAbsolutePath().normalize().getFileName();
            return name == null ? "rocketmq" : name.toString();
        }
        return "rocketmq@" + f.get(NAMESRV);
    }

    /** The token of agents started elsewhere: from --agent-token-file or the file the environment names. */
    static AgentToken remoteAgentToken(Args f) throws UsageException, IOException {
        String file = f.has(AGENT_TOKEN_FILE) ? f.get(AGENT_TOKEN_FILE).toString() : System.getenv(AgentToken.FILE_ENV);
        if (file == null || file.isBlank()) {
            throw new UsageException("--agent needs the agents' token: --agent-token-file FILE (or set " + AgentToken.FILE_ENV + ")");
        }
        return AgentToken.read(Path.of(file));
    }

    static List<String> jmxTargets(Args f) throws UsageException {
        if (!f.has(BROKER_JMX)) {
            return null;
        }
        try {
            List<String> targets = new ArrayList<>();
            for (String value : f.all(BROKER_JMX)) {
                for (String t : JmxBrokerProbe.parseTargets(value)) {
                    if (!targets.contains(t)) {
                        targets.add(t);
                    }
                }
            }
            return targets;
        } catch (IllegalArgumentException e) {
            throw new UsageException("--broker-jmx: " + e.getMessage());
        }
    }
}
