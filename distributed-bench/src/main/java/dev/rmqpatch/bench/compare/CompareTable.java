package dev.rmqpatch.bench.compare;

import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The text table and the spread verdicts that compare prints and writes to table.txt. */
public final class CompareTable {
    private CompareTable() {
    }

    public static String render(CompareResults results, int rounds) {
        String base = results.baseline;
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"variant", "msg/s", "(min-max)", "x" + base, Format.LATENCY_HEADER, "p99 x",
            "broker us/msg", "(min-max)", "x", "stored B/msg", "x", "GC ms"});
        for (CompareResults.VariantResult v : results.variants) {
            if (v.tps == null) {
                continue;
            }
            rows.add(new String[] {
                v.name,
                Format.num(v.tps.median, 0),
                range(v.tps, 0),
                Format.ratio(v.ratioToBaseline.get("tps")),
                Format.latency(v.latencyMs),
                Format.ratio(v.ratioToBaseline.get("p99")),
                Format.num(v.brokerCpuUsPerMsg.median, 1),
                range(v.brokerCpuUsPerMsg, 1),
                Format.ratio(v.ratioToBaseline.get("brokerCpuUsPerMsg")),
                Format.num(v.storedBytesPerMsg.median, 1),
                Format.ratio(v.ratioToBaseline.get("storedBytesPerMsg")),
                Format.num(v.gcPauseMs.median, 0)});
        }
        StringBuilder s = new StringBuilder(Table.render(rows));
        String consumers = consumeTable(results);
        if (consumers != null) {
            s.append(consumers);
        }
        s.append(String.format(Locale.ROOT, "medians over %d interleaved round(s); latency percentiles from all rounds' histograms merged; "
            + "x = ratio to %s%n", rounds, base));
        Object topology = results.metadata.get("topology");
        if (topology != null) {
            s.append(topologyLine(results, topology.toString())).append('\n');
        }
        s.append("client: ").append(results.clientMode == null ? "rocketmq" : results.clientMode);
        List<String> agentCpu = new ArrayList<>();
        for (CompareResults.VariantResult v : results.variants) {
            if (v.agentCpuUsPerMsg != null && v.agentCpuUsPerMsg.median != null) {
                agentCpu.add(v.name + " " + Format.num(v.agentCpuUsPerMsg.median, 1));
            }
        }
        if (!agentCpu.isEmpty()) {
            s.append("; agent us CPU/msg (median): ").append(String.join(", ", agentCpu));
        }
        s.append('\n');
        s.append(busiestThreads(results));
        CompareResults.Ceiling c = results.harnessCeiling;
        if (c != null && c.tps != null) {
            s.append(String.format(Locale.ROOT, "harness ceiling (same agents, workload and client against the raw sink%s): %,.0f msg/s, " + Format.LATENCY_HEADER + " %s, "
                + "agents %s us CPU/msg, sink %s us CPU/msg%n", consumers != null ? ", produce only: the sink stores nothing to consume" : "", c.tps, Format.latency(c.latencyMs),
                Format.num(c.agentCpuUsPerMsg, 1), Format.num(c.sinkCpuUsPerMsg, 1)));
            if (c.timesBaselineTps != null || c.baselineAgentToBrokerCpu != null) {
                s.append(String.format(Locale.ROOT, "headroom: the ceiling is %sx %s's msg/s; in its rounds the agents spent %sx its broker's CPU "
                    + "per message%n", Format.num(c.timesBaselineTps, 2), results.baseline, Format.num(c.baselineAgentToBrokerCpu, 2)));
            }
        }
        CompareResults.Ceiling f = results.remotingFloor;
        if (f != null && f.tps != null) {
            s.append(String.format(Locale.ROOT, "remoting floor (the same against the stock-remoting sink): %,.0f msg/s, sink %s us CPU/msg: what "
                + "the stock remoting layer costs a broker before it stores anything%n", f.tps, Format.num(f.sinkCpuUsPerMsg, 1)));
        }
        for (CompareResults.VariantResult v : results.variants) {
            if (v.errorsByKind != null) {
                s.append(String.format(Locale.ROOT, "errors %s: %s%n", v.name, v.errorsByKind));
            }
        }
        for (String verdict : verdicts(results)) {
            s.append(verdict).append('\n');
        }
        for (String w : results.warnings) {
            s.append("WARNING: ").append(w).append('\n');
        }
        return s.toString();
    }

    /** Runs with consumers: a second table of consume msg/s, end-to-end latency and the count check; null without. */
    static String consumeTable(CompareResults results) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"variant", "consume msg/s", "(min-max)", "x", "e2e " + Format.LATENCY_HEADER, "e2e p99 x",
            "missing", "duplicates"});
        for (CompareResults.VariantResult v : results.variants) {
            if (v.consumeTps == null) {
                continue;
            }
            rows.add(new String[] {
                v.name,
                Format.num(v.consumeTps.median, 0),
                range(v.consumeTps, 0),
                Format.ratio(v.ratioToBaseline.get("consumeTps")),
                Format.latency(v.endToEndLatencyMs),
                Format.ratio(v.ratioToBaseline.get("endToEndP99")),
                v.missingMessages == null ? "-" : Format.count(v.missingMessages),
                v.duplicateMessages == null ? "-" : Format.count(v.duplicateMessages)});
        }
        if (rows.size() == 1) {
            return null;
        }
        return "\n" + Table.render(rows) + "consume msg/s: deliveries per second in the measured window (medians over rounds); e2e: consume "
            + "time minus the send time stamped in the body, all rounds merged; missing: acknowledged sends a subscription never "
            + "received (summed over subscriptions and rounds), after the consumers were given time to drain\n";
    }

    private static String topologyLine(CompareResults results, String topology) {
        Object description = results.metadata.get("topologyDescription");
        StringBuilder line = new StringBuilder("topology " + topology + (description == null ? "" : " (" + description + ")"));
        List<String> slaves = new ArrayList<>();
        for (CompareResults.VariantResult v : results.variants) {
            if (v.slaveCpuUsPerMsg != null && v.slaveCpuUsPerMsg.median != null) {
                slaves.add(v.name + " " + Format.num(v.slaveCpuUsPerMsg.median, 1));
            }
        }
        if (!slaves.isEmpty() || !"single".equals(topology)) {
            line.append("; broker us/msg is the master's; slave us/msg (median): ").append(slaves.isEmpty() ? "-" : String.join(", ", slaves));
        }
        return line.toString();
    }

    private static String range(Spread s, int decimals) {
        return s.min == null ? "-" : "(" + Format.num(s.min, decimals) + "-" + Format.num(s.max, decimals) + ")";
    }

    /** Per variant and figure: the ratio, and whether it stands out of the round-to-round spread. */
    public static List<String> verdicts(CompareResults results) {
        List<String> out = new ArrayList<>();
        for (CompareResults.VariantResult v : results.variants) {
            if (v.name.equals(results.baseline) || v.tps == null || v.ratioToBaseline.isEmpty()) {
                continue;
            }
            out.add(String.format(Locale.ROOT, "%s vs %s: msg/s %s (%s), broker CPU/msg %s (%s), stored B/msg %s (%s)", v.name, results.baseline,
                Format.ratio(v.ratioToBaseline.get("tps")), verdict(v.rangeOverlapsBaseline.get("tps")),
                Format.ratio(v.ratioToBaseline.get("brokerCpuUsPerMsg")), verdict(v.rangeOverlapsBaseline.get("brokerCpuUsPerMsg")),
                Format.ratio(v.ratioToBaseline.get("storedBytesPerMsg")), verdict(v.rangeOverlapsBaseline.get("storedBytesPerMsg"))));
        }
        return out;
    }

    private static String verdict(Boolean overlaps) {
        if (overlaps == null) {
            return "spread unknown: needs 2+ rounds";
        }
        return overlaps ? "within the round-to-round spread" : "outside the spread";
    }

    /**
     * Per variant, the broker's busiest thread in each round (cores it used) and context switches per message: a thread
     * near 1.0 cores limits the broker however many CPUs the host has. Empty when no round has thread figures.
     */
    static String busiestThreads(CompareResults results) {
        List<String> parts = new ArrayList<>();
        for (CompareResults.VariantResult v : results.variants) {
            List<String> rounds = new ArrayList<>();
            List<String> switches = new ArrayList<>();
            for (CompareResults.RoundResult r : v.rounds) {
                if (r.busiestBrokerThread != null) {
                    rounds.add(r.busiestBrokerThread + " " + Format.num(r.busiestBrokerThreadCores, 2));
                }
                if (r.brokerContextSwitchesPerMsg != null) {
                    switches.add(Format.num(r.brokerContextSwitchesPerMsg, 2));
                }
            }
            if (!rounds.isEmpty()) {
                parts.add(v.name + ": " + String.join(", ", rounds) + (switches.isEmpty() ? "" : "; cs/msg " + String.join(", ", switches)));
            }
        }
        return parts.isEmpty() ? "" : "busiest broker thread per round (cores; 1.00 = one CPU all the time), context switches per "
            + "message: " + String.join(" | ", parts) + "\n";
    }
}
