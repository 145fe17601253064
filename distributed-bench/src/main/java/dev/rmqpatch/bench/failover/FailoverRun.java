package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.logging.ClientLogging;
import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.report.OutputFolder;
import dev.rmqpatch.cluster.LocalCluster;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench failover} (scripts/failover.sh): how fast stock 4.9.0 producers move to another broker when one stalls,
 * per variant, in interleaved rounds ({@link FailoverSchedule}). Each run: a fresh two-master cluster
 * ({@link FailoverCluster}, the stall agent on broker-a), the producers ({@link ProducerLoad}) for the warm-up and the
 * measured window, broker-a's stalls read back from its output, every acknowledged message read back ({@link ReadBack}),
 * the run's figures ({@link FailoverFigures}). At the end (also after a failure): results.json, table.txt, chart.png.
 */
public final class FailoverRun {
    private final FailoverOptions o;
    private final PrintStream out;
    private final FailoverResults results = new FailoverResults();
    private final Map<FailoverResults.Run, FailoverFigures.RunData> data = new LinkedHashMap<>();
    private final long started = System.nanoTime();

    public FailoverRun(FailoverOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
    }

    /** Runs every round; 0 when every run completed, 1 otherwise (the figures of the runs that did are written either way). */
    public int run() throws IOException {
        for (Variant v : o.variants) {
            try {
                v.check(o.distDir);
            } catch (LocalCluster.ClusterException e) {
                out.println("failover: " + e.getMessage());
                return 1;
            }
        }
        Files.createDirectories(o.outDir);
        ClientLogging.ensureConfigured();
        List<String> names = o.variants.stream().map(Variant::name).toList();
        List<FailoverSchedule.Run> schedule = FailoverSchedule.of(names, o.rounds, o.faults);
        describe(schedule);
        out.printf("failover: %d runs (%s; latency fault %s; %d round(s)), about %d min; output %s%n", schedule.size(),
            String.join(", ", names), o.faults.stream().map(LatencyFault::label).toList(), o.rounds,
            Math.max(1, schedule.size() * o.estimatedRunSeconds() / 60), o.outDir);
        int done = 0;
        try (BrokerAdmin admin = new BrokerAdmin()) {
            for (FailoverSchedule.Run run : schedule) {
                Variant v = o.variants.get(names.indexOf(run.variant()));
                out.printf("%n[%s] (%d of %d, %s elapsed) starting name server + broker-a (stall agent: %s) + broker-b: %s, conf/%s%n",
                    run.label(), ++done, schedule.size(), elapsed(), stallText(), v.distName(), v.confName());
                runOne(run, v, admin);
            }
        } catch (Exception e) {
            results.error = e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            finish();
        }
        return results.error == null ? 0 : 1;
    }

    private void runOne(FailoverSchedule.Run run, Variant v, BrokerAdmin admin) throws Exception {
        Path dir = o.outDir.resolve("runs").resolve(run.folder());
        FailoverResults.Run r = new FailoverResults.Run();
        r.round = run.round();
        r.variant = run.variant();
        r.latencyFault = run.fault().label();
        r.folder = o.outDir.relativize(dir).toString();
        r.stalls = new StoreStalls.Record(o.stall, o.stallAfterMillis());
        results.runs.add(r);
        LocalCluster.Spec spec = FailoverCluster.spec(v, o, dir);
        String instance = "failover-" + run.folder().replaceAll("[^A-Za-z0-9-]", "_") + "-" + ProcessHandle.current().pid();
        ProducerLoad.Settings settings = new ProducerLoad.Settings(o.producers, o.rate, o.size, o.sendTimeoutMillis, o.retries,
            run.fault());
        Path brokerAOutput = null;
        try (LocalCluster cluster = FailoverCluster.start(spec, admin)) {
            brokerAOutput = cluster.master().output();
            if (run.round() == 1 && !variantEntry(v.name()).containsKey("brokerACommandLine")) {
                variantEntry(v.name()).put("brokerACommandLine", cluster.brokerCommandLine());
            }
            try (ProducerLoad load = new ProducerLoad(cluster.namesrvAddr(), FailoverOptions.TOPIC, instance, settings)) {
                load.awaitRoute(Set.of(LocalCluster.FIRST_MASTER, LocalCluster.SECOND_MASTER), 30_000);
                load.start(settings, "r" + run.round() + "-" + run.fault().label(), FailoverCluster.STALLED);
                long from = System.currentTimeMillis() + o.warmupSeconds * 1000L;
                long to = from + o.durationSeconds * 1000L;
                r.windowFrom = from;
                r.windowTo = to;
                r.brokerAStartedAt = ProcessHandle.of(cluster.brokerPid()).flatMap(h -> h.info().startInstant())
                    .map(java.time.Instant::toEpochMilli).orElse(null);
                long[] last = new long[3];
                while (System.currentTimeMillis() < to) {
                    long next = Math.min(to, System.currentTimeMillis() + 10_000);
                    Thread.sleep(Math.max(1, next - System.currentTimeMillis()));
                    long now = System.currentTimeMillis();
                    out.printf("[%s] %s %d s: %s%n", run.label(), now < from ? "warm-up" : "measured",
                        TimeUnit.MILLISECONDS.toSeconds(now < from ? now - (from - o.warmupSeconds * 1000L) : now - from), load.progress(last));
                }
                load.stop(o.sendTimeoutMillis + 2_000L);
                List<SendRecord> sends = load.records();
                Set<String> acked = load.ackedKeys();
                r.stalls.read(brokerAOutput, run.round());
                ReadBack.Result back = ReadBack.check(cluster.namesrvAddr(), FailoverOptions.TOPIC, instance, acked,
                    Math.max(10_000, 2 * o.stall.millis()));
                r.readBackStored = back.stored();
                r.readBackPasses = back.passes();
                FailoverFigures.RunData d = new FailoverFigures.RunData(FailoverCluster.STALLED, sends, r.stalls.stalls, from, to,
                    acked.size(), back.missing(), load.skippedSlots());
                r.figures = FailoverFigures.of(List.of(d));
                data.put(r, d);
                writeSends(dir.resolve("sends.csv"), sends);
            }
        } catch (Exception e) {
            r.error = e.getMessage() == null ? e.toString() : e.getMessage();
            if (r.stalls.count == 0 && brokerAOutput != null) {
                r.stalls.read(brokerAOutput, run.round());
            }
            throw new IllegalStateException("[" + run.label() + "] " + r.error + " (files: " + dir + ")", e);
        }
        out.println("[" + run.label() + "] " + line(r.figures));
    }

