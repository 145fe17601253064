package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.broker.Replication;
import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.LocalJvm;
import dev.rmqpatch.bench.coordinator.RunFailedException;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.coordinator.RunSpec;
import dev.rmqpatch.bench.engine.ComparisonMetadata;
import dev.rmqpatch.bench.engine.Plan;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.omb.OmbResult;
import dev.rmqpatch.bench.profile.AsyncProfiler;
import dev.rmqpatch.bench.profile.CollapsedStacks;
import dev.rmqpatch.bench.profile.ProfileSet;
import dev.rmqpatch.bench.profile.ProfiledJvm;
import dev.rmqpatch.bench.report.ResultsFile;
import dev.rmqpatch.bench.sink.SinkMain;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.cluster.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The default plan of {@code compare}: saturation. Interleaved rounds (A B C A B C ...), each on a fresh cluster of the
 * variant with the same workload from the same agents, then the raw sink and the stock-remoting sink with the same warm
 * agents; writes results.json, table.txt and chart.png.
 */
public final class SaturationPlan implements Plan {
    public static final Flag<Integer> ROUNDS = Flag.whole("--rounds", "N", 1, "rounds per variant").defaultingTo(3);
    static final Flag<Boolean> NO_SINK = Flag.toggle("--no-sink", "skip the harness-ceiling and remoting-floor runs (then no ceiling "
        + "warning is possible)");
    /** A fresh broker JVM needs 10-13 s of load to reach steady throughput on 2 cores. */
    static final int DEFAULT_WARMUP = 12;

    private RunOptions o;
    private PrintStream out;
    private RunContext ctx;
    private final CompareResults results = new CompareResults();
    private final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
    private final Map<String, CollapsedStacks> profiles = new LinkedHashMap<>();
    private final Map<String, Integer> profiledWindows = new LinkedHashMap<>();
    private final List<String> profileWarnings = new ArrayList<>();
    private String profileTable;
    /** --stall: each variant's stalls over its rounds; empty without. */
    private Map<String, StoreStalls.Record> stalls = Map.of();
    /** How long a slave may take, after the load stopped, to apply what the master already pushed. */
    private static final Duration SLAVE_CATCH_UP = Duration.ofSeconds(10);

    @Override
    public Flag<Boolean> selector() {
        return null;
    }

    @Override
    public String helpTitle() {
        return "Saturation (the default plan):";
    }

    @Override
    public String helpText() {
        return "sends as fast as the broker answers. For every round and every variant, in interleaved order (A B C A B C ...), a "
            + "fresh name server and broker with a fresh store, the same workload from the same load agents; then the workload once "
            + "more against the raw no-op sink (the harness's own ceiling) and the stock-remoting sink (what the stock remoting layer "
            + "alone costs per message). The table gives the median msg/s with min-max, p50/p99/p99.9 latency, broker CPU us per "
            + "message, stored bytes per message, each as a ratio to the baseline, and whether a difference is outside the "
            + "round-to-round spread. --warmup defaults to " + DEFAULT_WARMUP + " s per round (a fresh broker JVM needs 10-13 s of load "
            + "to reach steady throughput on 2 cores). --profile: the measured window of every round, all variants alike.\n"
            + "Default variants " + String.join(",", defaultVariants()) + ". With the defaults, 3 variants x 3 rounds plus the sink runs take about 4.5 minutes on a 2-core machine. Output: "
            + "results.json, chart.png, table.txt and runs/<round>-<variant>/ (each round's result.json, broker conf, process output "
            + "and RocketMQ logs; stores are deleted).";
    }

    @Override
    public List<Flag<?>> flags() {
        return List.of(ROUNDS, HarnessFlags.DURATION.defaultingTo(RunOptions.DEFAULT_DURATION_SECONDS), NO_SINK, HarnessFlags.CEILING);
    }

    @Override
    public List<String> defaultVariants() {
        return List.of("4.9.0", "4.9.0-tuned", "4.9.0-patched");
    }

    @Override
    public int defaultWarmupSeconds() {
        return DEFAULT_WARMUP;
    }

    @Override
    public void configure(Args a, RunOptions options) {
        options.rounds = a.get(ROUNDS);
        options.sink = !a.get(NO_SINK);
        options.ceiling = a.get(HarnessFlags.CEILING);
        if (a.has(HarnessFlags.RATE)) {
            options.workload = options.workload.withProducerRate(a.get(HarnessFlags.RATE));
        }
    }

