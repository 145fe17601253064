package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.LocalCluster;
import dev.rmqpatch.bench.broker.Replication;
import dev.rmqpatch.bench.broker.Topology;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.LocalJvm;
import dev.rmqpatch.bench.coordinator.RunFailedException;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.proc.ManagedProcess;
import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.report.ResultsFile;
import dev.rmqpatch.bench.sink.SinkMain;
import dev.rmqpatch.bench.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Runs the interleaved rounds of a comparison and writes results.json, table.txt and chart.png. */
public final class CompareRunner {
    /** What to compare and how. */
    public static final class Options {
        public List<Variant> variants;
        public String baseline;
        public int rounds = 3;
        public Workload workload;
        public int agents = 1;
        public String brokerHeap = "2g";
        public Topology topology = Topology.SINGLE;
        public Map<String, String> brokerSettings = new LinkedHashMap<>();
        public Path distDir;
        public Path outDir;
        public boolean sink = true;
        public Double ceiling;
        public String commandLine;
    }

    private final Options o;
    private final PrintStream out;
    private final CompareResults results = new CompareResults();
    private final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
    private final long started = System.nanoTime();
    /** How long a slave may take, after the load stopped, to apply what the master already pushed. */
    private static final Duration SLAVE_CATCH_UP = Duration.ofSeconds(10);

    public CompareRunner(Options options, PrintStream out) {
        this.o = options;
        this.out = out;
    }

    public CompareResults results() {
        return results;
    }

    /** Runs everything; on failure writes what was measured (status "failed") and throws with the cause. */
    public CompareResults run() throws CompareFailedException {
        for (Variant v : o.variants) {
            try {
                LocalCluster.checkDistribution(v.dist(o.distDir), v.confName());
            } catch (LocalCluster.ClusterException e) {
                throw new CompareFailedException(v.name() + ": " + e.getMessage().replace("scripts/build.sh", v.buildHint()), e);
            }
        }
        results.baseline = o.baseline;
        describe();
        for (Variant v : o.variants) {
            CompareResults.VariantResult r = new CompareResults.VariantResult();
            r.name = v.name();
            r.distribution = v.dist(o.distDir).toString();
            r.conf = v.confName();
            r.confOverrides = overrides(v);
            results.variants.add(r);
            runs.put(v.name(), new ArrayList<>());
        }
        List<AgentClient> agents = new ArrayList<>();
        try (BrokerAdmin admin = new BrokerAdmin()) {
            out.printf("starting %d agent JVM(s) ...%n", o.agents);
            agents.addAll(LocalAgents.launch(o.agents, o.outDir.resolve("agents"), LocalAgents.DEFAULT_JVM_OPTIONS));
            if (o.ceiling != null) {
                results.harnessCeiling = new CompareResults.Ceiling();
                results.harnessCeiling.tps = o.ceiling;
            }
            int total = o.rounds * o.variants.size();
            int done = 0;
            for (int round = 1; round <= o.rounds; round++) {
                for (Variant v : o.variants) {
                    done++;
                    runRound(round, v, agents, admin, done, total);
                    summarize();
                    ResultsFile.write(o.outDir.resolve("results.json"), results);
                }
            }
            if (o.ceiling == null && o.sink) {
                // Last, with the same agent JVMs already JIT-warm from the rounds: a ceiling measured with cold
                // agents would understate what the harness can do.
                measureCeiling(agents, admin);
            }
            results.status = "ok";
        } catch (RunFailedException | LocalCluster.ClusterException | IOException | RuntimeException e) {
            results.status = "failed";
            results.error = e.getMessage();
            throw new CompareFailedException(e.getMessage(), e);
        } finally {
            LocalAgents.stop(agents);
            finish();
        }
        return results;
    }

    private Map<String, String> overrides(Variant v) {
        Map<String, String> all = new LinkedHashMap<>(v.overrides(Runtime.getRuntime().availableProcessors()));
        all.putAll(o.brokerSettings);
        return all;
    }

