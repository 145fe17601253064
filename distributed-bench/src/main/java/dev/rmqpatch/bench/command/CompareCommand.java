package dev.rmqpatch.bench.command;

import static dev.rmqpatch.bench.cli.HarnessFlags.AGENTS;
import static dev.rmqpatch.bench.cli.HarnessFlags.BROKER_HEAP;
import static dev.rmqpatch.bench.cli.HarnessFlags.CLIENT;
import static dev.rmqpatch.bench.cli.HarnessFlags.CONSUMERS;
import static dev.rmqpatch.bench.cli.HarnessFlags.DURATION;
import static dev.rmqpatch.bench.cli.HarnessFlags.MODE;
import static dev.rmqpatch.bench.cli.HarnessFlags.OUT;
import static dev.rmqpatch.bench.cli.HarnessFlags.PAYLOAD_DIR;
import static dev.rmqpatch.bench.cli.HarnessFlags.RATE;
import static dev.rmqpatch.bench.cli.HarnessFlags.SET;
import static dev.rmqpatch.bench.cli.HarnessFlags.SIZE;
import static dev.rmqpatch.bench.cli.HarnessFlags.THREADS;
import static dev.rmqpatch.bench.cli.HarnessFlags.WARMUP;
import static dev.rmqpatch.bench.cli.HarnessFlags.WORKLOAD;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.logging.ClientLogging;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.coordinator.Coordinator;
import dev.rmqpatch.bench.engine.Plan;
import dev.rmqpatch.bench.engine.PlanFailedException;
import dev.rmqpatch.bench.engine.Plans;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.cluster.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code compare}: parses the command line into {@link RunOptions}, picks the {@link Plan} and runs it on a {@link RunContext}. */
public final class CompareCommand {
    static final Flag<String> VARIANTS = Flag.text("--variants", "LIST", "variants in round order, comma-separated (see Variants above)")
        .defaultingTo(null, "the plan's, below");
    static final Flag<String> BASELINE = Flag.text("--baseline", "NAME", "variant (with --clients: client) the ratios refer to")
        .defaultingTo(null, "4.9.0-tuned (with --clients: stock) if compared, else the first");
    static final Flag<String> TOPOLOGY = Flag.text("--topology", "T",
        "single: one name server + one master broker, the conf's own role. ms-sync: one name server + a SYNC_MASTER (brokerId 0) "
            + "and its SLAVE (brokerId 1, same brokerName), ASYNC_FLUSH, both on 127.0.0.1 with their own ports, HA ports and stores, "
            + "from the variant's distribution and conf (the 002 article's setup). Load starts once the slave is registered and "
            + "replicating; after the load the master's and the slave's CommitLog max offsets are compared (a warning if they differ)")
        .defaultingTo(Topology.SINGLE.label());
    /** The topologies a comparison runs (two-masters is failover.sh's: {@code bench failover}). */
    static final List<Topology> TOPOLOGIES = List.of(Topology.SINGLE, Topology.MS_SYNC);
    static final Flag<Path> DIST_DIR = Flag.path("--dist-dir", "DIR", "where the distributions are").defaultingTo(null, "broker-patches/target");
    static final Flag<Path> REPO_ROOT = Flag.path("--repo-root", "DIR", "the repository root the defaults are relative to (compare.sh passes it)")
        .defaultingTo(Path.of("."), "the working directory");
    static final Flag<Boolean> PROFILE = Flag.toggle("--profile",
        "attach async-profiler (cpu mode where perf events are allowed, itimer otherwise; the output says which) to every broker "
            + "(with --clients: every client's first agent JVM) and write flame-<variant>.html and a \"where the broker's CPU goes\" "
            + "table (the client's, with --clients; share of samples by area, and the "
            + "baseline's top 15 self-time methods with every variant's share) into table.txt and results.json; when, the plan says");
    static final Flag<StoreStalls.Plan> STALL = Flag.parsed("--stall", "POINT:MILLIS/EVERY_MILLIS", StoreStalls.Plan::parse,
        "a stalling store: the stall agent (" + StoreStalls.JAR + ", a test and harness tool, never in a delivered broker) on "
            + "every variant's master broker JVM (not on slaves) makes its store wait MILLIS at POINT every EVERY_MILLIS: append (the "
            + "CommitLog append, under the put lock), allocate (the next CommitLog file), flush, replica (the transfer to the "
            + "slave; ms-sync) or dispatch (a stored message's consume-queue and index entries), e.g. append:500/2000. Stalls begin after the warm-up (estimated: " + StoreStalls.START_UP_MILLIS / 1000
            + " s start-up per cluster plus the plan's warm-up; efficiency adds its rate check). results.json records per variant "
            + "each stall's start, length and thread and the sends that failed, the output ends with a line per variant; not "
            + "with --remote or --clients");