    @Override
    public String describe(RunOptions options) {
        return String.format("comparing %s, %d round(s), baseline %s, topology %s%s%s; %s; output %s", options.variants, options.rounds,
            options.baseline, options.topology, options.profile ? ", profiled" : "",
            options.stall == null ? "" : ", store stalls " + options.stall.label(), options.workload, options.outDir);
    }

    public CompareResults results() {
        return results;
    }

    @Override
    public void run(RunContext context) throws Exception {
        this.ctx = context;
        this.o = context.options();
        this.out = context.out();
        results.baseline = o.baseline;
        results.clientMode = o.workload.client().label();
        results.rateMsgPerS = o.workload.producerRate();
        describe();
        for (Variant v : o.variants) {
            CompareResults.VariantResult r = new CompareResults.VariantResult();
            r.name = v.name();
            r.distribution = v.dist(o.distDir).toString();
            r.conf = v.confName();
            r.confOverrides = ctx.overrides(v);
            results.variants.add(r);
            runs.put(v.name(), new ArrayList<>());
        }
        stalls = StoreStalls.records(new ArrayList<>(runs.keySet()), o.stall, stallAfterMillis(o));
        BrokerAdmin admin = ctx.admin();
        List<AgentClient> agents = ctx.launchAgents(LocalAgents.DEFAULT_JVM_OPTIONS);
        if (o.ceiling != null) {
            results.harnessCeiling = new CompareResults.Ceiling();
            results.harnessCeiling.tps = o.ceiling;
        }
        Map<String, Variant> byName = new LinkedHashMap<>();
        o.variants.forEach(v -> byName.put(v.name(), v));
        List<SaturationRounds.Run> schedule = SaturationRounds.schedule(new ArrayList<>(byName.keySet()), o.rounds);
        int done = 0;
        for (SaturationRounds.Run run : schedule) {
            done++;
            runRound(run.round(), byName.get(run.variant()), agents, admin, done, schedule.size());
            summarize();
            ResultsFile.write(o.outDir.resolve("results.json"), results);
        }
        if (o.ceiling == null && o.sink) {
            // Last, with the same agent JVMs already JIT-warm from the rounds: a ceiling measured with cold
            // agents would understate what the harness can do.
            measureCeiling(agents, admin);
        }
    }

    @Override
    public void ended(String error) {
        results.status = error == null ? "ok" : "failed";
        results.error = error;
    }

    private void describe() {
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("rounds", o.rounds);
        mode.put("order", SaturationRounds.ORDER);
        ComparisonMetadata.describe(o, results.metadata, mode, agentJvmOptions());
    }

    private static List<String> agentJvmOptions() {
        return RunContext.recordedAgentJvmOptions(LocalAgents.DEFAULT_JVM_OPTIONS);
    }

    private void measureCeiling(List<AgentClient> agents, BrokerAdmin admin) throws IOException, RunFailedException {
        out.printf("harness ceiling: the same workload and client (%s) against the raw sink ...%n", o.workload.client().label());
        results.harnessCeiling = sinkRun(agents, admin, "raw", o.outDir.resolve("runs/sink"));
        out.printf("harness ceiling: %,.0f msg/s (agents %s us CPU/msg)%n", results.harnessCeiling.tps,
            format(results.harnessCeiling.agentCpuUsPerMsg));
        summarize();
        ResultsFile.write(o.outDir.resolve("results.json"), results);
        out.println("remoting floor: the same against the stock-remoting sink (NettyRemotingServer, fastjson, a processor pool) ...");
        results.remotingFloor = sinkRun(agents, admin, "remoting", o.outDir.resolve("runs/sink-remoting"));
        out.printf("remoting floor: %,.0f msg/s, the stock remoting layer alone costs %s us CPU/msg%n", results.remotingFloor.tps,
            format(results.remotingFloor.sinkCpuUsPerMsg));
    }

    private static String format(Double v) {
        return v == null ? "-" : String.format("%.1f", v);
    }

