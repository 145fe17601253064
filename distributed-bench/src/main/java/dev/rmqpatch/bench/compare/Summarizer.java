package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/** Turns a variant's per-round run results into its summary, and relates variants to the baseline. */
public final class Summarizer {
    private Summarizer() {
    }

    public static CompareResults.RoundResult round(int round, RunResult r, String resultFile) {
        CompareResults.RoundResult x = new CompareResults.RoundResult();
        x.round = round;
        x.status = r.status;
        x.tps = r.tps;
        x.latencyMs = r.latencyMs;
        if (r.broker != null) {
            x.brokerCpuUsPerMsg = r.broker.cpuUsPerMsg;
            x.storedBytesPerMsg = r.broker.storedBytesPerMsg;
            x.gcPauseMs = r.broker.gcPauseMillis;
            x.brokerCores = r.broker.brokerCores;
            x.otherCpuCores = r.broker.otherCores;
            if (r.broker.brokerThreads != null) {
                x.busiestBrokerThread = r.broker.brokerThreads.busiestThread;
                x.busiestBrokerThreadCores = r.broker.brokerThreads.busiestThreadCores;
                x.brokerContextSwitchesPerMsg = r.broker.brokerThreads.contextSwitchesPerMsg;
            }
        }
        if (r.replication != null) {
            x.masterCommitLogMaxOffset = r.replication.masterCommitLogMaxOffset;
            x.slaveCommitLogMaxOffset = r.replication.slaveCommitLogMaxOffset;
            x.slaveCpuUsPerMsg = r.replication.slaveCpuUsPerMsg;
        }
        x.failedSends = r.counts == null ? 0 : r.counts.failed;
        x.consumeTps = r.consumeTps;
        x.endToEndLatencyMs = r.endToEndLatencyMs;
        if (r.delivery != null) {
            x.missingMessages = r.delivery.missingMessages;
            x.duplicateMessages = r.delivery.duplicateMessages;
        }
        x.errorsByKind = r.byError == null || r.byError.isEmpty() ? null : new java.util.TreeMap<>(r.byError);
        x.agentCpuUsPerMsg = r.agentCpuUsPerMsg;
        x.resultFile = resultFile;
        return x;
    }

    /**
     * How far the harness is from being the limit, against the baseline variant: the ceiling's msg/s over the baseline's
     * median msg/s, and the agents' CPU per message over the baseline broker's (both measured with the same agents).
     */
    public static void headroom(CompareResults results) {
        CompareResults.Ceiling c = results.harnessCeiling;
        if (c == null) {
            return;
        }
        for (CompareResults.VariantResult v : results.variants) {
            if (!v.name.equals(results.baseline)) {
                continue;
            }
            if (c.tps != null && v.tps != null && v.tps.median != null && v.tps.median > 0) {
                c.timesBaselineTps = c.tps / v.tps.median;
            }
            if (v.agentCpuUsPerMsg != null && v.agentCpuUsPerMsg.median != null && v.brokerCpuUsPerMsg != null
                && v.brokerCpuUsPerMsg.median != null && v.brokerCpuUsPerMsg.median > 0) {
                c.baselineAgentToBrokerCpu = v.agentCpuUsPerMsg.median / v.brokerCpuUsPerMsg.median;
            }
        }
    }

    /**
     * Every variant's summary from its completed rounds ({@code runs}: each variant's run results in round order), their
     * ratios to the baseline, the harness headroom and the warnings: what {@link SaturationPlan} and
     * {@link SaturationRounds} both report.
     */
    public static void summarizeAll(CompareResults results, Map<String, List<RunResult>> runs) {
        for (CompareResults.VariantResult v : results.variants) {
            if (!v.rounds.isEmpty()) {
                summarize(v, runs.get(v.name));
            }
        }
        relate(results.variants, results.baseline);
        headroom(results);
        results.warnings = warnings(results);
    }

    /** Summarises one variant from its completed rounds (run results in round order, same length as rounds). */
    public static void summarize(CompareResults.VariantResult v, List<RunResult> runs) {
        v.tps = spread(v.rounds, r -> r.tps);
        v.brokerCpuUsPerMsg = spread(v.rounds, r -> r.brokerCpuUsPerMsg);
        v.storedBytesPerMsg = spread(v.rounds, r -> r.storedBytesPerMsg);
        v.gcPauseMs = spread(v.rounds, r -> r.gcPauseMs);
        v.otherCpuCores = spread(v.rounds, r -> r.otherCpuCores);
        if (v.rounds.stream().anyMatch(r -> r.slaveCommitLogMaxOffset != null)) {
            v.slaveCpuUsPerMsg = spread(v.rounds, r -> r.slaveCpuUsPerMsg);
        }
        v.failedSends = v.rounds.stream().mapToLong(r -> r.failedSends).sum();
        v.agentCpuUsPerMsg = spread(v.rounds, r -> r.agentCpuUsPerMsg);
        java.util.Map<String, Long> kinds = new java.util.TreeMap<>();
        for (CompareResults.RoundResult r : v.rounds) {
            if (r.errorsByKind != null) {
                r.errorsByKind.forEach((k, n) -> kinds.merge(k, n, Long::sum));
            }
        }
        v.errorsByKind = kinds.isEmpty() ? null : kinds;
        List<Histogram> latencies = new ArrayList<>();
        for (RunResult r : runs) {
            if (r.latencyHistogram != null) {
                latencies.add(Histograms.decode(r.latencyHistogram));
            }
        }
        v.latencyMs = LatencySummary.of(Histograms.merge(latencies));
        if (v.rounds.stream().anyMatch(r -> r.consumeTps != null)) {
            v.consumeTps = spread(v.rounds, r -> r.consumeTps);
            List<Histogram> endToEnd = new ArrayList<>();
            for (RunResult r : runs) {
                if (r.endToEndHistogram != null) {
                    endToEnd.add(Histograms.decode(r.endToEndHistogram));
                }
            }
            v.endToEndLatencyMs = LatencySummary.of(Histograms.merge(endToEnd));
            v.missingMessages = v.rounds.stream().mapToLong(r -> r.missingMessages == null ? 0 : r.missingMessages).sum();
            v.duplicateMessages = v.rounds.stream().mapToLong(r -> r.duplicateMessages == null ? 0 : r.duplicateMessages).sum();
        }
    }

