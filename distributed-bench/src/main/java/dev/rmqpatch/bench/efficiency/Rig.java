package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.AgentFailure;
import dev.rmqpatch.bench.coordinator.AgentGroup;
import dev.rmqpatch.bench.coordinator.LocalAgents;
import dev.rmqpatch.bench.coordinator.PrepareRequests;
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
        throws LocalCluster.ClusterException, IOException, AgentFailure, BrokerAdmin.AdminException {
        RunOptions o = ctx.options();
        BrokerAdmin admin = ctx.admin();
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

    private void startClusters(RunContext ctx, Map<String, Map<String, String>> overrides, EfficiencyResults results, List<String> sameCpuCount)
        throws LocalCluster.ClusterException {
        RunOptions o = ctx.options();
        PrintStream out = ctx.out();
        for (Variant v : o.variants) {
            LocalCluster.Spec cs = ctx.clusterSpec(v, overrides.get(v.name()), o.outDir.resolve("brokers/" + v.name()));
            cs.brokerJvmOptions.addAll(0, sameCpuCount);
            out.printf("[%s elapsed] starting %s: name server + %s from %s, conf/%s %s%n", ctx.elapsed(), v.name(),
                o.topology == Topology.SINGLE ? "broker" : "SYNC_MASTER + SLAVE", v.distName(), v.confName(),
                cs.overrides.isEmpty() ? "" : cs.overrides);
            LocalCluster cluster = ctx.closeAtEnd(HarnessClusters.start(cs, ctx.admin()));
            clusters.add(cluster);
            ComparisonMetadata.variantEntry(results.metadata, v.name()).put("brokerCommandLine", cluster.brokerCommandLine());
        }
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
