package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One second of a run over all agents: their progress reports of that second summed (rates, counts, errors by kind) and
 * their histograms merged. An agent that reports FAILED ends the run, named.
 */
final class ProgressSecond {
    /** Acknowledged and delivered per second, each agent's count over its own interval, summed. */
    double tps;
    double consumeTps;
    long errors;
    Map<String, Long> errorsByKind = new TreeMap<>();
    /** The merged service latency (empty when nothing was acknowledged); send delay and end-to-end null when none came. */
    Histogram latency;
    Histogram sendDelay;
    Histogram endToEnd;
    /** The longest agent interval, and the plain sums, for OMB's intervals. */
    long intervalNanos;
    long acked;
    long consumed;
    /** Since the start: acknowledged sends, and distinct messages received summed over every subscription. */
    long ackedSinceStart;
    long receivedAll;

    /** @param agents in the same order as {@code reports}, to name a failed one */
    static ProgressSecond of(List<ProgressReport> reports, List<AgentClient> agents) throws AgentFailure {
        ProgressSecond p = new ProgressSecond();
        List<Histogram> latencies = new ArrayList<>();
        List<Histogram> delays = new ArrayList<>();
        List<Histogram> endToEnd = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
            ProgressReport r = reports.get(i);
            if ("FAILED".equals(r.state)) {
                throw new AgentFailure(agents.get(i).name(), agents.get(i).name() + " failed: " + r.error, null);
            }
            if (r.intervalNanos > 0) {
                p.tps += r.acked * 1e9 / r.intervalNanos;
                p.consumeTps += r.consumed * 1e9 / r.intervalNanos;
            }
            p.errors += r.failed;
            if (r.errorsByKind != null) {
                r.errorsByKind.forEach((k, n) -> p.errorsByKind.merge(k, n, Long::sum));
            }
            if (r.latencyHistogram != null) {
                latencies.add(Histograms.decode(r.latencyHistogram));
            }
            if (r.sendDelayHistogram != null) {
                delays.add(Histograms.decode(r.sendDelayHistogram));
            }
            if (r.endToEndHistogram != null) {
                endToEnd.add(Histograms.decode(r.endToEndHistogram));
            }
            p.intervalNanos = Math.max(p.intervalNanos, r.intervalNanos);
            p.acked += r.acked;
            p.consumed += r.consumed;
            p.ackedSinceStart += r.ackedSinceStart;
            if (r.receivedByGroup != null) {
                for (long n : r.receivedByGroup.values()) {
                    p.receivedAll += n;
                }
            }
        }
        p.latency = Histograms.merge(latencies);
        p.sendDelay = delays.isEmpty() ? null : Histograms.merge(delays);
        p.endToEnd = endToEnd.isEmpty() ? null : Histograms.merge(endToEnd);
        return p;
    }

    /**
     * OMB's backlog, in messages: subscriptions per topic x messages published, minus messages received by all of them
     * (right for several topics too, where each subscription receives its own topic's share).
     */
    long backlogMessages(Workload w) {
        return Math.max(0, w.subscriptionsPerTopic() * ackedSinceStart - receivedAll);
    }

    /** Received, in published messages: all subscriptions' receipts over subscriptions per topic; without consumers, the acknowledged. */
    long receivedPerSubscription(Workload w) {
        return w.hasConsumers() ? receivedAll / w.subscriptionsPerTopic() : ackedSinceStart;
    }
}