    /** One run's line: the figures a reader watches while the rounds go on. */
    static String line(FailoverFigures f) {
        return String.format(Locale.ROOT, "%,d sends, p99 %s ms, p99.9 %s ms, max %s ms; %d stall(s): time to move median %s ms, "
                + "max %s ms, %d waited out; other broker during stalls p99 %s ms; failed %,d; missing %,d of %,d",
            f.sends, ms(f.latencyMs.p99), ms(f.latencyMs.p999), ms(f.latencyMs.max), f.stalls, ms(f.timeToMoveMedianMs),
            ms(f.timeToMoveMaxMs), f.stallsWaitedOut, ms(f.elsewhereDuringStallsMs.p99),
            f.sends - f.outcomes.getOrDefault(SendOutcome.SEND_OK.name(), 0L), f.missing, f.acked);
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static void writeSends(Path file, List<SendRecord> sends) throws IOException {
        Files.createDirectories(file.getParent());
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(SendRecord.CSV_HEADER);
            w.newLine();
            for (SendRecord s : sends) {
                w.write(s.csv());
                w.newLine();
            }
        }
    }

    private List<String> names() {
        return o.variants.stream().map(Variant::name).toList();
    }

    private String stallText() {
        return o.stall.label() + (o.stallTimes == Long.MAX_VALUE ? "" : " at most " + o.stallTimes + "x");
    }

    private void describe(List<FailoverSchedule.Run> schedule) {
        Map<String, Object> m = results.metadata;
        m.put("command", o.commandLine);
        m.put("startedAt", Instant.now().toString());
        m.put("topology", dev.rmqpatch.cluster.Topology.TWO_MASTERS.label() + ": " + dev.rmqpatch.cluster.Topology.TWO_MASTERS.description());
        m.put("stalledBroker", FailoverCluster.STALLED);
        m.put("stall", o.stall.label());
        m.put("stallTimes", o.stallTimes == Long.MAX_VALUE ? "every period" : "at most " + o.stallTimes + " per run");
        m.put("stallAfterMillis", o.stallAfterMillis());
        m.put("rounds", o.rounds);
        m.put("order", schedule.stream().map(FailoverSchedule.Run::label).toList());
        m.put("latencyFault", o.faults.stream().map(LatencyFault::label).toList());
        m.put("producers", o.producers);
        m.put("rate", o.rate);
        m.put("size", o.size);
        m.put("warmupSeconds", o.warmupSeconds);
        m.put("durationSeconds", o.durationSeconds);
        m.put("sendTimeoutMillis", o.sendTimeoutMillis);
        m.put("retriesWhenSendFailed", o.retries);
        m.put("topic", FailoverOptions.TOPIC + " (" + FailoverOptions.QUEUES_PER_BROKER + " queues on each broker)");
        m.put("client", "stock RocketMQ " + org.apache.rocketmq.common.MQVersion.getVersionDesc(org.apache.rocketmq.common.MQVersion.CURRENT_VERSION)
            + " DefaultMQProducer, sync sends, one client instance per producer, in the harness's JVM");
        m.put("brokerHeap", o.brokerHeap);
        m.put("machine", Metadata.machine());
        m.put("harnessJvm", Metadata.coordinatorJvm());
        Map<String, Object> variants = new LinkedHashMap<>();
        for (Variant v : o.variants) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("distribution", v.dist(o.distDir).toAbsolutePath().toString());
            e.put("conf", v.confName());
            e.put("overrides", v.overrides(Runtime.getRuntime().availableProcessors()));
            e.put("jdk", v.jdk() == null ? "inherited" : v.jdk());
            variants.put(v.name(), e);
        }
        m.put("variants", variants);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> variantEntry(String name) {
        return (Map<String, Object>) ((Map<String, Object>) results.metadata.get("variants")).get(name);
    }

    private void finish() {
        results.metadata.put("finishedAt", Instant.now().toString());
        results.metadata.put("elapsedSeconds", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        results.summarize(names(), o.faults, data);
        OutputFolder.write(out, o.outDir, results, FailoverTable.render(results), png -> FailoverChart.write(results, png),
            results.error, false, elapsed());
    }

    private String elapsed() {
        long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** For the tests: the results as written. */
    FailoverResults results() {
        return results;
    }
}
