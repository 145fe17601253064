package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.broker.Replication;
import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.AgentFailure;
import dev.rmqpatch.bench.coordinator.AgentGroup;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.PrepareRequests;
import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.engine.ComparisonMetadata;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.pinning.CpuPinning;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.cluster.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The brokers and everything else of one efficiency run, once started: every variant's cluster up at once (started here,
 * or with --remote running on other hosts), the agents with producers to all of them, the topics, a probe per broker and
 * the window runner.
 */
final class Rig {
    final List<LocalCluster> clusters = new ArrayList<>();
    List<AgentClient> agents;
    final List<BrokerUnderTest> brokers = new ArrayList<>();
    AgentGroup group;
    WindowRunner windows;
    CpuPinning pinning;
    /** --remote: the clusters on other hosts; null when this run started {@link #clusters} here. */
    RemoteBrokers remote;
    /** --clients: each client's agents (the variants are the clients, one cluster); null when brokers are compared. */
    ClientRig clientRig;

    static List<String> agentJvmOptions(List<String> sameCpuCount) {
        List<String> all = new ArrayList<>(LocalAgents.DEFAULT_JVM_OPTIONS);
        all.addAll(sameCpuCount);
        return all;
    }

    /**
     * Starts every variant's cluster (handed to the context to close) and the agents, or with --remote reaches the
     * clusters and agents that run elsewhere ({@link RemoteBrokers}); then the topics, the probes and the window runner.
     */
    void start(RunContext ctx, Map<String, Map<String, String>> overrides, EfficiencyResults results, List<String> sameCpuCount)
        throws LocalCluster.ClusterException, IOException, AgentFailure, BrokerAdmin.AdminException, ClientVariant.MissingPartException {
        RunOptions o = ctx.options();
        BrokerAdmin admin = ctx.admin();
        if (o.clients != null) {
            startClients(ctx, overrides, results, sameCpuCount);
            return;
        }
        List<String> namesrvOf = new ArrayList<>();
        List<List<String>> mastersOf = new ArrayList<>();
        if (o.remote == null) {
            startClusters(ctx, overrides, results, sameCpuCount);
            for (LocalCluster c : clusters) {
                namesrvOf.add(c.namesrvAddr());
                mastersOf.add(List.of(c.brokerAddr()));
            }
            agents = ctx.launchAgents(agentJvmOptions(sameCpuCount));
        } else {
            remote = RemoteBrokers.reach(ctx, results);
            for (int i = 0; i < o.variants.size(); i++) {
                namesrvOf.add(remote.namesrv(i));
                mastersOf.add(remote.masters(i));
            }
            agents = RemoteBrokers.agents(o);
        }
        group = ctx.closeAtEnd(new AgentGroup(agents));
        group.resetBusy();

        String runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
        List<PrepareRequest.Target> targets = new ArrayList<>();
        for (int i = 0; i < namesrvOf.size(); i++) {
            List<String> topics = new ArrayList<>();
            for (int t = 0; t < o.workload.topics(); t++) {
                String topic = "bench-" + runId + "-v" + i + "-" + t;
                for (String master : mastersOf.get(i)) {
                    admin.createTopic(master, topic, o.workload.partitionsPerTopic());
                }
                topics.add(topic);
            }
            targets.add(new PrepareRequest.Target(namesrvOf.get(i), topics));
        }
        List<AgentClient> all = group.agents();
        for (int a = 0; a < all.size(); a++) {
            PrepareRequest prepare = prepareRequest(o.workload, o.payloadDir, runId, targets);
            prepare.subscriptions = subscriptions(o.workload, runId, targets, a, all.size());
            prepare.stampBodies = o.workload.hasConsumers();
            prepare.agentIndex = a;
            all.get(a).prepare(prepare);
        }
        group.forAll(a -> a.start(0));

        List<ManagedProcess> namesrvs = new ArrayList<>();
        for (int i = 0; i < o.variants.size(); i++) {
            if (remote != null) {
                brokers.add(new BrokerUnderTest(o.variants.get(i).name(), remote.source(i, admin), List.of()));
                continue;
            }
            LocalCluster c = clusters.get(i);
            namesrvs.add(c.namesrvProcess());
            List<ManagedProcess> own = new ArrayList<>(List.of(c.brokerProcess()));
            if (c.slaveProcess() != null) {
                own.add(c.slaveProcess());
            }
            BrokerProbe probe = new BrokerProbe(admin, List.of(c.brokerAddr()), c.brokerPid(), HarnessClusters.gcMonitor(c), RoleAccounting.of(clusters, i, ctx.baseRoles()))
                .threadsOf(EfficiencyPlan.SLAVE_ROLE);
            brokers.add(new BrokerUnderTest(o.variants.get(i).name(), probe, own));
        }
        windows = new WindowRunner(group, brokers, namesrvs, Duration.ofSeconds(o.windowSeconds), ctx.out(), results.warnings);
    }

