package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.report.Table;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** table.txt: two plain-text tables (the sends; moving off the stalled broker), one row per variant and setting. */
final class FailoverTable {
    private FailoverTable() {
    }

    static String render(FailoverResults results) {
        StringBuilder b = new StringBuilder();
        Map<String, Object> m = results.metadata;
        b.append("Failover under stalls of ").append(m.get("stalledBroker")).append(" (").append(m.get("stall")).append(", ")
            .append(m.get("stallTimes")).append("; ").append(m.get("producers")).append(" producers, ")
            .append(Format.num(m.get("rate") instanceof Number n ? n.doubleValue() : null, 0)).append(" msg/s, ").append(m.get("size")).append(" B, sync; ").append(m.get("durationSeconds")).append(" s measured after ")
            .append(m.get("warmupSeconds")).append(" s warm-up; rounds pooled)\n\n");
        List<String[]> sends = new ArrayList<>();
        sends.add(new String[] {"variant", "latency fault", "rounds", "sends", "msg/s", "p50/p99/p99.9 ms", "max ms", "SEND_OK",
            "SYSTEM_BUSY", "other status/error", "timeout", "client error", "missing"});
        for (FailoverResults.Cell c : results.summary) {
            FailoverFigures f = c.pooled;
            sends.add(new String[] {c.variant, c.latencyFault, Integer.toString(c.rounds), Format.count(f.sends),
                Format.num(f.sendsPerSecond, 0), Format.latency(f.latencyMs), Format.num(f.latencyMs.max, 1),
                count(f, SendOutcome.SEND_OK), count(f, SendOutcome.SYSTEM_BUSY),
                Format.count(f.outcomes.getOrDefault(SendOutcome.BROKER_ERROR.name(), 0L) + f.outcomes.getOrDefault(SendOutcome.OTHER_STATUS.name(), 0L)),
                count(f, SendOutcome.TIMEOUT), count(f, SendOutcome.CLIENT_ERROR), Format.count(f.missing) + " of " + Format.count(f.acked)});
        }
        b.append(Table.render(sends)).append('\n');
        List<String[]> moves = new ArrayList<>();
        moves.add(new String[] {"variant", "latency fault", "stalls", "to " + m.get("stalledBroker") + " during/outside stalls",
            "time to move med/max ms", "waited out", "last send to " + m.get("stalledBroker") + " med/max ms", "retried elsewhere",
            "other broker during stalls p50/p99/max ms", "outside stalls p50/p99/max ms"});
        for (FailoverResults.Cell c : results.summary) {
            FailoverFigures f = c.pooled;
            moves.add(new String[] {c.variant, c.latencyFault, Integer.toString(f.stalls),
                pct(f.shareToStalledDuringStalls) + " / " + pct(f.shareToStalledOutsideStalls),
                Format.num(f.timeToMoveMedianMs, 0) + " / " + Format.num(f.timeToMoveMaxMs, 0), f.stallsWaitedOut + " of " + f.stalls,
                Format.num(f.lastToStalledMedianMs, 0) + " / " + Format.num(f.lastToStalledMaxMs, 0), Format.count(f.retriedElsewhere),
                withMax(f.elsewhereDuringStallsMs), withMax(f.elsewhereOutsideStallsMs)});
        }
        b.append(Table.render(moves));
        b.append("\ntime to move: from a stall's start to the first send routed elsewhere after the last one routed to the stalled\n"
            + "broker during it (about the stall's length: the producers waited it out). Routed = the first attempt's broker.\n");
        return b.toString();
    }

    private static String count(FailoverFigures f, SendOutcome o) {
        return Format.count(f.outcomes.getOrDefault(o.name(), 0L));
    }

    private static String pct(Double share) {
        return share == null ? "-" : Format.pct(share);
    }

    private static String withMax(LatencySummary l) {
        return l == null || l.count == 0 ? "-" : Format.latency(l.p50, l.p99, l.max);
    }
}