    private CompareResults.Ceiling sinkRun(List<AgentClient> agents, BrokerAdmin admin, String server, Path dir)
        throws IOException, RunFailedException {
        LocalJvm.Started sink = LocalJvm.launch("sink-" + server, List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC"),
            SinkMain.arguments(server, o.workload.partitionsPerTopic(), dir.resolve("logs")), dir.resolve("sink.out"), SinkMain.READY_PREFIX,
            Duration.ofSeconds(60));
        try {
            String addr = "127.0.0.1:" + sink.port;
            Map<String, List<Long>> roles = ctx.baseRoles();
            roles.put("sink", List.of(sink.process.pid()));
            BrokerProbe probe = new BrokerProbe(admin, List.of(addr), sink.process.pid(), null, roles);
            RunSpec spec = new RunSpec();
            // Produce only: the sink stores nothing, so there is nothing to consume; the ceiling is the producers'.
            spec.workload = o.workload.produceOnly().withTestDurationSeconds(Math.min(o.workload.testDurationSeconds(), 10));
            spec.namesrv = addr;
            spec.payloadDir = o.payloadDir;
            spec.label = server.equals("raw") ? "sink" : "sink-remoting";
            Coordinator coordinator = new Coordinator(agents, admin, probe, List.of(sink.process), out);
            Map<String, List<ProfiledJvm>> profiled = new LinkedHashMap<>();
            if (ctx.profiling() != null && server.equals("raw")) {
                profiled.put("sink", List.of(ctx.profiling().session(sink.process.pid())));
                List<ProfiledJvm> agentJvms = new ArrayList<>();
                for (AgentClient a : agents) {
                    if (a.isLocal()) {
                        agentJvms.add(ctx.profiling().session(a.process().pid()));
                    }
                }
                profiled.put("agent", agentJvms);
                List<ProfiledJvm> all = new ArrayList<>();
                profiled.values().forEach(all::addAll);
                coordinator.withWindowListener(new ProfiledWindow(all, "sink"));
            }
            RunResult r = coordinator.run(spec);
            writeRunFiles(dir, r);
            CompareResults.Ceiling c = new CompareResults.Ceiling();
            c.sinkServer = server;
            c.clientMode = o.workload.client().label();
            c.tps = r.tps;
            c.latencyMs = r.latencyMs;
            c.agentCpuUsPerMsg = r.agentCpuUsPerMsg;
            c.sinkCpuUsPerMsg = r.broker == null ? null : r.broker.cpuUsPerMsg;
            c.resultFile = o.outDir.relativize(dir.resolve("result.json")).toString();
            if (!profiled.isEmpty()) {
                c.flameGraphs = harnessFlameGraphs(profiled, dir);
            }
            return c;
        } finally {
            sink.process.stop(Duration.ofSeconds(10));
        }
    }

