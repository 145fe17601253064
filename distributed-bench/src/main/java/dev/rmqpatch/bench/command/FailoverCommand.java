package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.compare.SaturationPlan;
import dev.rmqpatch.bench.failover.FailoverOptions;
import dev.rmqpatch.bench.failover.FailoverRun;
import dev.rmqpatch.bench.failover.LatencyFault;
import dev.rmqpatch.bench.logging.ClientLogging;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;

/** {@code failover} (scripts/failover.sh): parses the command line into {@link FailoverOptions} and runs {@link FailoverRun}. */
public final class FailoverCommand {
    static final String DEFAULT_VARIANTS = "4.9.0-tuned@8,4.9.0-patched@8";
    static final String DEFAULT_STALL = "append:500/2000";

    static final Flag<String> LATENCY_FAULT = Flag.oneOf("--latency-fault",
        "the producers' setSendLatencyFaultEnable: on (they avoid a broker that answered slowly or failed, for a while), off "
            + "(stock's default: queues in turn, another broker only on a retry), or both (every round runs on, then off)",
        "on", "off", "both").defaultingTo("both");
    static final Flag<Integer> PRODUCERS = Flag.whole("--producers", "N", 1,
        "stock 4.9.0 DefaultMQProducers, each its own client instance (its own connections) and one thread of sync sends")
        .defaultingTo(4);
    static final Flag<Integer> STALL_TIMES = Flag.whole("--stall-times", "N", 1,
        "at most N stalls per run (the agent's times=N); 1 with a long MILLIS is a single long stall, e.g. --stall "
            + "append:8000/60000 --stall-times 1").defaultingTo(null, "no bound: one every EVERY_MILLIS");
    static final Flag<Integer> RETRIES = Flag.whole("--retries", "N", 0,
        "the producers' retryTimesWhenSendFailed (stock 4.9.0's default; a retry goes to another broker)").defaultingTo(2);

    // Shared declarations (compare's, the harness's) in this command's words and defaults.
    static final Flag<String> VARIANTS = CompareCommand.VARIANTS.describedAs("variants in round order, comma-separated")
        .defaultingTo(DEFAULT_VARIANTS);
    static final Flag<StoreStalls.Plan> STALL = CompareCommand.STALL.describedAs("broker-a's stalls: the stall agent ("
            + StoreStalls.JAR + ", a test and harness tool, never in a delivered broker) on broker-a's JVM only makes its store "
            + "wait MILLIS at POINT every EVERY_MILLIS: append, allocate, flush, replica or dispatch (as compare.sh's --stall). "
            + "Stalls begin after the warm-up (estimated: " + StoreStalls.START_UP_MILLIS / 1000 + " s start-up per broker plus --warmup)")
        .defaultingTo(StoreStalls.Plan.parse(DEFAULT_STALL), DEFAULT_STALL);
    static final Flag<Double> RATE = HarnessFlags.RATE.describedAs("total sends per second over all producers (each producer's "
        + "thread sends at its own fixed times; one that returned late sends at once until back on time, and leaves out what is "
        + "over a second behind)").defaultingTo(1000.0, "1000");
    static final Flag<Integer> SIZE = HarnessFlags.SIZE.defaultingTo(300);
    static final Flag<Integer> WARMUP = HarnessFlags.WARMUP.describedAs("warm-up seconds (sent, not counted)").defaultingTo(15);
    static final Flag<Integer> DURATION = HarnessFlags.DURATION.describedAs("measured seconds").defaultingTo(60);
    static final Flag<String> BROKER_HEAP = HarnessFlags.BROKER_HEAP.describedAs("heap of each broker").defaultingTo("1g");
    static final Flag<Path> OUT = HarnessFlags.OUT.defaultingTo(null, "target/failover-<yyyyMMdd-HHmmss> in the repository root");
    static final Flag<Path> REPO_ROOT = CompareCommand.REPO_ROOT.describedAs("the repository root the defaults are relative to "
        + "(failover.sh passes it)");

