package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.BrokerProbe;
import dev.rmqpatch.bench.broker.BrokerSample;
import dev.rmqpatch.bench.broker.JmxAccess;
import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.coordinator.AgentClient;
import dev.rmqpatch.bench.engine.ComparisonMetadata;
import dev.rmqpatch.bench.engine.RemoteCluster;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.pinning.PinMode;
import dev.rmqpatch.cluster.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The efficiency plan's brokers when they run on other hosts, started by someone else (scripts/run-distributed.sh
 * --efficiency deploys every variant's cluster at once): per variant its name server and the JMX ports of its masters
 * (and slaves), agents started elsewhere. The windows, pairs and statistics are the plan's as for local clusters; only
 * where a window's figures come from differs: the messages from each master's own counter through the admin API, as
 * locally, and the CPU and GC from each broker JVM's {@code OperatingSystemMXBean.ProcessCpuTime} and collectors over
 * remote JMX (the deployment's read-only login, TLS if deployed so) instead of /proc, which other hosts do not show.
 * Without /proc there are no per-thread figures (context switches, CPU by thread group) and no pinning.
 */
final class RemoteBrokers implements AutoCloseable {
    static final Flag<String> REMOTE = Flag.text("--remote", RemoteCluster.FORMAT, "a variant's cluster on other hosts, started "
        + "by someone else (scripts/run-distributed.sh --efficiency writes these): its name server(s), the JMX ports of its masters "
        + "and, with --topology ms-sync, of its slaves; one per variant (repeatable). Broker CPU and GC then come from each "
        + "broker JVM's ProcessCpuTime and collectors over JMX (--broker-jmx-password-file, --broker-jmx-tls-cert), the load from "
        + "running agents (--agent, --agent-token-file); no pinning (--pin off), no per-thread figures, no --profile or --runs")
        .repeatable();
    /** results.json's cpuSource: where every window's broker CPU came from. */
    static final String CPU_FROM_PROC = "proc";
    static final String CPU_FROM_JMX = "jmx";
    static final String NO_PINNING = "remote brokers: pinning needs the brokers on this machine (taskset), so every window ran "
        + "unpinned (--pin off); and no per-thread figures (context switches, CPU by thread group) without their /proc";

    private final List<RemoteCluster> clusters = new ArrayList<>();
    private final List<List<String>> masters = new ArrayList<>();
    private final List<JmxBrokerProbe> masterJmx = new ArrayList<>();
    private final List<JmxBrokerProbe> slaveJmx = new ArrayList<>();
    private final List<String> warnings;

    private RemoteBrokers(List<String> warnings) {
        this.warnings = warnings;
    }

    /** The flags of the remote case, listed with the plan's. */
    static List<Flag<?>> flags() {
        return List.of(REMOTE, HarnessFlags.AGENT, HarnessFlags.AGENT_TOKEN_FILE, HarnessFlags.BROKER_JMX_PASSWORD_FILE,
            HarnessFlags.BROKER_JMX_TLS_CERT);
    }

    /** Reads --remote and its companions into the options (after the plan's own flags), or refuses them without --remote. */
    static void configure(Args a, RunOptions o) throws UsageException {
        if (!a.has(REMOTE)) {
            for (Flag<?> f : flags()) {
                if (a.has(f)) {
                    throw new UsageException(f.name() + " goes with --remote (each variant's cluster on other hosts); the clusters "
                        + "this plan starts itself run on this machine with local agents");
                }
            }
            return;
        }
        Map<String, RemoteCluster> byVariant = new LinkedHashMap<>();
        for (String raw : a.all(REMOTE)) {
            RemoteCluster c;
            try {
                c = RemoteCluster.parse(raw);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--remote: " + e.getMessage());
            }
            if (byVariant.put(c.variant(), c) != null) {
                throw new UsageException("--remote: variant " + c.variant() + " given twice");
            }
        }
        List<RemoteCluster> ordered = new ArrayList<>();
        for (Variant v : o.variants) {
            RemoteCluster c = byVariant.remove(v.name());
            if (c == null) {
                throw new UsageException("--remote: no cluster for variant " + v.name() + " (one --remote per variant in --variants)");
            }
            boolean slaves = !c.slaveJmx().isEmpty();
            if (o.topology == Topology.MS_SYNC && !slaves) {
                throw new UsageException("--remote " + v.name() + ": --topology ms-sync counts the slaves' CPU too; give their JMX ports "
                    + "(slave-jmx=HOST:PORT)");
            }
            if (o.topology == Topology.SINGLE && slaves) {
                throw new UsageException("--remote " + v.name() + ": slave-jmx goes with --topology ms-sync");
            }
            ordered.add(c);
        }
        if (!byVariant.isEmpty()) {
            throw new UsageException("--remote names variant(s) " + byVariant.keySet() + " that are not in --variants " + names(o));
        }
        if (!a.has(HarnessFlags.AGENT)) {
            throw new UsageException("--remote needs the agents that load the clusters: --agent HOST:PORT (repeatable) with "
                + "--agent-token-file FILE");
        }
        if (a.has(HarnessFlags.AGENTS)) {
            throw new UsageException("give either --agents N (local agents) or --agent HOST:PORT (with --remote), not both");
        }
        if (a.has(EfficiencyPlan.PIN) && a.get(EfficiencyPlan.PIN) != PinMode.OFF) {
            throw new UsageException("--pin " + a.get(EfficiencyPlan.PIN).label() + " needs the brokers on this machine; with --remote "
                + "every window runs unpinned (leave --pin out, or give --pin off)");
        }
        for (Flag<?> local : List.<Flag<?>>of(HarnessFlags.SET, HarnessFlags.BROKER_HEAP)) {
            if (a.has(local)) {
                throw new UsageException(local.name() + " configures brokers this plan starts; with --remote the brokers are "
                    + "deployed already (set it in the cluster file)");
            }
        }
        if (o.profile) {
            throw new UsageException("--profile attaches async-profiler to brokers on this machine; it does not go with --remote");
        }
        if (o.runs > 1) {
            throw new UsageException("--runs starts fresh brokers for every run; with --remote run the deployment again instead "
                + "(scripts/run-distributed.sh --efficiency)");
        }
        String tokenFile = a.has(HarnessFlags.AGENT_TOKEN_FILE) ? a.get(HarnessFlags.AGENT_TOKEN_FILE).toString()
            : System.getenv(AgentToken.FILE_ENV);
        if (tokenFile == null || tokenFile.isBlank()) {
            throw new UsageException("--agent needs the agents' token: --agent-token-file FILE (or set " + AgentToken.FILE_ENV + ")");
        }
        o.remote = ordered;
        o.remoteAgents = a.all(HarnessFlags.AGENT);
        o.agents = o.remoteAgents.size();
        o.agentTokenFile = Path.of(tokenFile);
        o.jmxPasswordFile = a.get(HarnessFlags.BROKER_JMX_PASSWORD_FILE);
        o.jmxTlsCert = a.get(HarnessFlags.BROKER_JMX_TLS_CERT);
        o.pin = PinMode.OFF;
    }

    private static List<String> names(RunOptions o) {
        List<String> n = new ArrayList<>();
        o.variants.forEach(v -> n.add(v.name()));
        return n;
    }

    /**
     * Finds every variant's masters at its name server and opens the JMX connections; fails naming the broker when one
     * cannot be read, since a run whose CPU figures would be empty measures nothing. Handed to the context to close.
     */
    static RemoteBrokers reach(RunContext ctx, EfficiencyResults results) throws IOException, BrokerAdmin.AdminException {
        RunOptions o = ctx.options();
        PrintStream out = ctx.out();
        RemoteBrokers r = ctx.closeAtEnd(new RemoteBrokers(results.warnings));
        JmxAccess access = JmxAccess.of(o.jmxPasswordFile, o.jmxTlsCert);
        results.remoteBrokers = new ArrayList<>();
        for (Variant v : o.variants) {
            RemoteCluster c = ComparisonMetadata.remote(o, v);
            Map<String, String> byName = new TreeMap<>(ctx.admin().masterBrokers(firstNamesrv(c)));
            if (byName.isEmpty()) {
                throw new IOException("variant " + v.name() + ": no master broker is registered at name server " + c.namesrv());
            }
            List<String> addrs = new ArrayList<>(byName.values());
            if (addrs.size() != c.masterJmx().size()) {
                throw new IOException(String.format(Locale.ROOT, "variant %s: %d master(s) %s at name server %s but %d JMX port(s) %s: the "
                    + "CPU per message would not be those masters'", v.name(), addrs.size(), addrs, c.namesrv(), c.masterJmx().size(),
                    c.masterJmx()));
            }
            r.clusters.add(c);
            r.masters.add(addrs);
            r.masterJmx.add(r.open(v.name() + " master(s)", c.masterJmx(), access, out));
            r.slaveJmx.add(c.slaveJmx().isEmpty() ? null : r.open(v.name() + " slave(s)", c.slaveJmx(), access, out));
            Map<String, Object> d = c.describe();
            d.put("masters", addrs);
            results.remoteBrokers.add(d);
        }
        return r;
    }

    private JmxBrokerProbe open(String what, List<String> targets, JmxAccess access, PrintStream out) throws IOException {
        JmxBrokerProbe p = new JmxBrokerProbe(targets, access, JmxBrokerProbe.DEFAULT_TIMEOUT);
        List<String> reached = p.connect();
        if (reached.size() < targets.size()) {
            List<String> why = p.warnings();
            p.close();
            throw new IOException(what + ": " + String.join("; ", why));
        }
        out.printf("%s: broker JMX %s reached%s%n", what, targets, access.tls() ? " over TLS" : "");
        return p;
    }

    static String firstNamesrv(RemoteCluster c) {
        return c.namesrv().split(";")[0].trim();
    }

    /** Variant {@code i}'s name server(s), as the agents' producers take them. */
    String namesrv(int i) {
        return clusters.get(i).namesrv();
    }

    /** Variant {@code i}'s master broker addresses (the topics go to each). */
    List<String> masters(int i) {
        return masters.get(i);
    }

    /**
     * Variant {@code i}'s window figures: its masters' stored messages and CommitLog offsets through the admin API, their
     * JVMs' CPU and GC over JMX, and its slaves' CPU as the slave role. This machine's CPU says nothing about the brokers'
     * hosts, so there is no "other load" figure.
     */
    BrokerUnderTest.Source source(int i, BrokerAdmin admin) {
        BrokerProbe counters = new BrokerProbe(admin, masters.get(i), null, null, Map.of());
        JmxBrokerProbe jmx = masterJmx.get(i);
        JmxBrokerProbe slaves = slaveJmx.get(i);
        return () -> {
            BrokerSample s = counters.sample();
            s.machine = null;
            jmx.fill(s);
            if (slaves != null) {
                Long cpu = slaves.sample().cpuNanos();
                if (cpu != null) {
                    s.roleCpuNanos.put(EfficiencyPlan.SLAVE_ROLE, cpu);
                }
            }
            return s;
        };
    }

    /** The agents started elsewhere, with their token. */
    static List<AgentClient> agents(RunOptions o) throws IOException {
        AgentToken token = AgentToken.read(o.agentTokenFile);
        List<AgentClient> agents = new ArrayList<>();
        for (int i = 0; i < o.remoteAgents.size(); i++) {
            agents.add(new AgentClient("agent-" + (i + 1) + "@" + o.remoteAgents.get(i), o.remoteAgents.get(i), token, null));
        }
        return agents;
    }

    /** After the load: each slave's CommitLog max offset against its master's, waiting up to 10 s; a warning per one behind. */
    void checkReplication(int i, String variant, BrokerAdmin admin, PrintStream out) throws BrokerAdmin.AdminException {
        Map<String, Map<Long, String>> brokers = admin.brokers(firstNamesrv(clusters.get(i)));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (Map.Entry<String, Map<Long, String>> b : new TreeMap<>(brokers).entrySet()) {
            String master = b.getValue().get(0L);
            for (Map.Entry<Long, String> slave : b.getValue().entrySet()) {
                if (master == null || slave.getKey() == 0L) {
                    continue;
                }
                long m;
                long s;
                while (true) {
                    m = admin.commitLogMaxOffset(master);
                    s = admin.commitLogMaxOffset(slave.getValue());
                    if (m == s || System.nanoTime() > deadline) {
                        break;
                    }
                    sleep();
                }
                out.printf("%s %s: CommitLog max offset master %,d, slave %d %,d%n", variant, b.getKey(), m, slave.getKey(), s);
                if (m != s) {
                    warnings.add(String.format(Locale.ROOT, "%s %s: the slave's CommitLog max offset %,d differs from the master's %,d "
                        + "after the load stopped: replication fell behind or broke", variant, b.getKey(), s, m));
                }
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the slaves", e);
        }
    }

    /** Closes the JMX connections; what they warned of goes into the results. */
    @Override
    public void close() {
        List<JmxBrokerProbe> all = new ArrayList<>(masterJmx);
        all.addAll(slaveJmx);
        for (JmxBrokerProbe p : all) {
            if (p != null) {
                p.warnings().stream().filter(w -> !warnings.contains(w)).forEach(warnings::add);
                p.close();
            }
        }
    }

    @Override
    public String toString() {
        return "the remote brokers' JMX connections";
    }
}
