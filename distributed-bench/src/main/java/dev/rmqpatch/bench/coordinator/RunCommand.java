package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.JmxAccess;
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.bench.cli.Flags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.report.ResultsFile;
import dev.rmqpatch.bench.report.RunTable;
import dev.rmqpatch.bench.sink.SinkMain;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.bench.workload.WorkloadParser;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
import java.util.Set;

/** {@code run}: the coordinator command for one workload. */
public final class RunCommand {
    static final String HELP = String.join("\n",
        "Usage: bench run (--sink | --dist DIR | --namesrv HOST:PORT) [options]",
        "",
        "Runs one workload: starts or reaches the load agents, creates the topics, starts all agents at the same",
        "moment, prints aggregate progress every second, merges the agents' latency histograms, and prints a",
        "table. Results go to <out>/results.json (also when the run fails: status \"failed\" and the error), and in",
        "OpenMessaging Benchmark's result format to <out>/omb-result.json (for its bin/create_charts.py).",
        "",
        "Target (exactly one):",
        "  --sink                  a local no-op endpoint that acknowledges at once: the harness's own ceiling",
        "    --sink-server raw|remoting",
        "                          raw (default): reads only code and opaque, pre-encoded answers (the ceiling);",
        "                          remoting: the stock remoting server (its CPU/msg is the remoting floor)",
        "  --dist DIR              start a fresh name server + broker from a distribution (bin/mqbroker ...)",
        "    --conf NAME           broker conf in DIR/conf (default broker.conf)",
        "    --set KEY=VALUE       append a broker setting (repeatable)",
        "    --broker-heap SIZE    broker heap (default 2g)",
        "  --namesrv HOST:PORT     an already running cluster (all its masters get the topics)",
        "    --broker-pid PID      pid of its broker on this machine, for CPU and GC figures",
        "    --broker-jmx HOST:PORT[,HOST:PORT...]",
        "                          JMX ports of its master brokers (other hosts), for CPU and GC figures; a broker",
        "                          that cannot be read leaves them empty with a warning",
        "    --broker-jmx-password-file FILE",
        "                          owner-only file 'USER PASSWORD' to log in to those JMX ports (deploy writes it)",
        "    --broker-jmx-tls-cert FILE",
        "                          the brokers' JMX certificate (PEM), when their JMX port speaks TLS",
        "",
        "Agents:",
        "  --agents N              start N local agent JVMs (default 1; they get a token generated for this run)",
        "  --agent HOST:PORT       use a running agent instead (repeatable; see: bench agent --help)",
        "  --agent-token-file FILE owner-only file with the running agents' token (default: the file named by",
        "                          $" + AgentToken.FILE_ENV + "); needed with --agent",
        "",
        "Workload (overrides apply on top of --workload, or of the defaults shown):",
        "  --workload FILE         OpenMessaging Benchmark workload file (YAML or JSON), taken as OMB's own files",
        "                          are; its producerRate: 0 means OMB's search for the maximum sustainable rate",
        "  --payload-dir DIR       where a relative payloadFile is looked for after the workload file's folder",
        "  --threads N             sending threads per agent (32)",
        "  --size BYTES            message body size (300)",
        "  --partitions N          queues per topic (18)",
        "  --topics N              topics (1)",
        "  --producers-per-topic N producer instances per topic per agent (1)",
        "  --mode sync|async|oneway (sync)",
        "  --client rocketmq|wire  rocketmq (default): stock DefaultMQProducer per topic, the reference; wire: the",
        "                          agent writes pre-encoded SEND_MESSAGE_V2 frames over netty itself, costing a",
        "                          fraction of the CPU (threads = closed-loop senders; async: --max-outstanding)",
        "  --io-threads N          wire only: netty event-loop threads per agent (1)",
        "  --rate MSG_PER_S        total rate over all agents, 0 = unlimited (0); records send delay; overrides",
        "                          the workload's producerRate (so --rate 0 is unlimited, never a rate search)",
        "  --warmup S              warm-up seconds, statistics reset after it (5; OMB files: 60 unless they say)",
        "  --duration S            measured seconds (20); overrides testDurationMinutes, for short runs",
        "  --send-timeout MS       producer send timeout (3000)",
        "  --max-outstanding N     async only: messages in flight per agent (1000)",
        "  --consumers N           produce and consume: one subscription (consumer group) per topic with N stock push",
        "                          consumers (clustering), dealt round robin over the agents; adds consume msg/s,",
        "                          end-to-end latency and the count check (0 = produce only; the workload file's",
        "                          subscriptionsPerTopic/consumerPerSubscription/consumerBacklogSizeGB do the same)",
        "  --backlog-gb GB         overrides the workload's consumerBacklogSizeGB (OMB's files ask for up to 512 GB;",
        "                          a local broker's disk may not hold that), 0 = no backlog phase",
        "  --drain-timeout S       with consumers: how long they may take, after the producers stopped, to receive",
        "                          every acknowledged message before the count check (60, plus 1 s per 100 queues:",
        "                          stock consumers take a while to settle on 10,000 queues)",
        "",
        "Output:",
        "  --ceiling TPS|FILE      harness ceiling (msg/s, or the results.json of a --sink run); warns when the",
        "                          run reaches more than half of it",
        "  --out DIR               output folder (default target/run-<timestamp>)",
        "  -h, --help              this text");

