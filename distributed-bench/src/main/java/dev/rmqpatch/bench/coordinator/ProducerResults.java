package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Merges what the agents' producers measured ({@code POST /stop} answers) into the run's result: one view per agent,
 * counts and outcomes summed, latency and send-delay histograms merged with Histogram.add, throughput and the agents'
 * CPU per message; an agent whose outcomes do not add up to its sends is a warning.
 */
final class ProducerResults {
    private ProducerResults() {
    }

    /** @param agents in the same order as {@code results}, for the agents' addresses */
    static void merge(RunResult result, List<AgentResult> results, List<AgentClient> agents) {
        Counts window = new Counts();
        Counts total = new Counts();
        List<Histogram> latencies = new ArrayList<>();
        List<Histogram> delays = new ArrayList<>();
        double tps = 0;
        long cpuNanos = 0;
        long cpuMessages = 0;
        for (int i = 0; i < results.size(); i++) {
            AgentResult r = results.get(i);
            RunResult.AgentView v = new RunResult.AgentView();
            v.name = r.name;
            v.address = agents.get(i).address();
            v.host = r.host;
            v.pid = r.pid;
            v.windowSeconds = r.windowNanos / 1e9;
            long done = r.window.acked + r.window.unconfirmed;
            v.tps = r.windowNanos > 0 ? done * 1e9 / r.windowNanos : null;
            v.counts = r.window;
            v.totalCounts = r.total;
            v.byStatus = r.byStatus;
            v.byError = r.byError;
            v.errorSamples = r.errorSamples;
            Histogram latency = Histograms.decode(r.latencyHistogram);
            latencies.add(latency);
            v.latencyMs = LatencySummary.of(latency);
            if (r.sendDelayHistogram != null) {
                Histogram delay = Histograms.decode(r.sendDelayHistogram);
                delays.add(delay);
                v.sendDelayMs = LatencySummary.of(delay);
            }
            v.cpuUsPerMsg = done > 0 ? r.cpuNanos / 1000.0 / done : null;
            v.client = r.client;
            v.lateAnswers = r.lateAnswers;
            result.agents.add(v);
            if (v.tps != null) {
                tps += v.tps;
            }
            cpuNanos += r.cpuNanos;
            cpuMessages += done;
            window.add(r.window);
            total.add(r.total);
            r.byStatus.forEach((k, n) -> result.byStatus.merge(k, n, Long::sum));
            r.byError.forEach((k, n) -> result.byError.merge(k, n, Long::sum));
            r.errorSamples.forEach(result.errorSamples::putIfAbsent);
            if (!r.window.balanced() || !r.total.balanced()) {
                result.warnings.add(r.name + ": outcomes do not add up to sends (window " + describe(r.window) + ", total "
                    + describe(r.total) + ")");
            }
        }
        Histogram merged = Histograms.merge(latencies);
        result.tps = tps;
        result.counts = window;
        result.totalCounts = total;
        result.latencyMs = LatencySummary.of(merged);
        result.latencyHistogram = Histograms.encode(merged);
        result.sendDelayMs = delays.isEmpty() ? null : LatencySummary.of(Histograms.merge(delays));
        result.agentCpuUsPerMsg = cpuMessages > 0 ? cpuNanos / 1000.0 / cpuMessages : null;
    }

    static String describe(Counts c) {
        return "sent " + c.sent + ", acked " + c.acked + ", failed " + c.failed + ", unconfirmed " + c.unconfirmed + ", in flight " + c.inFlight;
    }
}
