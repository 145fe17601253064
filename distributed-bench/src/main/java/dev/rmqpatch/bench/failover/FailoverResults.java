package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.compare.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * results.json of a failover run: what ran (metadata), per variant and latency-fault setting the figures of all its
 * rounds pooled with the spread of the main ones over the rounds, and every run's own figures, stalls and per-stall
 * times to move.
 */
public final class FailoverResults {
    public Map<String, Object> metadata = new LinkedHashMap<>();
    public List<Cell> summary = new ArrayList<>();
    public List<Run> runs = new ArrayList<>();
    public String error;

    /** One variant at one latency-fault setting, over its rounds. */
    public static final class Cell {
        public String variant;
        public String latencyFault;
        public int rounds;
        /** Every round's sends and stalls pooled (per-stall figures: see the runs). */
        public FailoverFigures pooled;
        /** The main figures per round, in round order, with their median, min and max. */
        public Map<String, Spread> perRound = new LinkedHashMap<>();

        public String label() {
            return variant + " lf " + latencyFault;
        }
    }

    /** One run: a fresh cluster, one variant, one latency-fault setting. */
    public static final class Run {
        public int round;
        public String variant;
        public String latencyFault;
        /** Its folder (confs, server output and logs, sends.csv), relative to the output folder. */
        public String folder;
        public FailoverFigures figures;
        /** broker-a's stalls as its output printed them. */
        public StoreStalls.Record stalls;
        /**
         * The measured window (epoch ms) and when broker-a's JVM started: stalls are due {@code stallAfterMillis} after
         * the latter, so these say whether they fell early or late in the window (tune --warmup with them).
         */
        public Long windowFrom;
        public Long windowTo;
        public Long brokerAStartedAt;
        public long readBackStored;
        public int readBackPasses;
        public String error;
    }

    /** The figures the chart and the per-round spreads show, by name. */
    static final Map<String, Function<FailoverFigures, Double>> PER_ROUND = perRound();

    private static Map<String, Function<FailoverFigures, Double>> perRound() {
        Map<String, Function<FailoverFigures, Double>> m = new LinkedHashMap<>();
        m.put("timeToMoveMedianMs", f -> f.timeToMoveMedianMs);
        m.put("timeToMoveMaxMs", f -> f.timeToMoveMaxMs);
        m.put("lastToStalledMedianMs", f -> f.lastToStalledMedianMs);
        m.put("sendP99Ms", f -> f.latencyMs.p99);
        m.put("sendP999Ms", f -> f.latencyMs.p999);
        m.put("sendMaxMs", f -> f.latencyMs.max);
        m.put("elsewhereDuringStallsP99Ms", f -> f.elsewhereDuringStallsMs.p99);
        m.put("shareToStalledDuringStalls", f -> f.shareToStalledDuringStalls);
        m.put("failedSends", f -> (double) (f.sends - f.outcomes.getOrDefault(SendOutcome.SEND_OK.name(), 0L)));
        m.put("missing", f -> (double) f.missing);
        return m;
    }

    /** Builds the summary cells from the runs recorded so far and their data, in the order variants and settings first ran. */
    void summarize(List<String> variants, List<LatencyFault> faults, Map<Run, FailoverFigures.RunData> data) {
        summary.clear();
        for (LatencyFault f : faults) {
            for (String v : variants) {
                Cell c = new Cell();
                c.variant = v;
                c.latencyFault = f.label();
                List<FailoverFigures.RunData> pooled = new ArrayList<>();
                List<FailoverFigures> rounds = new ArrayList<>();
                for (Run r : runs) {
                    if (r.variant.equals(v) && r.latencyFault.equals(f.label()) && r.figures != null) {
                        pooled.add(data.get(r));
                        rounds.add(r.figures);
                    }
                }
                if (rounds.isEmpty()) {
                    continue;
                }
                c.rounds = rounds.size();
                c.pooled = FailoverFigures.of(pooled);
                c.pooled.perStall = null;
                PER_ROUND.forEach((name, figure) -> c.perRound.put(name, Spread.of(rounds.stream().map(figure).toList())));
                summary.add(c);
            }
        }
    }
}
