package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.HarnessClusters;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.coordinator.AgentFailure;
import dev.rmqpatch.bench.coordinator.HelperJdk;
import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.engine.ReleaseClientJars;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.protocol.AgentStatus;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.ManagedProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code compare --efficiency --clients A,B}: the mirror image of the broker comparison. One broker cluster (the one
 * variant) and a set of agent JVMs per client, each started on that client's class path (the stock client, the patched
 * jars first, or the stock one with the Java agent) and otherwise with the same JVM options; the windows take turns
 * between the clients as they take turns between clusters in the broker comparison ({@link ClientRouting}), and the
 * figure is the window's client's agent JVMs' CPU per message. Consumer side: the same stock producers feed each
 * client's own topics in its windows, and the client's push consumers receive them.
 */
final class ClientRig {
    /**
     * Warm-up per client when neither --warmup nor a workload file gives one: a client's JVM is compiled only in its own
     * windows (a broker comparison's agents are warm in every window), and at a few thousand msg/s its JIT is still busy
     * after the broker comparison's 15 s (the per-thread figures' jit group shows it).
     */
    static final int DEFAULT_WARMUP_SECONDS = 30;
    static final Flag<ClientVariant.Side> CLIENT_SIDE = Flag.parsed("--client-side", "producer|consumer", ClientVariant.Side::parse,
        "with --clients: producer: the clients' producers send at the rate (the workload's mode, size and threads), the figure is their "
            + "agent JVMs' CPU per message acknowledged; consumer: --agents stock producer JVMs (the same for every client) send to the "
            + "window's client's own topics, and the figure is that client's push consumers' agent JVMs' CPU per message received "
            + "(--consumers N per client, default 1)")
        .defaultingTo(ClientVariant.Side.PRODUCER, "producer");
    static final Flag<String> CLIENTS = Flag.text("--clients", "LIST", "compare RocketMQ clients instead of brokers: one broker "
        + "cluster (--variants names one; default 4.9.0-tuned), and per client its own --agents agent JVMs, the windows taking turns "
        + "between the clients (A B, B A ...) at the fixed rate as they do between brokers; the figure is each client's agent JVMs' CPU "
        + "per message (from /proc), with the broker's over the same windows beside it. Clients: stock (the harness's rocketmq-client), "
        + "patched (the patched distribution's rocketmq-client, -common, -remoting, -logging and codec jars first on the class path; "
        + "compare.sh builds them), agent (stock class path plus -javaagent:" + ClientVariant.AGENT_JAR + "), a release: 4.9.8 or 5.3.3 "
        + "(that release's stock client, producer and push consumer: the jars of its stock distribution's lib/ (--dist-dir; compare.sh "
        + "builds it, else scripts/build.sh --rocketmq-version V --stock-only) first on the class path, but its server modules and the "
        + "harness's own " + ReleaseClientJars.HARNESS_LIBRARIES + "; upgrading the client: --clients stock@8,4.9.8@8,5.3.3@8 "
        + "--client-side producer, then consumer), wire (producer side "
        + "only: no RocketMQ client code, the harness's wire client, frames encoded once and written and answered on one netty event "
        + "loop paced by its timers: a reference, not a floor, since below saturation that loop polls), patched-without-P7[+P8] "
        + "and agent-without-P7 (-Drmqpatch.disable on the agent JVMs), @8 to run a client's agent JVMs on JDK 8 (stock@8,patched@8; "
        + "scripts/jdk8.sh fetches one on first use; -Drmqpatch.jdk8.home=DIR points at your own; consumer side, the stock producers "
        + "stay on the harness's JDK), #N for another copy (stock,stock#2: A/A). The first is the "
        + "baseline unless --baseline names another; every agent JVM's command line is in results.json. --profile profiles the "
        + "clients' first agent JVMs instead of brokers. The client's agent JVM is measured whole: the harness's own load loop is "
        + "in it, alike for every client. Warm-up: " + DEFAULT_WARMUP_SECONDS + " s per client unless --warmup (a client's JVM "
        + "compiles only in its own windows)");
    /** The broker a client comparison runs against when --variants is not given. */
    static final String DEFAULT_BROKER = "4.9.0-tuned";