    /** --clients: the one cluster, each client's agents, its topics and probes, and the window runner that takes turns between them. */
    private void startClients(RunContext ctx, Map<String, Map<String, String>> overrides, EfficiencyResults results, List<String> sameCpuCount)
        throws LocalCluster.ClusterException, IOException, AgentFailure, BrokerAdmin.AdminException, ClientVariant.MissingPartException {
        RunOptions o = ctx.options();
        // The agents first: a client's missing jar fails the run before any broker starts.
        clientRig = ClientRig.launch(ctx, agentJvmOptions(sameCpuCount), results);
        startClusters(ctx, overrides, results, sameCpuCount);
        agents = clientRig.all();
        group = ctx.closeAtEnd(new AgentGroup(agents));
        group.resetBusy();
        String runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
        LocalCluster cluster = clusters.get(0);
        clientRig.prepare(o, ctx.admin(), cluster, runId);
        group.forAll(a -> a.start(0));
        brokers.addAll(clientRig.probes(o, ctx.admin(), cluster));
        windows = new WindowRunner(group, brokers, List.of(), Duration.ofSeconds(o.windowSeconds), ctx.out(), results.warnings);
        windows.routeWith(clientRig.routing(o.clientSide));
    }

    /** The JVM a profiled window of variant {@code i} profiles: its broker (master), or with --clients the client's first agent. */
    long profiledPid(int i) {
        return clientRig != null ? clientRig.profiledPid(i) : clusters.get(i).brokerPid();
    }

    /** ms-sync, brokers compared: variant {@code i}'s slave, profiled with its master; else null. */
    Long profiledSlavePid(int i) {
        return clientRig == null && clusters.get(i).slaveProcess() != null ? clusters.get(i).slaveProcess().pid() : null;
    }

    /** After the last window: stops the agents' load and, in ms-sync, checks that every slave caught up with its master. */
    void stop(RunContext ctx, EfficiencyResults results) throws AgentFailure, BrokerAdmin.AdminException {
        group.forAll(a -> a.stop(Duration.ofSeconds(35)));
        RunOptions o = ctx.options();
        if (o.topology == Topology.SINGLE) {
            return;
        }
        for (int i = 0; remote != null && i < o.variants.size(); i++) {
            remote.checkReplication(i, o.variants.get(i).name(), ctx.admin(), ctx.out());
        }
        for (int i = 0; i < clusters.size(); i++) {
            String name = o.variants.get(i).name();
            Replication rep = HarnessClusters.replication(clusters.get(i), ctx.admin(), Duration.ofSeconds(10));
            ctx.out().printf("%s: CommitLog max offset master %,d, slave %,d%n", name, rep.masterCommitLogMaxOffset, rep.slaveCommitLogMaxOffset);
            if (!rep.caughtUp()) {
                results.warnings.add(String.format(Locale.ROOT, "%s: the slave's CommitLog max offset %,d differs from the master's %,d after the "
                    + "load stopped: replication fell behind or broke", name, rep.slaveCommitLogMaxOffset, rep.masterCommitLogMaxOffset));
            }
        }
    }

    private void startClusters(RunContext ctx, Map<String, Map<String, String>> overrides, EfficiencyResults results, List<String> sameCpuCount)
        throws LocalCluster.ClusterException {
        RunOptions o = ctx.options();
        PrintStream out = ctx.out();
        for (Variant v : o.variants) {
            LocalCluster.Spec cs = ctx.clusterSpec(v, overrides.get(v.name()), o.outDir.resolve("brokers/" + v.name()));
            cs.brokerJvmOptions.addAll(0, sameCpuCount);
            if (o.stall != null) {
                cs.masterJvmOptions.add(o.stall.jvmOption(o.stallAgentJar, stallAfterMillis(o)));
            }
            out.printf("[%s elapsed] starting %s: name server + %s from %s, conf/%s %s%n", ctx.elapsed(), v.name(),
                o.topology == Topology.SINGLE ? "broker" : "SYNC_MASTER + SLAVE", v.distName(), v.confName(),
                cs.overrides.isEmpty() ? "" : cs.overrides);
            LocalCluster cluster = ctx.closeAtEnd(HarnessClusters.start(cs, ctx.admin()));
            clusters.add(cluster);
            ComparisonMetadata.variantEntry(results.metadata, v.name()).put("brokerCommandLine", cluster.brokerCommandLine());
        }
    }