    private static final String USAGE = String.join("\n",
        "Usage: scripts/compare.sh [options]",
        "       java -jar distributed-bench/target/distributed-bench.jar compare [options]");
    private static final String DESCRIPTION = String.join("\n",
        "The A/B comparison of RocketMQ brokers on this machine: every variant's name server and broker(s) from its distribution,",
        "the same workload from the same load agents, a table with each figure as a ratio to the baseline, results.json and",
        "chart.png. Agents, brokers and name servers each run in their own JVM; Ctrl-C stops them all. How variants are run",
        "and measured is the plan's: saturation (the default) or one chosen by its switch (below).",
        "",
        "Variants (--variants, comma-separated; broker-patches/target/rocketmq-<version>-{stock,patched}):",
        "  4.9.0           stock jars, conf/broker.conf (stock parameters)",
        "  4.9.0-tuned     stock jars, conf/broker-tuned.conf + the tuned send thread pool (sendMessageThreadPoolNums): the article's",
        "                  baseline, the parameters 4.9.1 made default",
        "  4.9.0-patched   patched jars (rmqpatch), the same tuned parameters",
        "  4.9.0-patched-without-P7[+P8...]   the same, with those patches switched off at broker start",
        "                  (-Drmqpatch.disable): what one patch buys is 4.9.0-patched against this",
        "  4.9.0-patched-with-P14   the same with a patch that ships off turned on (-Drmqpatch.enable); -with- goes",
        "                  before -without- (4.9.0-patched-with-P14-without-P19)",
        "  4.9.1           stock 4.9.1 jars, conf/broker.conf (its defaults); compare.sh builds it on demand",
        "  4.9.8           stock 4.9.8, conf/broker.conf (its defaults, which include 4.9.1's send-path ones); broker, namesrv",
        "                  and filter jars built once from the source release (Maven Central lacks them), the rest from Central",
        "  5.3.3           stock 5.3.3 from Maven Central, a classic broker (no proxy, no controller), conf/broker.conf (its",
        "                  defaults); ms-sync is its SYNC_MASTER/SLAVE, the master with inSyncReplicas=2 (5.x's default 1",
        "                  answers before the slave has the message). compare.sh builds both on demand (scripts/build.sh)",
        "  <release>-patched   a later release, patched: its stock distribution (same bin/, conf/, conf/broker.conf: its",
        "                  own defaults, as its stock variant) with lib/ rewritten by scripts/patch-lib.sh (the report in",
        "                  lib/rmqpatch/report.txt); releases: " + String.join(", ", Variant.patchedReleases())
            + " (e.g. " + Variant.patchedReleases().get(Variant.patchedReleases().size() - 1) + "-patched).",
        "                  -without-/-with- as above. compare.sh builds the stock distribution if missing, then this from",
        "                  its lib/ (scripts/build.sh --rocketmq-version V), and again when the stock one changed",
        "  any <version>[-tuned] works the same way, from Maven Central (not -tuned for 4.9.8 or 5.3.3: their defaults);",
        "                  4.9.1, 4.9.3, 4.9.4 and 4.9.7 are packaged by broker-patches' build, any other by compiling this",
        "                  project against it, which 4.9.2 and later do not allow (scripts/build.sh says so)",
        "  <variant>@8     the same, its name server and brokers on JDK 8 (scripts/jdk8.sh fetches one on first use;",
        "                  -Drmqpatch.jdk8.home=DIR points at your own); @17 (the harness's JDK) names it explicitly.",
        "                  Without a suffix the servers run on the JAVA_HOME (else the java on PATH) compare.sh runs with.");

