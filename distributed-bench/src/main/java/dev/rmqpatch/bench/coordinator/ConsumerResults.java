package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.delivery.DeliveryCheck;
import dev.rmqpatch.bench.protocol.ConsumeResult;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What the agents' consumers measured, in the run's result: their answers to {@code POST /stop-consumers} merged
 * (consume rate per agent and in all, deliveries, end-to-end histograms, unusable deliveries), and the count check
 * reported, on the output and as warnings.
 */
final class ConsumerResults {
    private ConsumerResults() {
    }

    /** @param consumed in agent order, like {@code result.agents} (filled by {@link ProducerResults#merge} first) */
    static void merge(RunResult result, List<ConsumeResult> consumed) {
        double tps = 0;
        long window = 0;
        long total = 0;
        long negative = 0;
        List<Histogram> endToEnd = new ArrayList<>();
        result.consumeErrors = new TreeMap<>();
        result.consumeErrorSamples = new TreeMap<>();
        for (int i = 0; i < consumed.size(); i++) {
            ConsumeResult c = consumed.get(i);
            Double agentTps = c.windowNanos > 0 ? c.windowConsumed * 1e9 / c.windowNanos : null;
            if (agentTps != null) {
                tps += agentTps;
            }
            if (i < result.agents.size()) {
                result.agents.get(i).consumeTps = agentTps;
            }
            window += c.windowConsumed;
            total += c.totalConsumed;
            negative += c.negativeEndToEnd;
            endToEnd.add(Histograms.decode(c.endToEndHistogram));
            if (c.errorsByKind != null) {
                c.errorsByKind.forEach((k, n) -> result.consumeErrors.merge(k, n, Long::sum));
            }
            if (c.errorSamples != null) {
                c.errorSamples.forEach(result.consumeErrorSamples::putIfAbsent);
            }
        }
        Histogram merged = Histograms.merge(endToEnd);
        result.consumeTps = tps;
        result.consumedInWindow = window;
        result.consumedTotal = total;
        result.endToEndLatencyMs = LatencySummary.of(merged);
        result.endToEndHistogram = Histograms.encode(merged);
        if (negative > 0) {
            result.warnings.add(String.format("%,d deliveries were consumed before they were sent by the clocks' reading (recorded as 0): "
                + "the agents' clocks are further apart than the measured offsets (see clock)", negative));
        }
        long errors = result.consumeErrors.values().stream().mapToLong(Long::longValue).sum();
        if (errors > 0) {
            result.warnings.add(String.format("%,d deliveries could not be used: %s", errors, result.consumeErrors));
        }
    }

    /** Prints the count check per subscription and the consume figures; missing messages become a warning. */
    static void describeDelivery(RunSpec spec, RunResult result, PrintStream out) {
        DeliveryCheck.Report d = result.delivery;
        if (!"sync".equals(spec.workload.sendMode().label()) && !"async".equals(spec.workload.sendMode().label())) {
            d.note = "oneway sends are never acknowledged: the count check has nothing to check";
        }
        for (DeliveryCheck.Subscription sub : d.subscriptions) {
            out.printf("[%s] count check %s: %,d acknowledged, %,d received, %,d missing, %,d duplicate deliveries%s%n", spec.label, sub.group,
                sub.acknowledged, sub.received, sub.missing, sub.duplicates, sub.missing > 0 ? " (first missing stream/sequence: "
                    + String.join(", ", sub.firstMissing) + ")" : "");
        }
        if (d.missingMessages > 0) {
            result.warnings.add(String.format("count check: %,d acknowledged messages were never consumed (summed over subscriptions; "
                + "consumers %s)", d.missingMessages, d.drained ? "had caught up by the counts" : "had not caught up when the drain ended"));
        }
        out.printf("[%s] consume %,.0f msg/s, end-to-end p50 %s p99 %s p99.9 %s ms%n", spec.label, result.consumeTps,
            fmt(result.endToEndLatencyMs.p50), fmt(result.endToEndLatencyMs.p99), fmt(result.endToEndLatencyMs.p999));
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.format("%.2f", v);
    }
}