    /** Warm-up windows per variant: the workload's warm-up in whole windows, at least one. */
    static int warmUpWindows(RunOptions o) {
        return (int) Math.max(1, Math.ceil((double) o.workload.warmupDurationSeconds() / o.windowSeconds));
    }

    /**
     * --stall: no stall before the warm-up and the rate check are over (a stall in the rate check would fail it and step
     * the rate down), counted from a master's JVM start: a start-up allowance per cluster (they start one after another,
     * then the agents) plus the warm-up windows and one rate-check window of every variant. Later clusters start later,
     * so their stalls begin later still.
     */
    static long stallAfterMillis(RunOptions o) {
        int variants = o.variants.size();
        return StoreStalls.START_UP_MILLIS * variants + (warmUpWindows(o) + 1L) * o.windowSeconds * variants * 1000L;
    }

    /**
     * --stall: each variant's stalls, read from its master's output, and its failed sends over all its windows into
     * results; the lines the run's output ends with (empty without --stall).
     */
    String recordStalls(RunOptions o, EfficiencyResults results) throws IOException {
        List<String> names = new ArrayList<>();
        o.variants.forEach(v -> names.add(v.name()));
        Map<String, StoreStalls.Record> records = StoreStalls.records(names, o.stall, stallAfterMillis(o));
        for (int i = 0; i < clusters.size() && !records.isEmpty(); i++) {
            String name = names.get(i);
            StoreStalls.Record r = records.get(name);
            r.read(clusters.get(i).master().output(), null);
            Map<String, Long> kinds = new java.util.TreeMap<>();
            results.windows.stream().filter(w -> w.variant.equals(name) && w.errorsByKind != null)
                .forEach(w -> w.errorsByKind.forEach((k, n) -> kinds.merge(k, n, Long::sum)));
            r.countSendFailures(kinds);
            results.variants.stream().filter(v -> v.name.equals(name)).forEach(v -> v.stalls = r);
        }
        return StoreStalls.summary(records, "failed in any of the variant's windows");
    }

    /**
     * Agent {@code agent}'s consumers: for every cluster's topics, the workload's subscriptions (a group each, named after
     * the cluster), their consumers spread over the agents; null without consumers. They consume at once what the
     * window's load stores, so a window's broker CPU is producing and consuming its messages.
     */
    static List<PrepareRequest.Subscription> subscriptions(Workload w, String runId, List<PrepareRequest.Target> targets, int agent,
                                                           int agents) {
        if (!w.hasConsumers()) {
            return null;
        }
        List<PrepareRequest.Subscription> subs = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            for (String topic : targets.get(i).topics) {
                for (int s = 0; s < w.subscriptionsPerTopic(); s++) {
                    int n = w.consumerPerSubscription() / agents + (agent < w.consumerPerSubscription() % agents ? 1 : 0);
                    if (n > 0) {
                        PrepareRequest.Subscription sub = new PrepareRequest.Subscription(topic, "bench-" + runId + "-v" + i + "-sub" + s, n);
                        sub.namesrv = targets.get(i).namesrv;
                        subs.add(sub);
                    }
                }
            }
        }
        return subs;
    }

    /**
     * What every agent gets: the workload's shape, and its keys and bodies as bench run sends them (OMB's key distributor,
     * the payload file found next to the workload file or under --payload-dir, or OMB's randomized pool); the rate is set
     * per window.
     */
    static PrepareRequest prepareRequest(Workload w, Path payloadDir, String runId, List<PrepareRequest.Target> targets) throws IOException {
        PrepareRequest r = PrepareRequests.forWorkload(w, runId, PrepareRequests.payloadBase64(w, payloadDir));
        r.targets = targets;
        r.ratePerSecond = 0;
        r.sendTimeoutMs = 3000;
        r.maxOutstanding = 1000;
        return r;
    }

}