    private CompareCommand() {
    }

    /** The command's flags: the shared ones, then each plan's own section. */
    static FlagSet flags(List<Plan> plans) {
        List<Flag<?>> selectors = new ArrayList<>();
        for (Plan p : plans) {
            if (p.selector() != null) {
                selectors.add(p.selector());
            }
        }
        FlagSet set = new FlagSet(USAGE, DESCRIPTION)
            .section("Plans:", selectors.toArray(new Flag<?>[0]))
            .section("Options (every plan):", VARIANTS, BASELINE, WARMUP.defaultingTo(null, "the plan's, below"), THREADS, AGENTS, SIZE, MODE,
                CLIENT, RATE, WORKLOAD, PAYLOAD_DIR, HarnessFlags.BROKER_HEAP, TOPOLOGY, CONSUMERS, SET, DIST_DIR,
                OUT.defaultingTo(null, "target/compare-<yyyyMMdd-HHmmss> in the repository root"), PROFILE, STALL, REPO_ROOT);
        for (Plan p : plans) {
            List<Flag<?>> own = new ArrayList<>(p.flags());
            own.removeIf(f -> set.all().contains(f));
            set.section(p.helpTitle(), p.helpText(), own.toArray(new Flag<?>[0]));
        }
        set.epilogue("compare.sh also takes --no-build: fail instead of building missing jars or distributions. -h, --help: this text.");
        return set;
    }

    public static String helpText() {
        return flags(Plans.all()).help();
    }

    /** The baseline when --baseline is not given: 4.9.0-tuned if compared, else the first variant. */
    static String defaultBaseline(List<String> names) {
        return names.contains("4.9.0-tuned") ? "4.9.0-tuned" : names.get(0);
    }

