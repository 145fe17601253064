package dev.rmqpatch.bench.engine;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.HelperJdk;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.LocalJvm;
import dev.rmqpatch.bench.profile.BrokerProfiling;
import dev.rmqpatch.bench.report.OutputFolder;
import dev.rmqpatch.cluster.LocalCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every {@link Plan} runs on: the options, the output, the clock, the broker admin, the load agents and the
 * profiler, and what is started in a run is stopped by {@link #run} even when the plan fails. One object per run.
 */
public final class RunContext {
    private final RunOptions options;
    private final PrintStream out;
    private final long started = System.nanoTime();
    private final List<AgentClient> agents = new ArrayList<>();
    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private BrokerAdmin admin;
    private BrokerProfiling profiling;

    public RunContext(RunOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /**
     * Checks every variant's distribution, opens the broker admin and (--profile) the profiler, runs the plan, and
     * then, whatever happened: stops the agents, closes what the plan handed to {@link #closeAtEnd} (clusters, ...) in
     * reverse order, and lets the plan write its results.
     */
    public void run(Plan plan) throws PlanFailedException {
        // Remote brokers (--remote) run their own distributions on their hosts; this machine need not have them.
        for (Variant v : options.remote == null ? options.variants : List.<Variant>of()) {
            try {
                v.check(options.distDir);
            } catch (LocalCluster.ClusterException e) {
                throw new PlanFailedException(e.getMessage(), e);
            }
        }
        try (BrokerAdmin a = new BrokerAdmin()) {
            admin = a;
            if (options.profile) {
                profiling = BrokerProfiling.open();
            }
            plan.run(this);
            plan.ended(null);
        } catch (Exception e) {
            plan.ended(e.getMessage() == null ? e.toString() : e.getMessage());
            throw new PlanFailedException(e.getMessage(), e);
        } finally {
            LocalAgents.stop(agents);
            for (int i = closeLast.size() - 1; i >= 0; i--) {
                try {
                    closeLast.get(i).close();
                } catch (Exception e) {
                    out.println("could not stop " + closeLast.get(i) + ": " + e.getMessage());
                }
            }
            plan.finish(this);
            if (profiling != null) {
                profiling.close();
            }
        }
    }

    public RunOptions options() {
        return options;
    }

    public PrintStream out() {
        return out;
    }

    public BrokerAdmin admin() {
        return admin;
    }

    /** The profiler with --profile, else null. */
    public BrokerProfiling profiling() {
        return profiling;
    }

    /** Stopped at the end of the run, after the agents, in reverse order of handing over. */
    public <T extends AutoCloseable> T closeAtEnd(T resource) {
        closeLast.add(resource);
        return resource;
    }

    /** Starts --agents local agent JVMs; they are stopped at the end of the run. */
    public List<AgentClient> launchAgents(List<String> jvmOptions) throws IOException {
        out.printf("starting %d agent JVM(s) ...%n", options.agents);
        agents.addAll(LocalAgents.launch(options.agents, options.outDir.resolve("agents"), jvmOptions));
        return agents;
    }

    /**
     * Starts {@code count} more local agent JVMs (agent-{@code first} ...), their output under {@code dir}, on {@code jdk},
     * with {@code classPathFirst} before the harness's class path; they are stopped at the end of the run. Returns the new ones.
     */
    public List<AgentClient> launchAgents(int count, int first, Path dir, HelperJdk jdk, List<String> jvmOptions, List<Path> classPathFirst)
        throws IOException {
        List<AgentClient> started = LocalAgents.launch(count, first, dir, jdk, jvmOptions, classPathFirst);
        agents.addAll(started);
        return started;
    }

    public List<AgentClient> agents() {
        return agents;
    }

    /** The agents' JVM options as results.json records them: the module opens every local JVM gets, then these. */
    public static List<String> recordedAgentJvmOptions(List<String> jvmOptions) {
        List<String> all = new ArrayList<>(LocalJvm.NIO_OPENS);
        all.addAll(jvmOptions);
        return all;
    }

    /** Conf settings appended for a variant: its own, then every --set. */
    public Map<String, String> overrides(Variant v) {
        return ComparisonMetadata.overrides(v, options);
    }

    /**
     * A cluster of the variant with the run's heap and topology, its files under {@code workDir}, stopped without grace;
     * a later release's patched variant also gets patch-lib's report there ({@link Variant#copyPatchLibReport}).
     */
    public LocalCluster.Spec clusterSpec(Variant v, Map<String, String> overrides, Path workDir) throws LocalCluster.ClusterException {
        LocalCluster.Spec cs = v.clusterSpec(options.distDir, overrides);
        cs.brokerHeap = options.brokerHeap;
        cs.topology = options.topology;
        cs.workDir = workDir;
        cs.stopGrace = Duration.ZERO;
        try {
            v.copyPatchLibReport(options.distDir, workDir);
        } catch (java.io.IOException e) {
            throw new LocalCluster.ClusterException(v.name() + ": cannot copy patch-lib's report into " + workDir + ": " + e.getMessage(), e);
        }
        return cs;
    }

    /** CPU roles every run has: the local agents and this coordinator. */
    public Map<String, List<Long>> baseRoles() {
        Map<String, List<Long>> roles = new LinkedHashMap<>();
        roles.put("agents", localAgentPids());
        roles.put("coordinator", List.of(ProcessHandle.current().pid()));
        return roles;
    }

    public List<Long> localAgentPids() {
        List<Long> pids = new ArrayList<>();
        for (AgentClient a : agents) {
            if (a.isLocal()) {
                pids.add(a.process().pid());
            }
        }
        return pids;
    }

    /** m:ss since the run started. */
    public String elapsed() {
        long s = elapsedSeconds();
        return String.format("%d:%02d", s / 60, s % 60);
    }

    public long elapsedSeconds() {
        return Duration.ofNanos(System.nanoTime() - started).toSeconds();
    }

    /** Stamps the end into the metadata and writes results.json, table.txt and chart.png. */
    public void writeOutput(Map<String, Object> metadata, Object results, String table, OutputFolder.Chart chart, String error,
        boolean profiled) {
        metadata.put("finishedAt", Instant.now().toString());
        metadata.put("elapsedSeconds", elapsedSeconds());
        OutputFolder.write(out, options.outDir, results, table, chart, error, profiled, elapsed());
    }
}