    private static Spread spread(List<CompareResults.RoundResult> rounds, Function<CompareResults.RoundResult, Double> f) {
        List<Double> values = new ArrayList<>();
        for (CompareResults.RoundResult r : rounds) {
            values.add(f.apply(r));
        }
        return Spread.of(values);
    }

    /** Fills ratioToBaseline and rangeOverlapsBaseline of every variant (the baseline's own ratios are 1). */
    public static void relate(List<CompareResults.VariantResult> variants, String baseline) {
        CompareResults.VariantResult base = null;
        for (CompareResults.VariantResult v : variants) {
            if (v.name.equals(baseline)) {
                base = v;
            }
        }
        if (base == null || base.tps == null) {
            return;
        }
        for (CompareResults.VariantResult v : variants) {
            if (v.tps == null) {
                continue;
            }
            Map<String, Double> r = v.ratioToBaseline;
            r.clear();
            r.put("tps", Spread.ratio(v.tps.median, base.tps.median));
            r.put("p50", Spread.ratio(v.latencyMs.p50, base.latencyMs.p50));
            r.put("p99", Spread.ratio(v.latencyMs.p99, base.latencyMs.p99));
            r.put("p999", Spread.ratio(v.latencyMs.p999, base.latencyMs.p999));
            r.put("brokerCpuUsPerMsg", Spread.ratio(v.brokerCpuUsPerMsg.median, base.brokerCpuUsPerMsg.median));
            r.put("storedBytesPerMsg", Spread.ratio(v.storedBytesPerMsg.median, base.storedBytesPerMsg.median));
            if (v.consumeTps != null && base.consumeTps != null) {
                r.put("consumeTps", Spread.ratio(v.consumeTps.median, base.consumeTps.median));
                r.put("endToEndP99", Spread.ratio(v.endToEndLatencyMs.p99, base.endToEndLatencyMs.p99));
            }
            Map<String, Boolean> o = v.rangeOverlapsBaseline;
            o.clear();
            o.put("tps", v.tps.overlaps(base.tps));
            o.put("brokerCpuUsPerMsg", v.brokerCpuUsPerMsg.overlaps(base.brokerCpuUsPerMsg));
            o.put("storedBytesPerMsg", v.storedBytesPerMsg.overlaps(base.storedBytesPerMsg));
        }
    }

    /** Warnings a reader of the table must see: harness limits, other load, failures. */
    public static List<String> warnings(CompareResults results) {
        List<String> w = new ArrayList<>();
        Double ceiling = results.harnessCeiling == null ? null : results.harnessCeiling.tps;
        for (CompareResults.VariantResult v : results.variants) {
            if (ceiling != null && v.tps != null && v.tps.median != null && v.tps.median > ceiling / 2) {
                w.add(String.format("%s reached %.0f%% of the harness ceiling (%,.0f msg/s against the no-op sink): above half of it, "
                    + "the agents' own CPU and latency limit throughput too, so TPS understates the broker difference; broker CPU "
                    + "per message is the figure to trust (more agent hosts would lift the ceiling)", v.name, 100 * v.tps.median / ceiling, ceiling));
            }
            if (v.otherCpuCores != null && v.otherCpuCores.max != null && v.otherCpuCores.max > 0.2) {
                w.add(String.format("%s: processes outside the run used up to %.2f cores in a round: the machine was not quiet, "
                    + "numbers are distorted", v.name, v.otherCpuCores.max));
            }
            for (CompareResults.RoundResult r : v.rounds) {
                if (r.masterCommitLogMaxOffset != null && r.slaveCommitLogMaxOffset != null
                    && !r.masterCommitLogMaxOffset.equals(r.slaveCommitLogMaxOffset)) {
                    w.add(String.format("%s round %d: the slave's CommitLog max offset %,d differs from the master's %,d after the "
                        + "load stopped: replication fell behind or broke (see the round's result.json and the brokers' logs)",
                        v.name, r.round, r.slaveCommitLogMaxOffset, r.masterCommitLogMaxOffset));
                }
            }
            if (v.missingMessages != null && v.missingMessages > 0) {
                w.add(String.format("%s: %,d acknowledged messages were never consumed (count check, summed over subscriptions and rounds; "
                    + "see each round's result.json, delivery)", v.name, v.missingMessages));
            }
            if (v.failedSends > 0) {
                w.add(String.format("%s: %,d sends failed in the measurement windows: %s (samples in the rounds' result.json)", v.name,
                    v.failedSends, v.errorsByKind == null ? "kinds not recorded" : v.errorsByKind));
            }
        }
        return w;
    }
}
