package dev.rmqpatch.bench.engine;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.pinning.PinMode;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.Topology;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a comparison runs and how: filled by the compare command from its flags, read by the {@link Plan} that runs it. */
public final class RunOptions {
    /** Measured seconds of a workload without a file or --duration (saturation's rounds; recorded by every plan). */
    public static final int DEFAULT_DURATION_SECONDS = 10;

    public List<Variant> variants;
    public String baseline;
    public Workload workload;
    /** --payload-dir: where the workload's relative payloadFile is looked for after its own folder; null = nowhere else. */
    public Path payloadDir;
    public int agents = 1;
    public String brokerHeap = "2g";
    public Topology topology = Topology.SINGLE;
    public Map<String, String> brokerSettings = new LinkedHashMap<>();
    public Path distDir;
    public Path outDir;
    /** The repository root (--repo-root): where the Java agent jar a client variant may need is built. */
    public Path repoRoot;
    public String commandLine;
    /** --profile: async-profiler on the brokers (saturation: in the measured windows; efficiency: in extra windows). */
    public boolean profile;
    /** --stall: the stall agent on every variant's master broker; null = no stalls. */
    public StoreStalls.Plan stall;
    /** --stall: the agent jar, checked to exist. */
    public Path stallAgentJar;
    /** The plan that runs the comparison (its selecting flag, e.g. --efficiency, or the default plan). */
    public Plan plan;

    // Saturation plan.
    public int rounds = 3;
    public boolean sink = true;
    public Double ceiling;

    // Efficiency plan.
    /**
     * --clients (efficiency): the clients compared against one broker cluster (the one variant), each on agent JVMs of its
     * own; null = the variants (brokers) are compared.
     */
    public List<ClientVariant> clients;
    /** --client-side, with --clients. */
    public ClientVariant.Side clientSide = ClientVariant.Side.PRODUCER;
    /** --efficiency: paired fixed-rate windows on warm brokers. */
    public boolean efficiency;
    /** --efficiency: total msg/s of the measured windows; null = found by the rate probe. */
    public Double rate;
    /** --rates: the curve's rates in percent of the slowest variant's saturation (when --rate is not given). */
    public List<Double> ratePercents;
    public int windowSeconds;
    public int pairs;
    public PinMode pin = PinMode.BOTH;
    /** --freeze-idle: every variant's brokers stopped (SIGSTOP) outside its own measured windows. */
    public boolean freezeIdle;
    /** --runs: whole efficiency runs, each with fresh brokers and agents; 1 = one run. */
    public int runs = 1;
    /**
     * --remote: every variant's cluster runs elsewhere, started by someone else (scripts/run-distributed.sh --efficiency);
     * null = the plan starts local clusters. With it the agents are {@link #remoteAgents} and broker CPU comes over JMX.
     */
    public List<RemoteCluster> remote;
    /** --agent: agents started elsewhere (HOST:PORT), with --remote. */
    public List<String> remoteAgents;
    /** --agent-token-file (or the file $RMQPATCH_AGENT_TOKEN_FILE names), with --agent. */
    public Path agentTokenFile;
    /** --broker-jmx-password-file and --broker-jmx-tls-cert, with --remote; null = none. */
    public Path jmxPasswordFile;
    public Path jmxTlsCert;

    /** The names of what is compared: the clients with --clients, else the variants. */
    public List<String> compared() {
        List<String> names = new ArrayList<>();
        if (clients != null) {
            clients.forEach(c -> names.add(c.name()));
        } else {
            variants.forEach(v -> names.add(v.name()));
        }
        return names;
    }

    /** A copy of every field (lists and maps copied, the rest shared), for one run of several. */
    public RunOptions copy() {
        RunOptions c = new RunOptions();
        for (Field f : RunOptions.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            try {
                Object v = f.get(this);
                if (v instanceof List) {
                    v = new ArrayList<>((List<?>) v);
                } else if (v instanceof Map) {
                    v = new LinkedHashMap<>((Map<?, ?>) v);
                }
                f.set(c, v);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return c;
    }
}