    private static final Set<String> VALUED = Set.of("--dist", "--conf", "--set", "--broker-heap", "--namesrv", "--broker-pid", "--broker-jmx",
        "--agents", "--agent", "--workload", "--threads", "--size", "--partitions", "--topics", "--producers-per-topic", "--mode",
        "--rate", "--warmup", "--duration", "--send-timeout", "--max-outstanding", "--ceiling", "--out", "--client", "--io-threads",
        "--sink-server", "--agent-token-file", "--broker-jmx-password-file", "--broker-jmx-tls-cert", "--consumers", "--drain-timeout", "--payload-dir", "--backlog-gb");
    private static final Set<String> BOOLEANS = Set.of("--sink");

    /** OMB's result format, next to results.json. */
    public static final String OMB_RESULT_FILE = "omb-result.json";

    private RunCommand() {
    }

    public static String helpText() {
        return HELP;
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        Flags f = Flags.parse(args, VALUED, BOOLEANS);
        int targets = (f.has("--sink") ? 1 : 0) + (f.has("--dist") ? 1 : 0) + (f.has("--namesrv") ? 1 : 0);
        if (targets != 1) {
            throw new UsageException("give exactly one of --sink, --dist DIR, --namesrv HOST:PORT");
        }
        if (f.has("--agent") && f.has("--agents")) {
            throw new UsageException("give either --agents N (local) or --agent HOST:PORT (remote), not both");
        }
        if (f.has("--broker-jmx") && (!f.has("--namesrv") || f.has("--broker-pid"))) {
            throw new UsageException("--broker-jmx goes with --namesrv, instead of --broker-pid");
        }
        if ((f.has("--broker-jmx-password-file") || f.has("--broker-jmx-tls-cert")) && !f.has("--broker-jmx")) {
            throw new UsageException("--broker-jmx-password-file and --broker-jmx-tls-cert go with --broker-jmx");
        }
        if (f.has("--agent-token-file") && !f.has("--agent")) {
            throw new UsageException("--agent-token-file goes with --agent (local agents get a token of their own)");
        }
        if (f.has("--sink-server") && !f.has("--sink")) {
            throw new UsageException("--sink-server goes with --sink");
        }
        String sinkServer = f.get("--sink-server", "raw");
        if (!sinkServer.equals("raw") && !sinkServer.equals("remoting")) {
            throw new UsageException("--sink-server must be raw or remoting, not '" + sinkServer + "'");
        }
        List<String> jmxTargets = jmxTargets(f);
        AgentToken remoteToken = f.has("--agent") ? remoteAgentToken(f) : null;
        JmxAccess jmxAccess = jmxTargets == null ? null : JmxAccess.of(path(f, "--broker-jmx-password-file"), path(f, "--broker-jmx-tls-cert"));
        Workload workload = workload(f);
        try {
            // Before any cluster or agent starts: more consumers per agent than an agent holds is a usage error.
            Coordinator.checkConsumersPerAgent(workload, f.has("--agent") ? f.all("--agent").size() : f.intValue("--agents", 1, 1));
        } catch (Coordinator.Abort e) {
            throw new UsageException(e.getMessage());
        }
        if (f.has("--sink") && workload.hasConsumers()) {
            throw new UsageException("the sink acknowledges sends and stores nothing, so there is nothing to consume: run --sink "
                + "without consumers (--consumers 0)");
        }
        Double ceiling = ceiling(f.get("--ceiling", null));
        Path outDir = Path.of(f.get("--out", "target/run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
            .toAbsolutePath();
        Files.createDirectories(outDir);
        dev.rmqpatch.bench.ClientLogging.configure(outDir.resolve("logs"));

        RunSpec spec = new RunSpec();
        spec.workload = workload;
        spec.payloadDir = payloadDir(f, workload);
        spec.ombDriver = ombDriver(f);
        spec.sendTimeoutMs = f.intValue("--send-timeout", 3000, 1);
        spec.maxOutstanding = f.intValue("--max-outstanding", 1000, 1);
        spec.drainTimeoutSeconds = f.has("--drain-timeout") ? f.intValue("--drain-timeout", 0, 1) : 0;
        spec.label = f.has("--sink") ? "sink" : "run";
        spec.ioThreads = f.intValue("--io-threads", 0, 1);
        if (f.has("--io-threads") && workload.client() != ClientMode.WIRE) {
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
        if (f.has("--sink")) {
            file.put("sinkServer", sinkServer);
        }
        file.put("machine", Metadata.machine());
        file.put("coordinatorJvm", Metadata.coordinatorJvm());
        try (BrokerAdmin admin = new BrokerAdmin()) {
            List<String> remote = f.all("--agent");
            if (remote.isEmpty()) {
                int n = f.intValue("--agents", 1, 1);
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
            if (f.has("--sink")) {
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
            } else if (f.has("--dist")) {
                LocalCluster.Spec cs = new LocalCluster.Spec();
                cs.dist = Path.of(f.get("--dist", null)).toAbsolutePath();
                cs.confName = f.get("--conf", "broker.conf");
                cs.brokerHeap = f.get("--broker-heap", cs.brokerHeap);
                cs.workDir = outDir.resolve("cluster");
                for (String kv : f.all("--set")) {
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new UsageException("--set needs KEY=VALUE, not '" + kv + "'");
                    }
                    cs.overrides.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
                }
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
                spec.namesrv = f.get("--namesrv", null);
                brokers = new ArrayList<>(admin.masterBrokers(spec.namesrv).values());
                if (brokers.isEmpty()) {
                    throw new IOException("no broker is registered at name server " + spec.namesrv);
                }
                String pid = f.get("--broker-pid", null);
                brokerPid = pid == null ? null : Long.parseLong(pid);
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
                ResultsFile.write(outDir.resolve(OMB_RESULT_FILE), result.omb);
            }
            out.println();
            out.print(RunTable.render(result));
            if (f.has("--sink") && result.tps != null) {
                out.printf("%s on this machine with --client %s: %,.0f msg/s (pass --ceiling %s to broker runs)%n",
                    sinkServer.equals("raw") ? "harness ceiling" : "remoting floor (stock remoting sink)", workload.client().label(), result.tps,
                    resultsFile);
            }
            out.println("results: " + resultsFile + (result.omb != null ? " (OpenMessaging Benchmark format: " + outDir.resolve(OMB_RESULT_FILE) + ")" : ""));
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

    /**
     * {@code --consumers N}: one subscription (consumer group) per topic with N push consumers, dealt over the agents;
     * 0 = produce only. Replaces the workload file's subscriptionsPerTopic and consumerPerSubscription (its backlog stays
     * when N > 0).
     */
    public static Workload withConsumersFlag(Flags f, Workload w) throws UsageException {
        if (!f.has("--consumers")) {
            return w;
        }
        int n = f.intValue("--consumers", 0, 0);
        return n == 0 ? w.produceOnly() : w.withConsumers(1, n, w.consumerBacklogSizeGB());
    }

    static Workload workload(Flags f) throws UsageException, IOException {
        Workload w;
        try {
            w = f.has("--workload") ? WorkloadParser.parse(Path.of(f.get("--workload", null))) : Workload.defaults();
            if (f.has("--threads")) {
                w = w.withThreadsPerAgent(f.intValue("--threads", 0, 1));
            }
            if (f.has("--size")) {
                w = w.withMessageSize(f.intValue("--size", 0, 1));
            }
            if (f.has("--partitions")) {
                w = w.withPartitionsPerTopic(f.intValue("--partitions", 0, 1));
            }
            if (f.has("--topics")) {
                w = w.withTopics(f.intValue("--topics", 0, 1));
            }
            if (f.has("--producers-per-topic")) {
                w = w.withProducersPerTopic(f.intValue("--producers-per-topic", 0, 1));
            }
            if (f.has("--mode")) {
                w = w.withSendMode(SendMode.parse(f.get("--mode", null)));
            }
            if (f.has("--client")) {
                w = w.withClient(ClientMode.parse(f.get("--client", null)));
            }
            if (f.has("--rate")) {
                w = w.withProducerRate(f.doubleValue("--rate", 0, 0));
            }
            if (f.has("--warmup")) {
                w = w.withWarmupDurationSeconds(f.intValue("--warmup", 0, 0));
            }
            if (f.has("--duration")) {
                w = w.withTestDurationSeconds(f.intValue("--duration", 0, 1));
            }
            w = withConsumersFlag(f, w);
            if (f.has("--backlog-gb")) {
                w = w.withConsumers(w.subscriptionsPerTopic(), w.consumerPerSubscription(), f.doubleValue("--backlog-gb", 0, 0));
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
    static String ombDriver(Flags f) {
        if (f.has("--sink")) {
            return "rmqpatch-sink-" + f.get("--sink-server", "raw");
        }
        if (f.has("--dist")) {
            Path name = Path.of(f.get("--dist", null)).toAbsolutePath().normalize().getFileName();
            return name == null ? "rocketmq" : name.toString();
        }
        return "rocketmq@" + f.get("--namesrv", "?");
    }

    /**
     * --payload-dir, checked with the workload's payload file now, before any cluster starts (a missing file names the
     * paths tried). bench run, compare and bench workload all check it here.
     */
    public static Path payloadDir(Flags f, Workload w) throws UsageException, IOException {
        Path dir = f.has("--payload-dir") ? Path.of(f.get("--payload-dir", null)).toAbsolutePath() : null;
        if (dir != null && !Files.isDirectory(dir)) {
            throw new UsageException("--payload-dir " + dir + " is not a folder");
        }
        if (w.payload().isFile()) {
            try {
                w.payload().readFile(w.messageSize(), dir);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        return dir;
    }

    /** The token of agents started elsewhere: from --agent-token-file or the file the environment names. */
    static AgentToken remoteAgentToken(Flags f) throws UsageException, IOException {
        String file = f.get("--agent-token-file", System.getenv(AgentToken.FILE_ENV));
        if (file == null || file.isBlank()) {
            throw new UsageException("--agent needs the agents' token: --agent-token-file FILE (or set " + AgentToken.FILE_ENV + ")");
        }
        return AgentToken.read(Path.of(file));
    }

    private static Path path(Flags f, String flag) {
        String v = f.get(flag, null);
        return v == null ? null : Path.of(v);
    }

    static List<String> jmxTargets(Flags f) throws UsageException {
        if (!f.has("--broker-jmx")) {
            return null;
        }
        try {
            List<String> targets = new ArrayList<>();
            for (String value : f.all("--broker-jmx")) {
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

    /** A number, or the tps of a --sink run's results.json. */
    public static Double ceiling(String value) throws UsageException, IOException {
        if (value == null) {
            return null;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException notANumber) {
            Path file = Path.of(value);
            if (!Files.isRegularFile(file)) {
                throw new UsageException("--ceiling needs msg/s or a results.json file; no file " + value);
            }
            JsonObject root = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
            JsonObject result = root.has("result") ? root.getAsJsonObject("result") : root;
            if (!result.has("tps") || result.get("tps").isJsonNull()) {
                throw new UsageException(value + " has no tps; is it the results.json of a bench run --sink?");
            }
            return result.get("tps").getAsDouble();
        }
    }
}
