package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.compare.ChartWriter;
import dev.rmqpatch.bench.compare.Spread;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * chart.png: the harness's panels ({@link ChartWriter#panel}), a bar per variant and latency-fault setting for the
 * median over the rounds with every round as a dot: time to move, p99.9 send latency, the other broker's p99 during
 * the stalls, and the share of sends routed to the stalled broker during its stalls.
 */
final class FailoverChart {
    private FailoverChart() {
    }

    static void write(FailoverResults results, Path png) throws IOException {
        List<String> names = new ArrayList<>();
        results.summary.forEach(c -> names.add(c.label()));
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(ChartWriter.panel("Time to move off " + results.metadata.get("stalledBroker") + ", median per round (lower is better)",
            "ms", names, spreads(results, "timeToMoveMedianMs")));
        charts.add(ChartWriter.panel("p99.9 send latency per round (lower is better)", "ms", names, spreads(results, "sendP999Ms")));
        charts.add(ChartWriter.panel("p99 of sends to the other broker during the stalls", "ms", names,
            spreads(results, "elsewhereDuringStallsP99Ms")));
        charts.add(ChartWriter.panel("Share of sends routed to the stalled broker during its stalls", "share", names,
            spreads(results, "shareToStalledDuringStalls")));
        ChartWriter.save(charts, png);
    }

    private static List<Spread> spreads(FailoverResults results, String figure) {
        List<Spread> s = new ArrayList<>();
        results.summary.forEach(c -> s.add(c.perRound.get(figure)));
        return s;
    }
}
