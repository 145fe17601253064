package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.ClientLogging;
import dev.rmqpatch.cluster.Topology;
import dev.rmqpatch.bench.cli.Flags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.efficiency.EfficiencyRunner;
import dev.rmqpatch.bench.efficiency.PinMode;
import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.bench.workload.WorkloadParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code compare}: parses the command line into {@link CompareRunner.Options}. */
public final class CompareCommand {
    public static final List<String> DEFAULT_VARIANTS = List.of("4.9.0", "4.9.0-tuned", "4.9.0-patched");
    /** --efficiency answers the article's question, tuned against patched; two variants keep a run under 10 minutes. */
    public static final List<String> DEFAULT_EFFICIENCY_VARIANTS = List.of("4.9.0-tuned", "4.9.0-patched");
    static final int DEFAULT_WARMUP = 12;
    static final int DEFAULT_DURATION = 10;

    private static final Set<String> VALUED = Set.of("--variants", "--baseline", "--rounds", "--warmup", "--duration", "--threads",
        "--agents", "--size", "--mode", "--rate", "--workload", "--payload-dir", "--broker-heap", "--set", "--ceiling", "--dist-dir", "--out", "--repo-root", "--topology",
        "--window", "--pairs", "--pin", "--client", "--consumers");
    private static final Set<String> BOOLEANS = Set.of("--no-sink", "--efficiency", "--profile");
    /** Saturation-mode options that mean nothing in efficiency mode, and the other way round. */
    private static final List<String> SATURATION_ONLY = List.of("--rounds", "--duration", "--no-sink", "--ceiling");
    private static final List<String> EFFICIENCY_ONLY = List.of("--window", "--pairs", "--pin");

    private CompareCommand() {
    }