    /** Per client (in the options' order) its agents. */
    final List<List<AgentClient>> byClient = new ArrayList<>();
    /** Consumer side: the stock producers' agents; empty on the producer side. */
    List<AgentClient> load = List.of();

    static List<Flag<?>> flags() {
        return List.of(CLIENTS, CLIENT_SIDE);
    }

    /**
     * Reads --clients and --client-side into the options; returns whether clients are compared. The one broker variant is
     * --variants' (exactly one) or {@link #DEFAULT_BROKER}.
     */
    static boolean configure(Args a, RunOptions o) throws UsageException {
        if (!a.has(CLIENTS)) {
            if (a.has(CLIENT_SIDE)) {
                throw new UsageException("--client-side applies to --clients only");
            }
            return false;
        }
        try {
            o.clients = ClientVariant.parseList(a.get(CLIENTS));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        o.clientSide = a.get(CLIENT_SIDE);
        if (!a.givenNames().contains("--variants")) {
            o.variants = new ArrayList<>(List.of(Variant.parse(DEFAULT_BROKER)));
        } else if (o.variants.size() != 1) {
            throw new UsageException("--clients compares clients against one broker cluster: give one variant in --variants, not "
                + o.variants.size() + " (" + o.variants + ")");
        }
        if (!a.has(HarnessFlags.WARMUP) && !a.has(HarnessFlags.WORKLOAD)) {
            o.workload = o.workload.withWarmupDurationSeconds(DEFAULT_WARMUP_SECONDS);
        }
        if (o.workload.client() != ClientMode.ROCKETMQ) {
            throw new UsageException("--clients compares RocketMQ clients: leave out --client " + o.workload.client().label());
        }
        if (a.has(RemoteBrokers.REMOTE)) {
            throw new UsageException("--clients runs its broker and agents on this machine: leave out --remote");
        }
        if (o.clientSide == ClientVariant.Side.PRODUCER && o.workload.hasConsumers()) {
            throw new UsageException("--client-side producer measures producers only: leave out --consumers (or the workload's "
                + "subscriptions), or give --client-side consumer");
        }
        if (o.clientSide == ClientVariant.Side.CONSUMER && !o.workload.hasConsumers()) {
            o.workload = o.workload.withConsumers(1, 1, 0);
        }
        if (o.clientSide == ClientVariant.Side.CONSUMER && o.clients.stream().anyMatch(c -> c.mode() == ClientMode.WIRE)) {
            throw new UsageException("client wire has producers only (the wire client sends; its consumers would be the stock client's): "
                + "leave it out of --clients with --client-side consumer");
        }
        if (a.has(HarnessFlags.CONSUMERS) && a.get(HarnessFlags.CONSUMERS) == 0 && o.clientSide == ClientVariant.Side.CONSUMER) {
            throw new UsageException("--client-side consumer needs consumers: --consumers 0 leaves none");
        }
        return true;
    }

    /**
     * Starts the agent JVMs (consumer side: first the --agents stock producers), each client's --agents JVMs with its own
     * class path and options after {@code sameForAll}; records each client's command lines and loaded classes.
     */
    static ClientRig launch(RunContext ctx, List<String> sameForAll, EfficiencyResults results)
        throws IOException, ClientVariant.MissingPartException, AgentFailure {
        RunOptions o = ctx.options();
        Path agentJar = null;
        List<Path> patchedJars = List.of();
        for (ClientVariant c : o.clients) {
            if (c.kind() == ClientVariant.Kind.AGENT && agentJar == null) {
                agentJar = ClientVariant.agentJar(o.repoRoot);
            }
            if (c.kind() == ClientVariant.Kind.PATCHED && patchedJars.isEmpty()) {
                patchedJars = ClientVariant.patchedJars(o.distDir, ClientVariant.stockVersion());
            }
        }
        // Every client's jars and JDK before any JVM starts: a missing part fails the run with nothing to stop.
        List<HelperJdk> jdks = new ArrayList<>();
        List<List<Path>> firsts = new ArrayList<>();
        for (ClientVariant c : o.clients) {
            jdks.add(HelperJdk.at(c.javaHome()));
            firsts.add(c.classPathFirst(patchedJars, o.distDir));
        }
        ClientRig rig = new ClientRig();
        Path dir = o.outDir.resolve("agents");
        int next = 1;
        results.clients = new EfficiencyResults.ClientRun();
        results.clients.side = o.clientSide.label();
        results.clients.broker = o.variants.get(0).name();
        if (o.clientSide == ClientVariant.Side.CONSUMER) {
            ctx.out().printf("starting %d stock producer agent JVM(s), the same for every client ...%n", o.agents);
            rig.load = ctx.launchAgents(o.agents, next, dir.resolve("load"), HelperJdk.harness(), sameForAll, List.of());
            next += o.agents;
            results.clients.loadAgentCommandLines = commandLines(rig.load);
        }
        for (int i = 0; i < o.clients.size(); i++) {
            ClientVariant c = o.clients.get(i);
            List<String> options = new ArrayList<>(sameForAll);
            options.addAll(c.jvmOptions(agentJar));
            List<Path> first = firsts.get(i);
            ctx.out().printf("starting %d agent JVM(s) of client %s%s%s%s ...%n", o.agents, c.name(), c.jdk() == null ? "" : ", on JDK " + c.jdk(),
                first.isEmpty() ? "" : c.kind() == ClientVariant.Kind.RELEASE ? ", class path first " + first.size() + " jars of "
                    + first.get(0).getParent() + " (all but its server modules and " + ReleaseClientJars.HARNESS_LIBRARIES + "; in results.json)"
                    : ", class path first " + first, c.jvmOptions(agentJar).isEmpty() ? "" : ", " + c.jvmOptions(agentJar));
            List<AgentClient> agents = ctx.launchAgents(o.agents, next, dir.resolve(c.name()), jdks.get(i), options, first);
            next += o.agents;
            rig.byClient.add(agents);
            EfficiencyResults.ClientSetup setup = new EfficiencyResults.ClientSetup();
            setup.kind = c.kind().label();
            setup.disabledPatches = c.disabledPatches();
            setup.classPathFirst = new ArrayList<>();
            first.forEach(p -> setup.classPathFirst.add(p.toString()));
            setup.ownJvmOptions = c.jvmOptions(agentJar);
            setup.commandLines = commandLines(agents);
            AgentStatus status = agents.get(0).status();
            setup.javaVersion = status.javaVersion;
            setup.loadedClasses = status.rocketmqClasses;
            results.variants.get(i).client = setup;
        }
        return rig;
    }

    private static List<List<String>> commandLines(List<AgentClient> agents) {
        List<List<String>> lines = new ArrayList<>();
        for (AgentClient a : agents) {
            lines.add(a.process().command());
        }
        return lines;
    }

    /** Every agent, in the order {@link #routing} and {@link #prepare} index them: the load agents, then each client's. */
    List<AgentClient> all() {
        List<AgentClient> all = new ArrayList<>(load);
        byClient.forEach(all::addAll);
        return all;
    }

    ClientRouting routing(ClientVariant.Side side) {
        int[] clientOf = new int[load.size() + byClient.stream().mapToInt(List::size).sum()];
        int a = 0;
        for (int i = 0; i < load.size(); i++) {
            clientOf[a++] = ClientRouting.LOAD;
        }
        for (int c = 0; c < byClient.size(); c++) {
            for (int i = 0; i < byClient.get(c).size(); i++) {
                clientOf[a++] = c;
            }
        }
        return new ClientRouting(side, clientOf);
    }

    /**
     * Creates the topics and prepares every agent. Producer side: one topic set, every client's producers to it. Consumer
     * side: a topic set per client; the load agents get them all as targets (target i = client i's topics), each client's
     * agents subscribe to their own (a consumer group per client) and keep their producers paused.
     */
    void prepare(RunOptions o, BrokerAdmin admin, LocalCluster cluster, String runId) throws IOException, AgentFailure,
        BrokerAdmin.AdminException {
        boolean consumer = o.clientSide == ClientVariant.Side.CONSUMER;
        List<PrepareRequest.Target> targets = new ArrayList<>();
        for (int i = 0; i < (consumer ? byClient.size() : 1); i++) {
            List<String> topics = new ArrayList<>();
            for (int t = 0; t < o.workload.topics(); t++) {
                String topic = "bench-" + runId + (consumer ? "-c" + i : "-v0") + "-" + t;
                admin.createTopic(cluster.brokerAddr(), topic, o.workload.partitionsPerTopic());
                topics.add(topic);
            }
            targets.add(new PrepareRequest.Target(cluster.namesrvAddr(), topics));
        }
        int index = 0;
        for (AgentClient a : load) {
            PrepareRequest p = Rig.prepareRequest(o.workload, o.payloadDir, runId, targets);
            p.stampBodies = true;
            p.agentIndex = index++;
            a.prepare(p);
        }
        for (int c = 0; c < byClient.size(); c++) {
            List<PrepareRequest.Target> own = List.of(targets.get(consumer ? c : 0));
            List<AgentClient> agents = byClient.get(c);
            for (int i = 0; i < agents.size(); i++) {
                PrepareRequest p = Rig.prepareRequest(o.workload, o.payloadDir, runId, own);
                // A consumer group per client: the same name on two clients' topics would make them one group.
                p.subscriptions = consumer ? Rig.subscriptions(o.workload, runId + "-c" + c, own, i, agents.size()) : null;
                p.stampBodies = consumer;
                p.client = o.clients.get(c).mode().label();
                p.agentIndex = index++;
                agents.get(i).prepare(p);
            }
        }
    }

    /**
     * One source per client: the same broker's counters and CPU, and that client's agent JVMs' CPU and threads
     * ({@link WindowRunner#CLIENT_ROLE}); the other clients' agents count as idle clients.
     */
    List<BrokerUnderTest> probes(RunOptions o, BrokerAdmin admin, LocalCluster cluster) {
        List<BrokerUnderTest> all = new ArrayList<>();
        List<ManagedProcess> watched = new ArrayList<>(List.of(cluster.brokerProcess(), cluster.namesrvProcess()));
        if (cluster.slaveProcess() != null) {
            watched.add(cluster.slaveProcess());
        }
        for (int c = 0; c < byClient.size(); c++) {
            List<Long> idle = new ArrayList<>();
            for (int other = 0; other < byClient.size(); other++) {
                if (other != c) {
                    idle.addAll(pids(byClient.get(other)));
                }
            }
            BrokerProbe probe = new BrokerProbe(admin, List.of(cluster.brokerAddr()), cluster.brokerPid(), HarnessClusters.gcMonitor(cluster),
                RoleAccounting.ofClient(cluster, pids(byClient.get(c)), idle, pids(load)))
                .threadsOf(EfficiencyPlan.SLAVE_ROLE).threadsOf(WindowRunner.CLIENT_ROLE);
            all.add(new BrokerUnderTest(o.clients.get(c).name(), probe, watched));
        }
        return all;
    }

    /** The JVM a profiled window of client {@code c} profiles: its first agent. */
    long profiledPid(int c) {
        return byClient.get(c).get(0).process().pid();
    }

    private static List<Long> pids(List<AgentClient> agents) {
        List<Long> pids = new ArrayList<>();
        agents.forEach(a -> pids.add(a.process().pid()));
        return pids;
    }
}
