package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.broker.BrokerFigures;
import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.report.Table;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The final table of {@code bench run}: per agent and total, then broker and machine figures, errors, warnings. */
public final class RunTable {
    private RunTable() {
    }

    public static String render(RunResult r) {
        StringBuilder s = new StringBuilder();
        RunResult.WorkloadView w = r.workload;
        s.append(String.format("%s %s: %d agent(s) x %d threads, %s, client %s, %d B, %d topic(s) x %d queues, rate %s, %d s measured after %d s warm-up%n",
            r.label, r.status, r.agents.size(), w.threadsPerAgent, w.sendMode, r.clientMode, w.messageSize, w.topics, w.partitionsPerTopic,
            w.maxRateSearch ? "searched (producerRate 0)" : w.producerRate == 0 ? "unlimited" : Format.num(w.producerRate, 0) + " msg/s", w.testDurationSeconds, w.warmupDurationSeconds));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"", "msg/s", "sent", "acked", "failed", "p50 ms", "p99 ms", "p99.9 ms", "max ms"});
        for (RunResult.AgentView a : r.agents) {
            rows.add(row(a.name, a.tps, a.counts.sent, a.counts.acked + a.counts.unconfirmed, a.counts.failed, a.latencyMs));
        }
        if (r.counts != null) {
            rows.add(row("total", r.tps, r.counts.sent, r.counts.acked + r.counts.unconfirmed, r.counts.failed, r.latencyMs));
        }
        s.append(Table.render(rows));
        if (r.consumeTps != null) {
            s.append(String.format("consumers: %s msg/s in the window, end-to-end p50 %s ms, p99 %s ms, p99.9 %s ms, max %s ms%n",
                Format.num(r.consumeTps, 1), Format.num(r.endToEndLatencyMs.p50, 2), Format.num(r.endToEndLatencyMs.p99, 2),
                Format.num(r.endToEndLatencyMs.p999, 2), Format.num(r.endToEndLatencyMs.max, 2)));
        }
        if (r.delivery != null) {
            for (dev.rmqpatch.bench.delivery.DeliveryCheck.Subscription sub : r.delivery.subscriptions) {
                s.append(String.format("count check %s (%d consumers): %s acknowledged, %s received, %s missing, %s duplicates%n", sub.group,
                    sub.consumers, Format.count(sub.acknowledged), Format.count(sub.received), Format.count(sub.missing),
                    Format.count(sub.duplicates)));
            }
        }
        if (r.sendDelayMs != null) {
            s.append(String.format("send delay (start vs intended time, rate-limited): p50 %s ms, p99 %s ms, max %s ms%n",
                Format.num(r.sendDelayMs.p50, 2), Format.num(r.sendDelayMs.p99, 2), Format.num(r.sendDelayMs.max, 2)));
        }
        if (r.agentCpuUsPerMsg != null) {
            s.append(String.format("agents: %s us CPU per message%n", Format.num(r.agentCpuUsPerMsg, 1)));
        }
        BrokerFigures b = r.broker;
        if (b != null) {
            s.append(String.format("broker: %s us CPU/msg, %s stored B/msg, %s msg/s stored, GC %s ms (%s collections), %s cores%n",
                Format.num(b.cpuUsPerMsg, 1), Format.num(b.storedBytesPerMsg, 1), Format.num(b.storedPerSecond, 0),
                Format.num(b.gcPauseMillis, 0), Format.num(b.gcCollections, 0), Format.num(b.brokerCores, 2)));
            if (b.machineBusyCores != null) {
                StringBuilder roles = new StringBuilder();
                if (b.roleCores != null) {
                    for (Map.Entry<String, Double> e : b.roleCores.entrySet()) {
                        roles.append(e.getKey()).append(' ').append(Format.num(e.getValue(), 2)).append(", ");
                    }
                }
                s.append(String.format("machine: %s of %d cores busy (%sother %s)%n", Format.num(b.machineBusyCores, 2),
                    Runtime.getRuntime().availableProcessors(), roles, Format.num(b.otherCores, 2)));
            }
        }
        if (!r.byError.isEmpty()) {
            s.append("errors:\n");
            r.byError.forEach((k, n) -> s.append(String.format("  %,d x %s  e.g. %s%n", n, k, r.errorSamples.get(k))));
        }
        for (String warning : r.warnings) {
            s.append("WARNING: ").append(warning).append('\n');
        }
        if (r.error != null) {
            s.append("ERROR: ").append(r.error).append('\n');
        }
        return s.toString();
    }

    private static String[] row(String name, Double tps, long sent, long acked, long failed, LatencySummary l) {
        return new String[] {name, Format.num(tps, 1), Format.count(sent), Format.count(acked), Format.count(failed),
            Format.num(l.p50, 2), Format.num(l.p99, 2), Format.num(l.p999, 2), Format.num(l.max, 2)};
    }
}