    public static RunOptions parse(String[] args) throws UsageException, IOException {
        List<Plan> plans = Plans.all();
        FlagSet set = flags(plans);
        Args a = set.parse(args);
        RunOptions o = new RunOptions();
        o.plan = plans.get(0);
        for (Plan p : plans) {
            if (p.selector() != null && a.has(p.selector())) {
                if (o.plan.selector() != null) {
                    throw new UsageException("give one of " + set.flagsOf("Plans:") + ", not both");
                }
                o.plan = p;
            }
        }
        for (Plan p : plans) {
            if (p == o.plan) {
                continue;
            }
            for (Flag<?> f : p.flags()) {
                if (a.has(f) && !o.plan.flags().contains(f)) {
                    throw new UsageException(o.plan.selector() == null ? f.name() + " applies to " + p.selector().name() + " only"
                        : f.name() + " does not apply to " + o.plan.selector().name() + ", which " + o.plan.helpText().split("\n")[0]);
                }
            }
        }
        o.profile = a.get(PROFILE);
        // compare.sh passes the repository root, so defaults do not depend on the caller's directory.
        Path root = a.get(REPO_ROOT).toAbsolutePath().normalize();
        Set<String> names = new LinkedHashSet<>();
        String given = a.has(VARIANTS) ? a.get(VARIANTS) : String.join(",", o.plan.defaultVariants());
        o.variants = parseVariants(given, names);
        o.agents = a.get(AGENTS);
        o.brokerHeap = a.get(BROKER_HEAP);
        o.brokerSettings.putAll(HarnessFlags.settings(a));
        try {
            o.topology = Topology.parse(a.get(TOPOLOGY));
        } catch (IllegalArgumentException e) {
            o.topology = null;
        }
        if (o.topology == null || !TOPOLOGIES.contains(o.topology)) {
            throw new UsageException("--topology must be one of " + String.join(", ", TOPOLOGIES.stream().map(Topology::label).toList())
                + ", not '" + a.get(TOPOLOGY) + "'");
        }
        Workload base = Workload.defaults().withWarmupDurationSeconds(o.plan.defaultWarmupSeconds())
            .withTestDurationSeconds(RunOptions.DEFAULT_DURATION_SECONDS);
        o.workload = HarnessFlags.workload(a, base);
        try {
            Coordinator.checkConsumersPerAgent(o.workload, o.agents);
        } catch (Coordinator.Abort e) {
            throw new UsageException(e.getMessage());
        }
        // bench run's lookup and check: next to the workload file, then under --payload-dir; a missing file fails now.
        o.payloadDir = HarnessFlags.payloadDir(a, o.workload);
        o.repoRoot = root;
        o.plan.configure(a, o);
        // After the plan: with --clients (efficiency) the clients are what is compared, not the one broker variant.
        List<String> compared = o.compared();
        o.baseline = a.has(BASELINE) ? a.get(BASELINE)
            : o.clients != null && compared.contains("stock") ? "stock" : defaultBaseline(compared);
        if (!compared.contains(o.baseline)) {
            throw new UsageException("--baseline " + o.baseline + " is not one of the " + (o.clients != null ? "clients " : "variants ") + compared);
        }
        if (a.has(STALL)) {
            // Brokers started elsewhere (--remote) are not this run's to instrument; with --clients one broker serves all
            // the compared clients, so no client's figures would be its own.
            if (o.remote != null || o.clients != null) {
                throw new UsageException("--stall puts the stall agent on the brokers this run starts and compares; not with "
                    + (o.remote != null ? "--remote" : "--clients"));
            }
            o.stall = a.get(STALL);
            try {
                o.stallAgentJar = StoreStalls.agentJar(root);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        o.distDir = (a.has(DIST_DIR) ? a.get(DIST_DIR) : root.resolve("broker-patches/target")).toAbsolutePath().normalize();
        o.outDir = outDir(a.has(OUT) ? a.get(OUT) : null, root, "compare");
        o.commandLine = recordedCommandLine("compare", args);
        return o;
    }

    /**
     * The variants of a comma-separated --variants value, in order; each name also added to {@code names}. A name given
     * twice, none at all, or one {@link Variant#parse} refuses is a usage error naming it.
     */
    static List<Variant> parseVariants(String given, Set<String> names) throws UsageException {
        for (String n : given.split(",")) {
            if (!n.isBlank() && !names.add(n.trim())) {
                throw new UsageException("variant " + n.trim() + " given twice");
            }
        }
        if (names.isEmpty()) {
            throw new UsageException("--variants needs at least one variant");
        }
        List<Variant> variants = new ArrayList<>();
        for (String n : names) {
            try {
                variants.add(Variant.parse(n));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        return variants;
    }

    /** {@code out}, else {@code target/<command>-<yyyyMMdd-HHmmss>} under the repository root; absolute. */
    static Path outDir(Path out, Path root, String command) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        return (out != null ? out : root.resolve("target/" + command + "-" + stamp)).toAbsolutePath().normalize();
    }

    /**
     * The command line results.json records: the arguments as given, without the launcher's {@code --repo-root} (a path
     * of this machine, which the script adds).
     */
    static String recordedCommandLine(String command, String[] args) {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(REPO_ROOT.name())) {
                i++;
            } else if (!args[i].startsWith(REPO_ROOT.name() + "=")) {
                shown.add(args[i]);
            }
        }
        return Metadata.commandLine(command, shown.toArray(new String[0]));
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        RunOptions o = parse(args);
        Files.createDirectories(o.outDir);
        ClientLogging.configure(o.outDir.resolve("logs"));
        out.println(o.plan.describe(o));
        o.workload.notes().forEach(n -> out.println("note: " + n));
        try {
            new RunContext(o, out).run(o.plan);
            return 0;
        } catch (PlanFailedException e) {
            System.err.println("compare failed: " + e.getMessage());
            return 1;
        }
    }
}
