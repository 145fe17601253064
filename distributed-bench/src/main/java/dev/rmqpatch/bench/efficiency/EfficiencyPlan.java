package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.engine.ComparisonMetadata;
import dev.rmqpatch.bench.engine.Plan;
import dev.rmqpatch.bench.engine.RunContext;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.pinning.Affinity;
import dev.rmqpatch.bench.pinning.CpuPinning;
import dev.rmqpatch.bench.pinning.PinMode;
import dev.rmqpatch.bench.pinning.PinningPlan;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.pinning.Taskset;
import dev.rmqpatch.bench.profile.AsyncProfiler;
import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.report.ResultsFile;
import dev.rmqpatch.bench.stats.PairedRatio;
import dev.rmqpatch.bench.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code compare --efficiency}: broker CPU per message of every variant at one fixed rate below saturation, from
 * paired windows on warm brokers and warm agents, with a confidence interval of each variant's ratio to the baseline.
 *
 * <p>All variants' clusters run at once, each on its own ports and store; the same agent JVMs keep producers to all of
 * them and switch their load from one to the next every window, in counterbalanced order ({@link WindowOrder}).
 * Phases: warm-up at full load (which also measures each variant's saturation for the rate probe), a rate check, with
 * --pin auto a calibration that measures pairs with and without CPU pinning and keeps the state whose pairs scatter
 * less, the measured pairs, and with --profile a few more pairs with the profiler attached.
 */
public final class EfficiencyPlan implements Plan {
    static final String SLAVE_ROLE = "slave";
    /** --pin auto: blocks of {@link #PAIRS_PER_BLOCK} pairs per state, in the order pinned, unpinned, unpinned, pinned ... */
    static final int CALIBRATION_BLOCKS_PER_STATE = 3;
    static final int PAIRS_PER_BLOCK = 2;
    /** Below this many pairs a calibration would be most of the run; auto then measures unpinned. */
    static final int MIN_PAIRS_TO_CALIBRATE = 12;
    /** --profile: profiled pairs after the measured ones (not in the interval). */
    static final int PROFILE_PAIRS = 4;
    public static final int DEFAULT_WINDOW_SECONDS = 5;
    public static final int DEFAULT_PAIRS = 10;
    public static final int DEFAULT_WARMUP_SECONDS = 15;

    static final Flag<Boolean> EFFICIENCY = Flag.toggle("--efficiency", "broker CPU per message at one fixed rate below every "
        + "variant's saturation, from many short paired windows on warm brokers, with a 95% confidence interval of each variant's "
        + "ratio to the baseline: \"does this patch save CPU, and how much\", resolved to a few percent");
    static final Flag<Integer> WINDOW = Flag.whole("--window", "S", 1, "seconds per window").defaultingTo(DEFAULT_WINDOW_SECONDS);
    static final Flag<Integer> PAIRS = Flag.whole("--pairs", "N", 1, "measured pairs per cell (rate x placement); a pair is one window "
        + "per variant, adjacent in time, in the order A B, then B A, A B ...").defaultingTo(DEFAULT_PAIRS);
    static final Flag<PinMode> PIN = Flag.parsed("--pin", PinMode.VALUES, PinMode::parse, "the placements measured, each rate in each, "
        + "in interleaved blocks, each with its own interval; the headline is the less favourable. Placements, set with taskset after "
        + "the JVMs started (which keep their thread sizing: -XX:ActiveProcessorCount=<machine CPUs> for brokers and agents in every "
        + "placement): on (pinned): brokers on the upper half of this process's CPUs, name servers, slaves, agents and this coordinator "
        + "on the lower half (on 2 cores: brokers on CPU 1, the rest on CPU 0), so each broker's thread hand-offs are switches on one "
        + "core; split: each broker's netty IO, netty codec and send-executor threads on different CPUs, re-applied to new threads at "
        + "every window start, so the hand-offs between them cross cores as on a many-core host (on 2 cores IO and codec on CPU 0, "
        + "send on CPU 1: three groups cannot all be apart, and this keeps the hand-off every variant has, netty side to send "
        + "executor and back, crossing, with the same work on each CPU in every variant; everything else on both CPUs; from 4 CPUs "
        + "one CPU set each, the rest on the lower CPUs; needs brokers whose threads the kernel knows by name: JDK 9+, recent JDK 8); off: "
        + "unpinned. both = on,off; all = on,split,off; or a comma list (split,off); auto: 3 blocks of 2 pairs pinned and 3 "
        + "unpinned, alternating; the state whose pairs scatter less is kept and its calibration pairs count (needs --pairs >= 12, "
        + "else unpinned). Where affinity cannot be set, the run goes on unpinned and says why")
        .defaultingTo(PinMode.BOTH, "both");
    static final Flag<List<Double>> RATES = Flag.parsed("--rates", "PCT,PCT...", RateProbe::parsePercents, "the rate curve: measured "
        + "rates in percent of the slowest variant's saturated msg/s in the warm-up, each a cell with its own pairs and interval; "
        + "the rate check is at 50% and the curve scales with it when it steps down; not with --rate")
        .defaultingTo(List.of(25.0, 50.0, 75.0), "25,50,75");
    static final Flag<Integer> RUNS = Flag.whole("--runs", "N", 1, "whole runs, one after another, each with fresh brokers, agents, "
        + "warm-up and rate probe and the variants' order rotated by one; the ratio across runs (t interval over the runs' ratios) "
        + "is the result, each run's own in run-<k>/").defaultingTo(1);

    private RunOptions o;
    private PrintStream out;
    private RunContext ctx;
    private final Affinity affinity = new Taskset();
    private final EfficiencyResults results = new EfficiencyResults();
    private final Map<String, Map<String, String>> overrides = new LinkedHashMap<>();
    private final List<String> names = new ArrayList<>();
    private int pairs;
    /** The placements measured, once known; one with --pin on, off, split or auto. */
    private List<Placement> placements;
    /** Each variant's broker JVM, in variant order. */
    private final List<Long> brokerPids = new ArrayList<>();
    private Rig rig;
    private String profileTable;
    /** --runs N > 1: the series this plan hands the run to. */
    private RepeatedRuns series;

    /** This run's results (one run of several reads them after its context has finished). */
    EfficiencyResults results() {
        return results;
    }

    @Override
    public Flag<Boolean> selector() {
        return EFFICIENCY;
    }

    @Override
    public String helpTitle() {
        return "Efficiency (--efficiency):";
    }

    @Override
    public String helpText() {
        return "measures --pairs pairs of --window-second windows on warm brokers\n"
            + "All variants' clusters run at once; the same agents switch their load between them every window, in "
            + "counterbalanced order. Phases: warm-up at full load per variant, alternating in windows (its last window gives the "
            + "saturated msg/s); a rate check (without --rate the probe takes half the slowest variant's saturated msg/s, checks "
            + "one window per variant at it: rate held, no failed sends, p99 <= 5 ms, and steps down by a quarter while it fails, "
            + "at most 3 times); with --pin auto the pinning calibration; the measured pairs, --pairs in each cell: every rate of "
            + "the curve (--rates, default 25, 50 and 75% of the slowest saturation) in each placement (--pin both: pinned and "
            + "unpinned; all adds split), in blocks of 2 pairs interleaved over the cells; with --profile 4 more pairs with the profiler attached "
            + "(about 40 s more; not in the interval). --rate is one fixed rate instead of the curve, a positive number; --warmup "
            + "the full-load warm-up per variant (default " + DEFAULT_WARMUP_SECONDS + "). Default variants "
            + String.join(",", defaultVariants()) + "; "
            + "at least two. With --clients the same phases, cells and statistics compare clients against one broker (see --clients). "
            + "With consumers (--consumers or the workload's subscriptions) every cluster's topics get them, "
            + "consuming as the window's load stores, so a window's broker CPU per message is producing plus consuming it.\n"
            + "The table gives per variant the median broker CPU us/msg over its windows, and for each other variant the ratio to "
            + "the baseline (geometric mean of the per-pair ratios) with a 95% CI (Student-t on the pairs' log ratios, the percentile "
            + "bootstrap over pairs as a check) and the verdict: resolved only where both exclude 1.0, over at least 6 pairs, for the "
            + "headline cell (the checked rate, the less favourable placement), then every cell's ratio, each with the send latency "
            + "p50/p99/p99.9 of the same windows beside it (--runs N: per run, and each percentile's highest run). Windows that "
            + "missed the rate or lost sends are listed, and their pairs left out of the interval. With --topology ms-sync the main "
            + "figure is the pair (SYNC_MASTER + SLAVE CPU per message), the master's and the slave's beside it.\n"
            + "Default run: 2 variants, 15 s warm-up, rate probe, 3 rates x 2 placements x 10 pairs of 5 s windows: about 14 minutes "
            + "(--pin all, 3 placements: about 20); "
            + "--runs N repeats it N times. Output: "
            + "results.json (every window listed), chart.png, table.txt, brokers/<variant>/ (confs, output, logs); --profile adds "
            + "flame-<variant>.html and profile/<variant>.collapsed.";
    }

    @Override
    public List<Flag<?>> flags() {
        List<Flag<?>> all = new ArrayList<>(List.of(WINDOW, PAIRS, PIN, RATES, IdleFreeze.FLAG, RUNS));
        all.addAll(RemoteBrokers.flags());
        all.addAll(ClientRig.flags());
        return all;
    }

    @Override
    public List<String> defaultVariants() {
        return List.of("4.9.0-tuned", "4.9.0-patched");
    }

    @Override
    public int defaultWarmupSeconds() {
        return DEFAULT_WARMUP_SECONDS;
    }

    @Override
    public void configure(Args a, RunOptions options) throws UsageException {
        options.efficiency = true;
        if (!ClientRig.configure(a, options) && options.variants.size() < 2) {
            List<String> given = new ArrayList<>();
            options.variants.forEach(v -> given.add(v.name()));
            throw new UsageException("--efficiency compares variants with a baseline: give at least two in --variants, not " + given);
        }
        if (a.has(HarnessFlags.RATE)) {
            double rate = a.get(HarnessFlags.RATE);
            if (!(rate > 0)) {
                throw new UsageException("--rate must be a positive number of msg/s with --efficiency (leave it out to let the rate probe "
                    + "find one), not " + a.raw().get(a.raw().indexOf(HarnessFlags.RATE.name()) + 1));
            }
            options.rate = rate;
        } else if (options.workload.producerRate() > 0) {
            options.rate = options.workload.producerRate();
        }
        if (options.rate != null && a.has(RATES)) {
            throw new UsageException("--rates draws a curve from the rate probe: give it or a fixed rate (--rate or the workload's "
                + "producerRate), not both");
        }
        options.ratePercents = options.rate != null ? null : a.get(RATES);
        options.windowSeconds = a.get(WINDOW);
        options.pairs = a.get(PAIRS);
        options.pin = a.get(PIN);
        options.runs = a.get(RUNS);
        RemoteBrokers.configure(a, options);
        IdleFreeze.configure(a, options);
        if (options.workload.consumerBacklogSizeGB() > 0) {
            throw new UsageException("--efficiency runs consumers that keep up with a fixed rate; a backlog test (the workload's "
                + "consumerBacklogSizeGB) runs in the saturation mode (leave out --efficiency)");
        }
        // The agents get the rate with every switch; the workload itself stays unlimited.
        options.workload = options.workload.withProducerRate(0);
    }

    @Override
    public String describe(RunOptions options) {
        Workload w = options.workload;
        String rate;
        if (options.rate != null) {
            rate = String.format("%,.0f msg/s", options.rate);
        } else {
            List<String> percents = new ArrayList<>();
            options.ratePercents.forEach(p -> percents.add(Format.num(p, 0) + "%"));
            rate = "a curve at " + String.join(", ", percents) + " of the slowest saturation";
        }
        String compared = options.clients == null ? options.variants.toString()
            : "clients " + options.clients + " (" + options.clientSide.label() + " side) against " + options.variants.get(0);
        return String.format("comparing %s in efficiency mode: %d pair(s) of %d s windows per cell, rate %s, --pin %s%s, baseline %s, "
                + "topology %s; %d topic(s) x %d queues, %d B, %d agent(s) x %d %s threads, client %s, warm-up %d s per variant; output %s%s",
            compared, options.pairs, options.windowSeconds, rate, options.pin.label(),
            (options.profile ? ", profiled" : "") + (options.stall == null ? "" : ", store stalls " + options.stall.label())
                + (options.freezeIdle ? ", idle variants frozen" : ""),
            options.baseline, options.topology, w.topics(), w.partitionsPerTopic(), w.messageSize(), options.agents, w.threadsPerAgent(),
            w.sendMode().label(), w.client().label(), w.warmupDurationSeconds(), options.outDir,
            options.runs > 1 ? "; " + options.runs + " whole runs" : options.remote != null ? "; brokers on other hosts, their CPU over JMX" : "");
    }


    @Override
    public void run(RunContext context) throws Exception {
        this.ctx = context;
        this.o = context.options();
        this.out = context.out();
        if (o.runs > 1) {
            series = new RepeatedRuns(o, out);
            series.run(context);
            return;
        }
        names.addAll(o.compared());
        for (Variant v : o.variants) {
            // Before anything is pinned: a pinned coordinator would see one CPU and size sendMessageThreadPoolNums by it.
            overrides.put(v.name(), ctx.overrides(v));
        }
        PinningPlan plan = PinningPlan.of(affinity);
        int cpus = plan.possible() ? plan.machineCpus() : Runtime.getRuntime().availableProcessors();
        List<String> sameCpuCount = List.of("-XX:ActiveProcessorCount=" + cpus);
        results.baseline = o.baseline;
        results.clientMode = o.workload.client().label();
        results.windowSeconds = o.windowSeconds;
        results.pairsPlanned = o.pairs;
        results.estimator = EfficiencySummary.ESTIMATOR;
        results.mainFigure = CpuMeasure.mainFor(o).name();
        results.cpuSource = o.remote == null ? RemoteBrokers.CPU_FROM_PROC : RemoteBrokers.CPU_FROM_JMX;
        results.pinning.mode = o.pin.label();
        results.pinning.activeProcessorCount = cpus;
        results.pinning.brokerCpus = plan.brokerCpus();
        results.pinning.otherCpus = plan.otherCpus();
        results.probe.fractionOfSaturation = RateProbe.FRACTION;
        results.probe.p99LimitMs = RateProbe.P99_LIMIT_MS;
        describe(sameCpuCount);
        Rig run = new Rig();
        rig = run;
        run.pinning = new CpuPinning(affinity, plan);
        results.pinning.split = PlacementRecord.planned(o.pin, run.pinning.splitPlan());
        ctx.closeAtEnd(() -> {
            if (run.pinning.placement() != Placement.UNPINNED) {
                run.pinning.unpin(List.of(ProcessHandle.current().pid()));
            }
        });
        run.start(ctx, overrides, results, sameCpuCount);
        for (int i = 0; i < names.size() && !run.clusters.isEmpty(); i++) {
            // --clients: every client's windows load the one broker; --remote: no broker here.
            brokerPids.add(run.clusters.get(o.clients == null ? i : 0).brokerPid());
        }
        // Split: threads started since the last window (netty's lazily, the send executor as it grows) are placed at each start.
        run.windows.placeWith(slot -> slot.placement() == Placement.SPLIT ? run.pinning.reapply(brokerPids.get(slot.variant()))
            : slot.placement());
        warmUpAndProbe(run);
        measure(run);
        if (ctx.profiling() != null) {
            profile(run);
        }
        run.stop(ctx, results);
    }

    @Override
    public void ended(String error) {
        if (series != null) {
            series.ended(error);
            return;
        }
        results.status = error == null ? "ok" : "failed";
        results.error = error;
    }

    private void describe(List<String> sameCpuCount) {
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("mode", "efficiency");
        mode.put("design", (o.clients == null ? "all variants' brokers up at once; the same agents switch their load between them every "
            : "one broker cluster; each client its own agent JVMs, the load switching between the clients every ") + o.windowSeconds
            + " s window; pair p loads every " + (o.clients == null ? "variant" : "client") + " once, forwards on even and backwards on odd pairs");
        mode.put("windowSeconds", o.windowSeconds);
        mode.put("pairs", o.pairs);
        mode.put("warmupSecondsPerVariant", o.workload.warmupDurationSeconds());
        // Remote brokers and agents run with the options their deployment gave them (none of these).
        mode.put("brokerJvmOptions", o.remote == null ? sameCpuCount : List.of());
        ComparisonMetadata.describe(o, results.metadata, mode, o.remote == null
            ? RunContext.recordedAgentJvmOptions(Rig.agentJvmOptions(sameCpuCount)) : List.of());
        for (int i = 0; i < names.size(); i++) {
            // --clients: every client ran against the one variant's broker.
            Variant v = o.variants.get(o.clients == null ? i : 0);
            EfficiencyResults.VariantResult r = new EfficiencyResults.VariantResult();
            r.name = names.get(i);
            r.distribution = o.remote == null ? v.dist(o.distDir).toString() : v.distName();
            r.conf = v.confName();
            r.confOverrides = o.remote == null ? overrides.get(v.name()) : null;
            results.variants.add(r);
        }
    }

    /** Pins, splits or unpins; returns the placement actually in force. */
    private Placement place(Rig run, Placement wanted) {
        boolean was = run.pinning.available();
        Placement now = run.pinning.apply(brokerPids, wanted);
        if (wanted != Placement.UNPINNED && was && now != wanted) {
            out.println("pinning failed, measuring unpinned: " + run.pinning.failure());
        }
        if (now != Placement.UNPINNED) {
            results.pinning.pinnedPids = Map.of("brokers", List.copyOf(brokerPids), "others", run.pinning.lastOthers());
        }
        return now;
    }

    private List<Slot> pairs(int count, double rate, String phase, Placement placement, boolean profiled) {
        List<Slot> slots = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            int pair = ++pairs;
            for (int v : WindowOrder.of(pair - 1, names.size())) {
                slots.add(new Slot(v, rate, phase, pair, placement, profiled));
            }
        }
        return slots;
    }

    private List<Window> runWindows(Rig run, List<Slot> slots) throws WindowRunner.WindowFailure, IOException {
        List<Window> done = run.windows.run(slots, this::afterWindow);
        writeProgress();
        return done;
    }

    /** Every window goes into the results at once; after a measured pair, the running ratios are printed. */
    private void afterWindow(Window w) {
        results.windows.add(w);
        boolean pairDone = results.windows.stream().filter(x -> x.pair == w.pair).count() == names.size();
        if (!Window.MEASURE.equals(w.phase) || !pairDone) {
            return;
        }
        Cell cell = new Cell(w.targetRateMsgPerS, Placement.ofLabel(w.placement));
        Map<Integer, Map<String, Window>> measuredPairs = EfficiencySummary.measuredPairs(results.windows, cell::contains);
        StringBuilder line = new StringBuilder();
        for (String v : names) {
            if (v.equals(o.baseline)) {
                continue;
            }
            List<Double> ratios = EfficiencySummary.ratios(measuredPairs, v, o.baseline, CpuMeasure.main(results));
            if (ratios.size() < 2) {
                continue;
            }
            PairedRatio r = PairedRatio.of(ratios);
            double[] ci = r.t95();
            line.append(String.format(Locale.ROOT, "  %s / %s so far %.3f [%.3f, %.3f] over %d pairs", v, o.baseline, r.estimate(), ci[0], ci[1],
                r.pairs()));
        }
        if (line.length() > 0) {
            out.println(line.append(" at ").append(cell.label()));
        }
    }

    private void writeProgress() throws IOException {
        PlacementRecord.update(results.pinning.split, rig.pinning, names, brokerPids);
        ResultsFile.write(o.outDir.resolve("results.json"), results);
    }

    private void warmUpAndProbe(Rig run) throws WindowRunner.WindowFailure, IOException {
        Placement pinned = o.pin.neverPins() ? Placement.UNPINNED : place(run, Placement.PINNED);
        int warmWindows = Rig.warmUpWindows(o);
        out.printf("[%s elapsed] warm-up: %d window(s) of %d s per variant at full load, variants alternating, which also measures "
                + "each variant's saturation; %s%n", ctx.elapsed(), warmWindows, o.windowSeconds, run.pinning.describe());
        List<Window> warm = runWindows(run, pairs(warmWindows, 0, Window.WARM_UP, pinned, false));
        for (Window w : warm) {
            results.probe.saturatedMsgPerS.put(w.variant, w.storedMsgPerS);
        }
        for (EfficiencyResults.VariantResult v : results.variants) {
            v.saturatedMsgPerS = results.probe.saturatedMsgPerS.get(v.name);
        }
        double rate;
        if (o.rate != null) {
            rate = o.rate;
            results.rateSource = "--rate";
        } else {
            rate = RateProbe.initialRate(results.probe.saturatedMsgPerS.values());
            results.rateSource = "probe";
            out.printf("rate probe: saturated %s msg/s; trying %,.0f msg/s (%.0f%% of the slowest)%n", describeSaturation(), rate,
                RateProbe.FRACTION * 100);
        }
        for (int step = 0; ; step++) {
            out.printf("[%s elapsed] rate check at %,.0f msg/s: one window per variant (p99 limit %.0f ms)%n", ctx.elapsed(), rate,
                RateProbe.P99_LIMIT_MS);
            List<Window> check = runWindows(run, pairs(1, rate, Window.RATE_CHECK, pinned, false));
            EfficiencyResults.Attempt a = new EfficiencyResults.Attempt();
            a.rateMsgPerS = rate;
            for (Window w : check) {
                a.storedMsgPerS.put(w.variant, w.storedMsgPerS);
                a.p99Ms.put(w.variant, w.latencyMs.p99);
            }
            a.ok = RateProbe.ok(check);
            results.probe.attempts.add(a);
            if (a.ok) {
                break;
            }
            if (o.rate != null) {
                results.warnings.add(String.format(Locale.ROOT, "at the given --rate %,.0f msg/s a variant missed the rate, lost sends or had p99 above "
                    + "%.0f ms in the rate check: a variant may be near saturation there; windows that miss the rate are left out of the interval",
                    rate, RateProbe.P99_LIMIT_MS));
                break;
            }
            if (step == RateProbe.MAX_STEPS) {
                results.warnings.add(String.format(Locale.ROOT, "the rate probe stepped down %d times and a variant still missed %,.0f msg/s or its "
                    + "p99 limit; measuring at it anyway (give --rate to choose another)", RateProbe.MAX_STEPS, rate));
                break;
            }
            rate = RateProbe.stepDown(rate);
            out.printf("rate check failed; stepping down to %,.0f msg/s%n", rate);
        }
        results.rateMsgPerS = rate;
    }

    private String describeSaturation() {
        List<String> parts = new ArrayList<>();
        results.probe.saturatedMsgPerS.forEach((v, s) -> parts.add(v + " " + Format.num(s, 0)));
        return String.join(", ", parts);
    }

    /**
     * The measured pairs: every cell (each rate of the curve, or --rate, in each placement) gets --pairs pairs, in blocks
     * of {@link #PAIRS_PER_BLOCK} interleaved over the cells ({@link CellSchedule}), so that drift spreads over all.
     */
    private void measure(Rig run) throws WindowRunner.WindowFailure, IOException {
        double rate = results.rateMsgPerS;
        placements = placements(run, rate);
        List<Double> rates = o.rate != null ? List.of(rate) : RateProbe.curve(rate, o.ratePercents);
        List<Cell> cells = new ArrayList<>();
        for (double r : rates) {
            for (Placement p : placements) {
                cells.add(new Cell(r, p));
            }
        }
        List<String> labels = new ArrayList<>();
        cells.forEach(c -> labels.add(c.label()));
        out.printf("[%s elapsed] measuring %d cell(s), %d pair(s) of %d s windows each, in blocks of %d pairs interleaved: %s%n",
            ctx.elapsed(), cells.size(), o.pairs, o.windowSeconds, PAIRS_PER_BLOCK, String.join("; ", labels));
        IdleFreeze freeze = o.freezeIdle ? ctx.closeAtEnd(IdleFreeze.of(run.clusters, brokerPids)) : null;
        if (freeze != null) {
            out.printf("--freeze-idle: every variant's brokers stopped outside its own windows, the load paused %d s after each continue%n",
                IdleFreeze.THAW_SETTLE.getSeconds());
            run.windows.freezeWith(freeze);
        }
        try {
            measureCells(run, cells);
        } finally {
            if (freeze != null) {
                run.windows.freezeWith(null);
                results.freezeIdle = freeze.finish(results.warnings);
            }
        }
    }

    private void measureCells(Rig run, List<Cell> cells) throws WindowRunner.WindowFailure, IOException {
        for (int round = 0; ; round++) {
            boolean any = false;
            for (Cell c : CellSchedule.round(cells, round)) {
                int n = Math.min(PAIRS_PER_BLOCK, o.pairs - EfficiencySummary.measuredPairs(results.windows, c::contains).size());
                if (n <= 0 || !placements.contains(c.placement)) {
                    continue;
                }
                any = true;
                if (place(run, c.placement) != c.placement) {
                    results.warnings.add("pinning failed during the run (" + run.pinning.failure() + "): the pinned and split cells stop there");
                    if (results.pinning.split != null) {
                        results.pinning.split.notAppliedBecause = run.pinning.failure();
                    }
                    placements = List.of(Placement.UNPINNED);
                    continue;
                }
                runWindows(run, pairs(n, c.rate, Window.MEASURE, c.placement, false));
            }
            if (!any) {
                break;
            }
        }
    }

    /** Which placements the cells have; with --pin auto after its calibration at {@code rate}. */
    private List<Placement> placements(Rig run, double rate) throws WindowRunner.WindowFailure, IOException {
        EfficiencyResults.Pinning p = results.pinning;
        p.description = run.pinning.describe();
        if (o.remote != null) {
            p.description = "none: the brokers run on other hosts";
            p.brokerCpus = null;
            p.otherCpus = null;
            p.notAppliedBecause = RemoteBrokers.NO_PINNING;
            return List.of(Placement.UNPINNED);
        }
        if (o.pin.neverPins()) {
            p.notAppliedBecause = "--pin off";
            return List.of(Placement.UNPINNED);
        }
        if (!run.pinning.available()) {
            p.notAppliedBecause = run.pinning.failure();
            if (p.split != null && p.split.notAppliedBecause == null) {
                p.split.notAppliedBecause = run.pinning.failure();
            }
            return List.of(Placement.UNPINNED);
        }
        if (!o.pin.auto()) {
            p.description = PlacementRecord.describe(o.pin.placements(), run.pinning);
            return o.pin.placements();
        }
        boolean keptPinned = false;
        if (run.pinning.available() && o.pairs >= MIN_PAIRS_TO_CALIBRATE) {
            int blocks = 2 * CALIBRATION_BLOCKS_PER_STATE;
            out.printf("[%s elapsed] pinning calibration: %d blocks of %d pairs, pinned and unpinned alternating (%s); the state whose "
                + "pairs scatter less is kept and its pairs count%n", ctx.elapsed(), blocks, PAIRS_PER_BLOCK, run.pinning.plan().describe());
            for (int b = 0; b < blocks && run.pinning.available(); b++) {
                Placement pinned = place(run, b % 4 == 0 || b % 4 == 3 ? Placement.PINNED : Placement.UNPINNED);
                runWindows(run, pairs(PAIRS_PER_BLOCK, rate, Window.CALIBRATION, pinned, false));
            }
            if (run.pinning.available()) {
                EfficiencyResults.Calibration c = new EfficiencyResults.Calibration();
                CpuMeasure mainMeasure = CpuMeasure.main(results);
                c.pairsPerState = CALIBRATION_BLOCKS_PER_STATE * PAIRS_PER_BLOCK;
                c.sdLogRatioPinned = EfficiencySummary.sdLogRatio(EfficiencySummary.measuredPairs(results.windows, Placement.PINNED), names,
                    o.baseline, mainMeasure);
                c.sdLogRatioUnpinned = EfficiencySummary.sdLogRatio(EfficiencySummary.measuredPairs(results.windows, Placement.UNPINNED),
                    names, o.baseline, mainMeasure);
                c.keptPinned = c.sdLogRatioPinned != null && c.sdLogRatioUnpinned != null && c.sdLogRatioPinned < c.sdLogRatioUnpinned;
                p.calibration = c;
                keptPinned = c.keptPinned;
                out.printf("pinning calibration: per-pair scatter (sd of log ratio) pinned %s, unpinned %s: keeping %s%n",
                    Format.num(c.sdLogRatioPinned, 4), Format.num(c.sdLogRatioUnpinned, 4), keptPinned ? "pinned" : "unpinned");
                if (!keptPinned) {
                    p.notAppliedBecause = "--pin auto: pinned pairs did not scatter less than unpinned ones in the calibration";
                }
            } else {
                p.notAppliedBecause = run.pinning.failure();
            }
        } else {
            p.notAppliedBecause = "--pin auto needs at least " + MIN_PAIRS_TO_CALIBRATE + " pairs to compare pinned and unpinned; "
                + "measured unpinned (--pin on pins without comparing)";
        }
        return List.of(keptPinned ? Placement.PINNED : Placement.UNPINNED);
    }

    private void profile(Rig run) throws WindowRunner.WindowFailure, IOException, AsyncProfiler.ProfilerException {
        for (int i = 0; i < run.brokers.size(); i++) {
            run.brokers.get(i).profiler = ctx.profiling().session(run.profiledPid(i));
            if (run.profiledSlavePid(i) != null) {
                run.brokers.get(i).slaveProfiler = ctx.profiling().session(run.profiledSlavePid(i));
            }
        }
        out.printf("[%s elapsed] profiling: %d more pair(s) at %,.0f msg/s with async-profiler (%s) attached to each " + (o.clients == null
                ? "broker" : "client's first agent JVM") + " during its "
                + "windows; these windows are not in the interval%n", ctx.elapsed(), PROFILE_PAIRS, results.rateMsgPerS,
            ctx.profiling().event().name());
        Placement placement = place(run, placements.contains(Placement.UNPINNED) ? Placement.UNPINNED : placements.get(0));
        runWindows(run, pairs(PROFILE_PAIRS, results.rateMsgPerS, Window.PROFILE, placement, true));
        profileTable = EfficiencyProfiles.write(run.brokers, names, o.baseline, ctx.profiling().event(), PROFILE_PAIRS, o.outDir, results);
    }

    /** Statistics, results.json, table.txt and chart.png from whatever was measured; also after a failure. */
    @Override
    public void finish(RunContext context) {
        if (o == null) {
            return;
        }
        if (series != null) {
            series.finish(context);
            return;
        }
        try {
            EfficiencySummary.summarize(results, placements == null || placements.size() > 1 ? null : placements.get(0));
            if (rig != null) {
                PlacementRecord.update(results.pinning.split, rig.pinning, names, brokerPids);
            }
            results.warnings.addAll(PlacementRecord.warnings(results.pinning.split));
            results.warnings.addAll(EfficiencyWarnings.of(results));
            String stalls = rig == null ? "" : rig.recordStalls(o, results);
            String table = EfficiencyTable.render(results) + (profileTable == null ? "" : "\n" + profileTable)
                + (stalls.isEmpty() ? "" : "\n" + stalls);
            ctx.writeOutput(results.metadata, results, table, png -> EfficiencyChart.write(results, png), results.error, results.profile != null);
        } catch (RuntimeException | IOException e) {
            out.println("could not write the results to " + o.outDir + ": " + e);
        }
    }
}