    private void runRound(int round, Variant v, List<AgentClient> agents, BrokerAdmin admin, int done, int total)
        throws LocalCluster.ClusterException, RunFailedException, IOException {
        String label = v.name() + " r" + round + "/" + o.rounds;
        Path dir = o.outDir.resolve(new SaturationRounds.Run(round, v.name()).folder());
        LocalCluster.Spec cs = ctx.clusterSpec(v, ctx.overrides(v), dir);
        if (o.stall != null) {
            cs.masterJvmOptions.add(o.stall.jvmOption(o.stallAgentJar, stallAfterMillis(o)));
        }
        out.printf("[%s] (%d of %d, %s elapsed) starting name server + %s: %s, conf/%s %s%n", label, done, total, ctx.elapsed(),
            o.topology == Topology.SINGLE ? "broker" : "SYNC_MASTER + SLAVE", v.distName(), v.confName(), cs.overrides.isEmpty() ? "" : cs.overrides);
        RunResult r;
        Path masterOutput = null;
        try (LocalCluster cluster = HarnessClusters.start(cs, admin)) {
            masterOutput = cluster.master().output();
            if (round == 1) {
                ComparisonMetadata.variantEntry(results.metadata, v.name()).put("brokerCommandLine", cluster.brokerCommandLine());
            }
            Map<String, List<Long>> roles = ctx.baseRoles();
            roles.put("broker", List.of(cluster.brokerPid()));
            roles.put("namesrv", List.of(cluster.namesrvPid()));
            if (cluster.slaveProcess() != null) {
                roles.put("slave", List.of(cluster.slaveProcess().pid()));
            }
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), HarnessClusters.gcMonitor(cluster), roles);
            RunSpec spec = new RunSpec();
            spec.workload = o.workload;
            spec.payloadDir = o.payloadDir;
            spec.namesrv = cluster.namesrvAddr();
            spec.label = label;
            List<ManagedProcess> watched = cluster.processes();
            ProfiledJvm profiled = ctx.profiling() == null ? null : ctx.profiling().session(cluster.brokerPid());
            Coordinator coordinator = new Coordinator(agents, admin, probe, watched, out);
            if (profiled != null) {
                coordinator.withWindowListener(new ProfiledWindow(profiled, label));
            }
            try {
                r = coordinator.run(spec);
                if (profiled != null) {
                    collectProfile(v.name(), profiled, dir.resolve("profile.collapsed"), label);
                }
            } catch (RunFailedException e) {
                writeRunFiles(dir, e.partial());
                throw new RunFailedException("[" + label + "] " + e.getMessage() + " (logs: " + dir + ")", e.partial(), e);
            }
            if (cluster.slaveProcess() != null) {
                r.replication = replication(cluster, admin, r, label, dir);
            }
        } finally {
            // Also after a failed round: its stalls are what a reader of the failure wants to see.
            if (masterOutput != null && stalls.containsKey(v.name())) {
                stalls.get(v.name()).read(masterOutput, round);
            }
        }
        writeRunFiles(dir, r);
        runs.get(v.name()).add(r);
        CompareResults.VariantResult vr = find(v.name());
        vr.rounds.add(Summarizer.round(round, r, o.outDir.relativize(dir.resolve("result.json")).toString()));
        out.printf("[%s] %,.0f msg/s, p99 %s ms, broker %s us/msg, %s stored B/msg%s%n%n", label, r.tps,
            r.latencyMs.p99 == null ? "-" : String.format("%.2f", r.latencyMs.p99),
            r.broker == null || r.broker.cpuUsPerMsg == null ? "-" : String.format("%.1f", r.broker.cpuUsPerMsg),
            r.broker == null || r.broker.storedBytesPerMsg == null ? "-" : String.format("%.1f", r.broker.storedBytesPerMsg),
            r.consumeTps == null ? "" : String.format(", consume %,.0f msg/s, end-to-end p99 %s ms, %,d missing, %,d duplicates", r.consumeTps,
                r.endToEndLatencyMs.p99 == null ? "-" : String.format("%.2f", r.endToEndLatencyMs.p99), r.delivery.missingMessages,
                r.delivery.duplicateMessages));
    }

    /** Profiles exactly the coordinator's measurement window; trouble becomes a warning, never a failed round. */
    private final class ProfiledWindow implements Coordinator.WindowListener {
        private final List<ProfiledJvm> jvms;
        private final String label;

        ProfiledWindow(ProfiledJvm jvm, String label) {
            this(List.of(jvm), label);
        }

        ProfiledWindow(List<ProfiledJvm> jvms, String label) {
            this.jvms = jvms;
            this.label = label;
        }

        @Override
        public void opening() {
            for (ProfiledJvm jvm : jvms) {
                try {
                    jvm.resume();
                } catch (AsyncProfiler.ProfilerException e) {
                    profileWarnings.add("[" + label + "] JVM " + jvm.pid() + " not profiled: " + e.getMessage());
                }
            }
        }

        @Override
        public void closed() {
            for (ProfiledJvm jvm : jvms) {
                try {
                    jvm.pause();
                } catch (AsyncProfiler.ProfilerException e) {
                    profileWarnings.add("[" + label + "] profiler of JVM " + jvm.pid() + " did not stop: " + e.getMessage());
                }
            }
        }
    }

    /**
     * --profile: flame graphs of the harness itself during the ceiling run (the raw sink, and the agents together),
     * to show where the ceiling's CPU goes (kernel TCP, wake-ups, frame writing).
     */
    private Map<String, String> harnessFlameGraphs(Map<String, List<ProfiledJvm>> byRole, Path dir) {
        Map<String, String> written = new LinkedHashMap<>();
        for (Map.Entry<String, List<ProfiledJvm>> e : byRole.entrySet()) {
            CollapsedStacks all = new CollapsedStacks();
            for (ProfiledJvm jvm : e.getValue()) {
                Path file = dir.resolve("profile-" + e.getKey() + "-" + jvm.pid() + ".collapsed");
                try {
                    if (jvm.dump(file)) {
                        all.addAll(CollapsedStacks.read(file));
                    }
                } catch (AsyncProfiler.ProfilerException | IOException | IllegalArgumentException ex) {
                    profileWarnings.add("[sink] profile of the " + e.getKey() + " not collected: " + ex.getMessage());
                }
            }
            if (all.total() > 0) {
                String html = "flame-harness-" + e.getKey() + ".html";
                try {
                    dev.rmqpatch.bench.profile.FlameGraphHtml.write(all, e.getKey() + " CPU during the harness-ceiling run ("
                        + ctx.profiling().event().name() + ", client " + o.workload.client().label() + ")", o.outDir.resolve(html));
                    written.put(e.getKey(), html);
                } catch (IOException ex) {
                    profileWarnings.add("[sink] " + html + " not written: " + ex.getMessage());
                }
            }
        }
        return written;
    }

    private void collectProfile(String variant, ProfiledJvm jvm, Path file, String label) {
        try {
            if (jvm.dump(file)) {
                profiles.computeIfAbsent(variant, k -> new CollapsedStacks()).addAll(CollapsedStacks.read(file));
                profiledWindows.merge(variant, jvm.windows(), Integer::sum);
            }
        } catch (AsyncProfiler.ProfilerException | IOException | IllegalArgumentException e) {
            profileWarnings.add("[" + label + "] profile not collected: " + e.getMessage());
        }
    }

    /** Flame graphs, the area table and the results views from every round's profile. */
    private void writeProfiles() {
        if (ctx.profiling() == null || ctx.profiling().event() == null || profiles.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (Variant v : o.variants) {
            names.add(v.name());
        }
        ProfileSet set = new ProfileSet("broker", names, o.baseline, ctx.profiling().event(), "profiled in the measured window of every round, every variant "
            + "alike; the profiler's own cost (about 1-3% at this interval) is inside the CPU/msg figures of all variants");
        profiles.forEach((v, stacks) -> set.add(v, stacks, profiledWindows.getOrDefault(v, 0)));
        try {
            set.write(o.outDir);
            for (CompareResults.VariantResult v : results.variants) {
                v.profile = set.variantViews().get(v.name);
            }
            results.profile = set.comparison();
            profileTable = set.table();
        } catch (IOException | RuntimeException e) {
            profileWarnings.add("could not write the profiles: " + e.getMessage());
        }
    }

    /** A round's (or the sink run's) result.json, and the same run in OpenMessaging Benchmark's result format beside it. */
    private static void writeRunFiles(Path dir, RunResult r) throws IOException {
        ResultsFile.write(dir.resolve("result.json"), r);
        if (r.omb != null) {
            ResultsFile.write(dir.resolve(OmbResult.FILE_NAME), r.omb);
        }
    }

    private Replication replication(LocalCluster cluster, BrokerAdmin admin, RunResult r, String label, Path dir)
        throws RunFailedException, IOException {
        Replication rep;
        try {
            rep = HarnessClusters.replication(cluster, admin, SLAVE_CATCH_UP);
        } catch (BrokerAdmin.AdminException e) {
            r.status = "failed";
            r.error = "cannot read the CommitLog offsets of master and slave: " + e.getMessage();
            ResultsFile.write(dir.resolve("result.json"), r);
            throw new RunFailedException("[" + label + "] cannot read the CommitLog offsets of master and slave: " + e.getMessage()
                + " (logs: " + dir + ")", r, e);
        }
        if (r.broker != null && r.broker.roleCores != null && r.broker.roleCores.get("slave") != null) {
            rep.slaveCores = r.broker.roleCores.get("slave");
            rep.slaveCpuUsPerMsg = r.broker.usPerMessage(rep.slaveCores);
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

    /**
     * --stall: no stall before the warm-up is over, counted from the master's JVM start: a start-up allowance per broker
     * JVM (ms-sync starts the slave and waits for replication before the load) plus the round's warm-up.
     */
    static long stallAfterMillis(RunOptions o) {
        return StoreStalls.START_UP_MILLIS * (o.topology == Topology.SINGLE ? 1 : 2) + o.workload.warmupDurationSeconds() * 1000L;
    }

    private void summarize() {
        Summarizer.summarizeAll(results, runs);
        for (CompareResults.VariantResult v : results.variants) {
            v.stalls = stalls.get(v.name);
            if (v.stalls != null) {
                v.stalls.countSendFailures(v.errorsByKind);
            }
        }
        results.warnings.addAll(profileWarnings);
    }

    /** Summary, results.json, table.txt and chart.png from whatever was measured; also after a failure. */
    @Override
    public void finish(RunContext context) {
        if (o == null) {
            return;
        }
        writeProfiles();
        summarize();
        String table = CompareTable.render(results, o.rounds) + (profileTable == null ? "" : "\n" + profileTable)
            + (stalls.isEmpty() ? "" : "\n" + StoreStalls.summary(stalls, "failed in the rounds' measured windows"));
        ctx.writeOutput(results.metadata, results, table, png -> ChartWriter.write(results, png), results.error, results.profile != null);
    }
}