    private void describe() {
        Map<String, Object> m = results.metadata;
        m.put("command", o.commandLine);
        m.put("startedAt", Instant.now().toString());
        m.put("rounds", o.rounds);
        m.put("order", "interleaved: every round runs each variant once, in --variants order");
        m.put("workload", workloadView());
        m.put("agents", o.agents);
        m.put("agentJvmOptions", agentJvmOptions());
        m.put("brokerHeap", o.brokerHeap);
        m.put("topology", o.topology.label());
        m.put("topologyDescription", o.topology.description());
        m.put("machine", Metadata.machine());
        m.put("coordinatorJvm", Metadata.coordinatorJvm());
        Map<String, Object> dists = new LinkedHashMap<>();
        for (Variant v : o.variants) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("distribution", v.dist(o.distDir).toString());
            d.put("conf", v.confName());
            d.put("confOverrides", overrides(v));
            d.put("jars", checksums(v.dist(o.distDir).resolve("lib")));
            dists.put(v.name(), d);
        }
        m.put("variants", dists);
        String jar = System.getProperty("java.class.path").split(java.io.File.pathSeparator)[0];
        if (jar.endsWith(".jar")) {
            m.put("benchJar", Map.of("path", Path.of(jar).toAbsolutePath().toString(), "sha256", Metadata.sha256(Path.of(jar))));
        }
    }

    private static List<String> agentJvmOptions() {
        List<String> all = new ArrayList<>(LocalJvm.NIO_OPENS);
        all.addAll(LocalAgents.DEFAULT_JVM_OPTIONS);
        return all;
    }

    private Object workloadView() {
        Workload w = o.workload;
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", w.name());
        v.put("topics", w.topics());
        v.put("partitionsPerTopic", w.partitionsPerTopic());
        v.put("messageSize", w.messageSize());
        v.put("producersPerTopic", w.producersPerTopic());
        v.put("producerRate", w.producerRate());
        v.put("warmupDurationSeconds", w.warmupDurationSeconds());
        v.put("testDurationSeconds", w.testDurationSeconds());
        v.put("threadsPerAgent", w.threadsPerAgent());
        v.put("sendMode", w.sendMode().label());
        return v;
    }

    /** sha256 of the RocketMQ and rmqpatch jars (what differs between variants), and of all jars together. */
    static Map<String, String> checksums(Path lib) {
        Map<String, String> all = new TreeMap<>();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "*.jar")) {
            for (Path jar : jars) {
                all.put(jar.getFileName().toString(), Metadata.sha256(jar));
            }
        } catch (IOException e) {
            return Map.of("error", "cannot list " + lib + ": " + e.getMessage());
        }
        Map<String, String> shown = new TreeMap<>();
        StringBuilder combined = new StringBuilder();
        all.forEach((name, sha) -> {
            combined.append(name).append(' ').append(sha).append('\n');
            if (name.startsWith("rocketmq-") || name.startsWith("rmqpatch-")) {
                shown.put(name, sha);
            }
        });
        shown.put("all-lib-jars", sha256(combined.toString()));
        return shown;
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void measureCeiling(List<AgentClient> agents, BrokerAdmin admin) throws IOException, RunFailedException {
        Path dir = o.outDir.resolve("runs/sink");
        out.println("harness ceiling: the same workload against a no-op sink ...");
        LocalJvm.Started sink = LocalJvm.launch("sink", List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"),
            List.of("sink", "--port", "0", "--queues", Integer.toString(o.workload.partitionsPerTopic()), "--log-dir", dir.resolve("logs").toString()),
            dir.resolve("sink.out"), SinkMain.READY_PREFIX, Duration.ofSeconds(60));
        try {
            String addr = "127.0.0.1:" + sink.port;
            Map<String, List<Long>> roles = roles(agents);
            roles.put("sink", List.of(sink.process.pid()));
            BrokerProbe probe = new BrokerProbe(admin, List.of(addr), sink.process.pid(), null, roles);
            RunSpec spec = new RunSpec();
            spec.workload = o.workload.withTestDurationSeconds(Math.min(o.workload.testDurationSeconds(), 10));
            spec.namesrv = addr;
            spec.label = "sink";
            RunResult r = new Coordinator(agents, admin, probe, List.of(sink.process), out).run(spec);
            ResultsFile.write(dir.resolve("result.json"), r);
            CompareResults.Ceiling c = new CompareResults.Ceiling();
            c.tps = r.tps;
            c.latencyMs = r.latencyMs;
            c.agentCpuUsPerMsg = r.agentCpuUsPerMsg;
            c.sinkCpuUsPerMsg = r.broker == null ? null : r.broker.cpuUsPerMsg;
            c.resultFile = o.outDir.relativize(dir.resolve("result.json")).toString();
            results.harnessCeiling = c;
            out.printf("harness ceiling: %,.0f msg/s (agents %s us CPU/msg)%n", r.tps, r.agentCpuUsPerMsg == null ? "-" : String.format("%.1f", r.agentCpuUsPerMsg));
        } finally {
            sink.process.stop(Duration.ofSeconds(10));
        }
    }

    private Map<String, List<Long>> roles(List<AgentClient> agents) {
        Map<String, List<Long>> roles = new LinkedHashMap<>();
        List<Long> pids = new ArrayList<>();
        for (AgentClient a : agents) {
            if (a.isLocal()) {
                pids.add(a.process().pid());
            }
        }
        roles.put("agents", pids);
        roles.put("coordinator", List.of(ProcessHandle.current().pid()));
        return roles;
    }

    private void runRound(int round, Variant v, List<AgentClient> agents, BrokerAdmin admin, int done, int total)
        throws LocalCluster.ClusterException, RunFailedException, IOException {
        String label = v.name() + " r" + round + "/" + o.rounds;
        Path dir = o.outDir.resolve("runs/" + round + "-" + v.name());
        LocalCluster.Spec cs = new LocalCluster.Spec();
        cs.dist = v.dist(o.distDir);
        cs.confName = v.confName();
        cs.overrides.putAll(overrides(v));
        cs.brokerHeap = o.brokerHeap;
        cs.topology = o.topology;
        cs.workDir = dir;
        cs.stopGrace = Duration.ZERO;
        out.printf("[%s] (%d of %d, %s elapsed) starting name server + %s: %s, conf/%s %s%n", label, done, total, elapsed(),
            o.topology == Topology.SINGLE ? "broker" : "SYNC_MASTER + SLAVE", v.distName(), v.confName(), cs.overrides.isEmpty() ? "" : cs.overrides);
        RunResult r;
        try (LocalCluster cluster = LocalCluster.start(cs, admin)) {
            if (round == 1) {
                @SuppressWarnings("unchecked")
                Map<String, Object> d = (Map<String, Object>) ((Map<String, Object>) results.metadata.get("variants")).get(v.name());
                d.put("brokerCommandLine", cluster.brokerCommandLine());
            }
            Map<String, List<Long>> roles = roles(agents);
            roles.put("broker", List.of(cluster.brokerPid()));
            roles.put("namesrv", List.of(cluster.namesrvPid()));
            if (cluster.slaveProcess() != null) {
                roles.put("slave", List.of(cluster.slaveProcess().pid()));
            }
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), cluster.gcMonitor(), roles);
            RunSpec spec = new RunSpec();
            spec.workload = o.workload;
            spec.namesrv = cluster.namesrvAddr();
            spec.label = label;
            List<ManagedProcess> watched = cluster.processes();
            try {
                r = new Coordinator(agents, admin, probe, watched, out).run(spec);
            } catch (RunFailedException e) {
                ResultsFile.write(dir.resolve("result.json"), e.partial());
                throw new RunFailedException("[" + label + "] " + e.getMessage() + " (logs: " + dir + ")", e.partial(), e);
            }
            if (cluster.slaveProcess() != null) {
                r.replication = replication(cluster, admin, r, label, dir);
            }
        }
        ResultsFile.write(dir.resolve("result.json"), r);
        runs.get(v.name()).add(r);
        CompareResults.VariantResult vr = find(v.name());
        vr.rounds.add(Summarizer.round(round, r, o.outDir.relativize(dir.resolve("result.json")).toString()));
        out.printf("[%s] %,.0f msg/s, p99 %s ms, broker %s us/msg, %s stored B/msg%n%n", label, r.tps,
            r.latencyMs.p99 == null ? "-" : String.format("%.2f", r.latencyMs.p99),
            r.broker == null || r.broker.cpuUsPerMsg == null ? "-" : String.format("%.1f", r.broker.cpuUsPerMsg),
            r.broker == null || r.broker.storedBytesPerMsg == null ? "-" : String.format("%.1f", r.broker.storedBytesPerMsg));
    }

    private Replication replication(LocalCluster cluster, BrokerAdmin admin, RunResult r, String label, Path dir)
        throws RunFailedException, IOException {
        Replication rep;
        try {
            rep = cluster.replication(admin, SLAVE_CATCH_UP);
        } catch (BrokerAdmin.AdminException e) {
            r.status = "failed";
            r.error = "cannot read the CommitLog offsets of master and slave: " + e.getMessage();
            ResultsFile.write(dir.resolve("result.json"), r);
            throw new RunFailedException("[" + label + "] cannot read the CommitLog offsets of master and slave: " + e.getMessage()
                + " (logs: " + dir + ")", r, e);
        }
        if (r.broker != null && r.broker.roleCores != null && r.broker.roleCores.get("slave") != null) {
            rep.slaveCores = r.broker.roleCores.get("slave");
            if (r.broker.messagesStored != null && r.broker.messagesStored > 0) {
                rep.slaveCpuUsPerMsg = rep.slaveCores * r.broker.windowSeconds * 1e6 / r.broker.messagesStored;
            }
        }
        out.printf("[%s] CommitLog max offset: master %,d, slave %,d%s%n", label, rep.masterCommitLogMaxOffset, rep.slaveCommitLogMaxOffset,
            rep.caughtUp() ? "" : " (slave still " + String.format("%,d", rep.slaveBehindBytes) + " bytes behind after "
                + SLAVE_CATCH_UP.toSeconds() + " s)");
        return rep;
    }

    private CompareResults.VariantResult find(String name) {
        for (CompareResults.VariantResult v : results.variants) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        throw new IllegalStateException(name);
    }

    private void summarize() {
        for (CompareResults.VariantResult v : results.variants) {
            if (!v.rounds.isEmpty()) {
                Summarizer.summarize(v, runs.get(v.name));
            }
        }
        Summarizer.relate(results.variants, results.baseline);
        results.warnings = Summarizer.warnings(results);
    }

    private String elapsed() {
        long s = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        return String.format("%d:%02d", s / 60, s % 60);
    }

    /** Summary, results.json, table.txt and chart.png from whatever was measured; also after a failure. */
    private void finish() {
        summarize();
        results.metadata.put("finishedAt", Instant.now().toString());
        results.metadata.put("elapsedSeconds", Duration.ofNanos(System.nanoTime() - started).toSeconds());
        try {
            ResultsFile.write(o.outDir.resolve("results.json"), results);
            String table = CompareTable.render(results, o.rounds);
            Files.writeString(o.outDir.resolve("table.txt"), table);
            ChartWriter.write(results, o.outDir.resolve("chart.png"));
            out.println();
            out.print(table);
            if (results.error != null) {
                out.println("ERROR: " + results.error);
            }
            out.printf("%nresults: %s (chart.png, table.txt; %s elapsed)%n", o.outDir.resolve("results.json"), elapsed());
        } catch (IOException | RuntimeException e) {
            out.println("could not write the results to " + o.outDir + ": " + e);
        }
    }

    /** The comparison could not be completed; partial results were written. */
    public static final class CompareFailedException extends Exception {
        public CompareFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