    private static final String USAGE = String.join("\n",
        "Usage: scripts/failover.sh [options]",
        "       java -jar distributed-bench/target/distributed-bench.jar failover [options]");
    private static final String DESCRIPTION = String.join("\n",
        "How fast stock 4.9.0 producers move to another broker when one stalls (issue 43): per variant, in interleaved rounds",
        "(A B, B A, ...), a fresh name server and two masters (broker-a and broker-b: ASYNC_MASTER, ASYNC_FLUSH, the variant's",
        "conf, each its own ports and store) from the variant's distribution, the stall agent on broker-a only, one topic on both;",
        "stock DefaultMQProducers send 'sync' at a fixed total rate for the warm-up and the measured window. Every send is",
        "recorded (start, the broker of each attempt, latency, outcome), broker-a's stalls are read from its output, and every",
        "acknowledged message is read back from both brokers. Per variant and latency-fault setting: send p50/p99/p99.9/max,",
        "failures by kind, sends routed to broker-a during its stalls and outside them, the time to move per stall (from the",
        "stall's start to the first send routed elsewhere after the last one routed to broker-a during it) with its median and",
        "max, the latency of sends to broker-b during broker-a's stalls, and the acknowledged messages not read back. Output:",
        "the tables, results.json (every figure, per run and pooled over the rounds), chart.png and per run sends.csv.",
        "",
        "Variants are named as compare.sh names them (compare.sh --help): 4.9.0-tuned, 4.9.0-patched, ...; @8 runs the servers",
        "on JDK 8 (scripts/jdk8.sh).");

    private FailoverCommand() {
    }

    static FlagSet flags() {
        return new FlagSet(USAGE, DESCRIPTION)
            .section("Options:", VARIANTS, SaturationPlan.ROUNDS, STALL, STALL_TIMES, LATENCY_FAULT, PRODUCERS, RATE, SIZE, WARMUP, DURATION,
                RunCommand.SEND_TIMEOUT, RETRIES, BROKER_HEAP, CompareCommand.DIST_DIR, OUT, REPO_ROOT)
            .epilogue("failover.sh also takes --no-build: fail instead of building a missing jar. -h, --help: this text.");
    }

    public static String helpText() {
        return flags().help();
    }

    public static FailoverOptions parse(String[] args) throws UsageException {
        Args a = flags().parse(args);
        FailoverOptions o = new FailoverOptions();
        Path root = a.get(REPO_ROOT).toAbsolutePath().normalize();
        o.variants = CompareCommand.parseVariants(a.get(VARIANTS), new LinkedHashSet<>());
        o.rounds = a.get(SaturationPlan.ROUNDS);
        o.stall = a.get(STALL);
        o.stallTimes = a.has(STALL_TIMES) ? a.get(STALL_TIMES) : Long.MAX_VALUE;
        o.faults = LatencyFault.parse(a.get(LATENCY_FAULT));
        o.producers = a.get(PRODUCERS);
        o.rate = a.get(RATE);
        if (o.rate <= 0) {
            throw new UsageException("--rate must be above 0 (a fixed rate), not " + o.rate);
        }
        o.size = a.get(SIZE);
        o.warmupSeconds = a.get(WARMUP);
        o.durationSeconds = a.get(DURATION);
        o.sendTimeoutMillis = a.get(RunCommand.SEND_TIMEOUT);
        o.retries = a.get(RETRIES);
        o.brokerHeap = a.get(BROKER_HEAP);
        try {
            o.stallAgentJar = StoreStalls.agentJar(root);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage().replace("--stall needs", "failover needs").replace("compare.sh", "failover.sh"));
        }
        o.distDir = (a.has(CompareCommand.DIST_DIR) ? a.get(CompareCommand.DIST_DIR) : root.resolve("broker-patches/target"))
            .toAbsolutePath().normalize();
        o.outDir = CompareCommand.outDir(a.has(OUT) ? a.get(OUT) : null, root, "failover");
        o.commandLine = CompareCommand.recordedCommandLine("failover", args);
        return o;
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        FailoverOptions o = parse(args);
        Files.createDirectories(o.outDir);
        ClientLogging.configure(o.outDir.resolve("logs"));
        return new FailoverRun(o, out).run();
    }
}
