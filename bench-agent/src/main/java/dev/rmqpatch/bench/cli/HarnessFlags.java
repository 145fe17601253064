package dev.rmqpatch.bench.cli;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags that more than one command takes ({@code run}, {@code compare} and its plans, {@code workload}), each
 * declared here once; a command that needs another default uses {@link Flag#defaultingTo}.
 */
public final class HarnessFlags {
    private HarnessFlags() {
    }

    public static final Flag<Path> WORKLOAD = Flag.path("--workload", "FILE",
        "OpenMessaging Benchmark workload file (YAML or JSON), taken as OMB's own files are (its producerRate: 0 means OMB's search "
            + "for the maximum sustainable rate); the workload flags below override it. Its keys and bodies are sent as OMB sends them");
    public static final Flag<Path> PAYLOAD_DIR = Flag.path("--payload-dir", "DIR",
        "where the workload's relative payloadFile is looked for after the workload file's folder (OMB's own files name "
            + "payload/payload-1Kb.data and so on: give the folder that holds payload/); a file found nowhere is an error at once, "
            + "naming every path tried");
    public static final Flag<Integer> THREADS = Flag.whole("--threads", "N", 1,
        "sending threads per agent; with --client wire the closed-loop synchronous senders").defaultingTo(Workload.defaults().threadsPerAgent());
    public static final Flag<Integer> SIZE = Flag.whole("--size", "BYTES", 1, "message body size")
        .defaultingTo(Workload.defaults().messageSize());
    public static final Flag<SendMode> MODE = Flag.parsed("--mode", "sync|async|oneway", SendMode::parse, "how each agent thread sends").defaultingTo(SendMode.SYNC, "sync");
    public static final Flag<ClientMode> CLIENT = Flag.parsed("--client", "rocketmq|wire", ClientMode::parse, "how the agents send. rocketmq: one stock DefaultMQProducer per topic, the reference. wire: the agents write "
        + "SEND_MESSAGE_V2 frames themselves over netty, each producer's frame encoded once by the stock client code and only "
        + "opaque, born timestamp, unique key and queue id written per message (byte for byte what the stock client sends); a "
        + "fraction of the agent CPU per message, so on one machine the broker, not the load generator, is what is measured. "
        + "Async keeps --max-outstanding requests in flight per agent").defaultingTo(ClientMode.ROCKETMQ, "rocketmq");
    public static final Flag<Double> RATE = Flag.number("--rate", "MSG_PER_S", 0,
        "total rate over all agents, 0 = unlimited; records send delay; overrides the workload's producerRate (so 0 is unlimited, "
            + "never a rate search)");
    public static final Flag<Integer> WARMUP = Flag.whole("--warmup", "S", 0,
        "warm-up seconds; statistics are reset after it (OMB files: 60 unless they say)");
    public static final Flag<Integer> DURATION = Flag.whole("--duration", "S", 1,
        "measured seconds; overrides testDurationMinutes, for short runs");
    public static final Flag<Integer> CONSUMERS = Flag.whole("--consumers", "N", 0,
        "produce and consume at once: one subscription (its own consumer group) per topic with N stock 4.9.0 push consumers "
            + "(clustering), dealt round robin over the agents. Adds consume msg/s, end-to-end p50/p99/p99.9 (consume time minus the "
            + "send time stamped in the body) and the count check (every acknowledged send consumed at least once per "
            + "subscription, after the consumers drained; missing and duplicate deliveries). 0 = produce only. The workload "
            + "file's subscriptionsPerTopic, consumerPerSubscription and consumerBacklogSizeGB do the same; --consumers replaces "
            + "the first two").defaultingTo(0);
    public static final Flag<String> SET = Flag.of("--set", "KEY=VALUE", (name, raw) -> {
        if (raw.indexOf('=') <= 0) {
            throw new UsageException(name + " needs KEY=VALUE, not '" + raw + "'");
        }
        return raw;
    }, "append a broker setting (repeatable)").repeatable();
    public static final Flag<String> BROKER_HEAP = Flag.of("--broker-heap", "SIZE", (name, raw) -> {
        if (!raw.matches("\\d+[kKmMgG]?")) {
            throw new UsageException(name + " needs a JVM size such as 2g or 1536m, not " + raw);
        }
        return raw;
    }, "broker heap (master and slave alike)").defaultingTo("2g");
    public static final Flag<Integer> AGENTS = Flag.whole("--agents", "N", 1, "local agent JVMs").defaultingTo(1);
    public static final Flag<Double> CEILING = Flag.of("--ceiling", "TPS|FILE", (name, raw) -> {
        try {
            return ceiling(raw);
        } catch (IOException e) {
            throw new UsageException(name + ": cannot read " + raw + ": " + e.getMessage());
        }
    }, "a known harness ceiling (msg/s, or the results.json of a --sink run) instead of measuring it; warns when a run reaches "
        + "more than half of it");
    public static final Flag<Path> OUT = Flag.path("--out", "DIR", "output folder");
    /** Agents started elsewhere (bench run; compare --efficiency --remote), and their token. */
    public static final Flag<String> AGENT = Flag.text("--agent", "HOST:PORT", "use a running agent instead of local ones (repeatable; see: "
        + "bench agent --help)").repeatable();
    public static final Flag<Path> AGENT_TOKEN_FILE = Flag.path("--agent-token-file", "FILE", "owner-only file with the running agents' token; "
        + "needed with --agent").defaultingTo(null, "the file named by $" + AgentToken.FILE_ENV);
    /** How to log in to brokers' JMX ports on other hosts (bench run --broker-jmx; compare --efficiency --remote). */
    public static final Flag<Path> BROKER_JMX_PASSWORD_FILE = Flag.path("--broker-jmx-password-file", "FILE",
        "owner-only file 'USER PASSWORD' to log in to those JMX ports (deploy writes it)");
    public static final Flag<Path> BROKER_JMX_TLS_CERT = Flag.path("--broker-jmx-tls-cert", "FILE",
        "the brokers' JMX certificate (PEM), when their JMX port speaks TLS");

    /** The KEY=VALUE pairs of every --set, in order. */
    public static Map<String, String> settings(Args a) {
        Map<String, String> all = new LinkedHashMap<>();
        for (String kv : a.all(SET)) {
            int eq = kv.indexOf('=');
            all.put(Jdk8.strip(kv.substring(0, eq)), Jdk8.strip(kv.substring(eq + 1)));
        }
        return all;
    }

    /** The workload file (or {@code base}) with the overrides run and compare share: threads, size, mode, client, warm-up, duration, consumers. */
    public static Workload workload(Args a, Workload base) throws UsageException, IOException {
        try {
            Workload w = a.has(WORKLOAD) ? dev.rmqpatch.bench.workload.WorkloadParser.parse(a.get(WORKLOAD)) : base;
            if (a.has(THREADS)) {
                w = w.withThreadsPerAgent(a.get(THREADS));
            }
            if (a.has(SIZE)) {
                w = w.withMessageSize(a.get(SIZE));
            }
            if (a.has(MODE)) {
                w = w.withSendMode(a.get(MODE));
            }
            if (a.has(CLIENT)) {
                w = w.withClient(a.get(CLIENT));
            }
            if (a.has(WARMUP)) {
                w = w.withWarmupDurationSeconds(a.get(WARMUP));
            }
            if (a.has(DURATION)) {
                w = w.withTestDurationSeconds(a.get(DURATION));
            }
            return withConsumers(a, w);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * {@code --consumers N}: one subscription (consumer group) per topic with N push consumers, dealt over the agents;
     * 0 = produce only. Replaces the workload file's subscriptionsPerTopic and consumerPerSubscription (its backlog stays
     * when N > 0).
     */
    public static Workload withConsumers(Args a, Workload w) {
        if (!a.has(CONSUMERS)) {
            return w;
        }
        int n = a.get(CONSUMERS);
        return n == 0 ? w.produceOnly() : w.withConsumers(1, n, w.consumerBacklogSizeGB());
    }

    /**
     * --payload-dir, checked with the workload's payload file now, before any cluster starts (a missing file names the
     * paths tried). bench run, compare and bench workload all check it here.
     */
    public static Path payloadDir(Args a, Workload w) throws UsageException, IOException {
        Path dir = a.has(PAYLOAD_DIR) ? a.get(PAYLOAD_DIR).toAbsolutePath() : null;
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

    /** A number, or the tps of a --sink run's results.json. */
    public static Double ceiling(String value) throws UsageException, IOException {
        if (value == null) {
            return null;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException notANumber) {
            Path file = Paths.get(value);
            if (!Files.isRegularFile(file)) {
                throw new UsageException("--ceiling needs msg/s or a results.json file; no file " + value);
            }
            JsonObject root = JsonParser.parseString(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)).getAsJsonObject();
            JsonObject result = root.has("result") ? root.getAsJsonObject("result") : root;
            if (!result.has("tps") || result.get("tps").isJsonNull()) {
                throw new UsageException(value + " has no tps; is it the results.json of a bench run --sink?");
            }
            return result.get("tps").getAsDouble();
        }
    }

    /** For tests and help: every flag declared here. */
    public static List<Flag<?>> all() {
        return Jdk8.listOf(WORKLOAD, PAYLOAD_DIR, THREADS, SIZE, MODE, CLIENT, RATE, WARMUP, DURATION, CONSUMERS, SET, BROKER_HEAP, AGENTS,
            CEILING, OUT);
    }
}