    public static String helpText() {
        try (InputStream in = CompareCommand.class.getResourceAsStream("help.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).stripTrailing();
        } catch (IOException | NullPointerException e) {
            return "compare: help text missing from the jar";
        }
    }

    public static CompareRunner.Options parse(String[] args) throws UsageException, IOException {
        Flags f = Flags.parse(args, VALUED, BOOLEANS);
        CompareRunner.Options o = new CompareRunner.Options();
        o.efficiency = f.has("--efficiency");
        o.profile = f.has("--profile");
        for (String flag : o.efficiency ? SATURATION_ONLY : EFFICIENCY_ONLY) {
            if (f.has(flag)) {
                throw new UsageException(o.efficiency
                    ? flag + " does not apply to --efficiency, which measures --pairs pairs of --window-second windows on warm brokers"
                    : flag + " applies to --efficiency only");
            }
        }
        // compare.sh passes the repository root, so defaults do not depend on the caller's directory.
        Path root = Path.of(f.get("--repo-root", ".")).toAbsolutePath().normalize();
        Set<String> names = new LinkedHashSet<>();
        List<String> defaults = o.efficiency ? DEFAULT_EFFICIENCY_VARIANTS : DEFAULT_VARIANTS;
        for (String n : f.get("--variants", String.join(",", defaults)).split(",")) {
            if (!n.isBlank() && !names.add(n.trim())) {
                throw new UsageException("variant " + n.trim() + " given twice");
            }
        }
        if (names.isEmpty()) {
            throw new UsageException("--variants needs at least one variant");
        }
        o.variants = new ArrayList<>();
        for (String n : names) {
            try {
                o.variants.add(Variant.parse(n));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        o.baseline = f.get("--baseline", names.contains("4.9.0-tuned") ? "4.9.0-tuned" : o.variants.get(0).name());
        if (!names.contains(o.baseline)) {
            throw new UsageException("--baseline " + o.baseline + " is not one of the variants " + names);
        }
        o.rounds = f.intValue("--rounds", 3, 1);
        o.agents = f.intValue("--agents", 1, 1);
        o.brokerHeap = f.get("--broker-heap", "2g");
        if (!o.brokerHeap.matches("\\d+[kKmMgG]?")) {
            throw new UsageException("--broker-heap needs a JVM size such as 2g or 1536m, not " + o.brokerHeap);
        }
        for (String kv : f.all("--set")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--set needs KEY=VALUE, not '" + kv + "'");
            }
            o.brokerSettings.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        try {
            o.topology = Topology.parse(f.get("--topology", Topology.SINGLE.label()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--topology must be one of " + String.join(", ", Topology.labels()) + ", not '"
                + f.get("--topology", null) + "'");
        }
        o.workload = workload(f, o.efficiency);
        try {
            dev.rmqpatch.bench.coordinator.Coordinator.checkConsumersPerAgent(o.workload, o.agents);
        } catch (dev.rmqpatch.bench.coordinator.Coordinator.Abort e) {
            throw new UsageException(e.getMessage());
        }
        // bench run's lookup and check: next to the workload file, then under --payload-dir; a missing file fails now.
        o.payloadDir = dev.rmqpatch.bench.coordinator.RunCommand.payloadDir(f, o.workload);
        if (o.efficiency) {
            efficiency(f, o, names);
        }
        o.sink = !f.has("--no-sink");
        if (f.has("--ceiling")) {
            o.ceiling = dev.rmqpatch.bench.coordinator.RunCommand.ceiling(f.get("--ceiling", null));
        }
        o.distDir = Path.of(f.get("--dist-dir", root.resolve("broker-patches/target").toString())).toAbsolutePath().normalize();
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        o.outDir = Path.of(f.get("--out", root.resolve("target/compare-" + stamp).toString())).toAbsolutePath().normalize();
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--repo-root")) {
                i++;
            } else if (!args[i].startsWith("--repo-root=")) {
                shown.add(args[i]);
            }
        }
        o.commandLine = Metadata.commandLine("compare", shown.toArray(new String[0]));
        return o;
    }

    private static void efficiency(Flags f, CompareRunner.Options o, Set<String> names) throws UsageException {
        if (names.size() < 2) {
            throw new UsageException("--efficiency compares variants with a baseline: give at least two in --variants, not " + names);
        }
        if (f.has("--rate")) {
            double rate = f.doubleValue("--rate", 0, 0);
            if (!(rate > 0)) {
                throw new UsageException("--rate must be a positive number of msg/s with --efficiency (leave it out to let the rate probe "
                    + "find one), not " + f.get("--rate", null));
            }
            o.rate = rate;
        } else if (o.workload.producerRate() > 0) {
            o.rate = o.workload.producerRate();
        }
        o.windowSeconds = f.intValue("--window", EfficiencyRunner.DEFAULT_WINDOW_SECONDS, 1);
        o.pairs = f.intValue("--pairs", EfficiencyRunner.DEFAULT_PAIRS, 1);
        try {
            o.pin = PinMode.parse(f.get("--pin", PinMode.AUTO.label()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        // The agents get the rate with every switch; the workload itself stays unlimited.
        o.workload = o.workload.withProducerRate(0);
    }

    private static Workload workload(Flags f, boolean efficiency) throws UsageException, IOException {
        try {
            Workload w = f.has("--workload") ? WorkloadParser.parse(Path.of(f.get("--workload", null)))
                : Workload.defaults().withWarmupDurationSeconds(efficiency ? EfficiencyRunner.DEFAULT_WARMUP_SECONDS : DEFAULT_WARMUP)
                    .withTestDurationSeconds(DEFAULT_DURATION);
            if (f.has("--threads")) {
                w = w.withThreadsPerAgent(f.intValue("--threads", 0, 1));
            }
            if (f.has("--size")) {
                w = w.withMessageSize(f.intValue("--size", 0, 1));
            }
            if (f.has("--mode")) {
                w = w.withSendMode(SendMode.parse(f.get("--mode", null)));
            }
            if (f.has("--client")) {
                w = w.withClient(ClientMode.parse(f.get("--client", null)));
            }
            if (f.has("--rate") && !efficiency) {
                w = w.withProducerRate(f.doubleValue("--rate", 0, 0));
            }
            if (f.has("--warmup")) {
                w = w.withWarmupDurationSeconds(f.intValue("--warmup", 0, 0));
            }
            if (f.has("--duration")) {
                w = w.withTestDurationSeconds(f.intValue("--duration", 0, 1));
            }
            w = dev.rmqpatch.bench.coordinator.RunCommand.withConsumersFlag(f, w);
            if (efficiency && w.hasConsumers()) {
                // Its windows switch the producers between warm clusters; consumers would keep pulling from the cluster the
                // load just left, so a window's broker CPU would no longer be that window's work alone.
                throw new UsageException("--efficiency does not run consumers yet (--consumers or the workload's subscriptionsPerTopic): "
                    + "measure produce+consume in the saturation mode (leave out --efficiency)");
            }
            return w;
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        CompareRunner.Options o = parse(args);
        Files.createDirectories(o.outDir);
        ClientLogging.configure(o.outDir.resolve("logs"));
        try {
            if (o.efficiency) {
                Workload w = o.workload;
                out.printf("comparing %s in efficiency mode: %d pair(s) of %d s windows, rate %s, --pin %s%s, baseline %s, topology %s; "
                        + "%d topic(s) x %d queues, %d B, %d agent(s) x %d %s threads, client %s, warm-up %d s per variant; output %s%n",
                    o.variants, o.pairs, o.windowSeconds, o.rate == null ? "from the probe" : String.format("%,.0f msg/s", o.rate), o.pin.label(),
                    o.profile ? ", profiled" : "", o.baseline, o.topology, w.topics(), w.partitionsPerTopic(), w.messageSize(), o.agents,
                    w.threadsPerAgent(), w.sendMode().label(), w.client().label(), w.warmupDurationSeconds(), o.outDir);
                new EfficiencyRunner(o, out).run();
            } else {
                out.printf("comparing %s, %d round(s), baseline %s, topology %s%s; %s; output %s%n", o.variants, o.rounds, o.baseline, o.topology,
                    o.profile ? ", profiled" : "", o.workload, o.outDir);
                new CompareRunner(o, out).run();
            }
            return 0;
        } catch (CompareRunner.CompareFailedException e) {
            System.err.println("compare failed: " + e.getMessage());
            return 1;
        }
    }
}
