package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The figures of one run, or of several pooled (a variant's rounds at one latency-fault setting): send latency,
 * outcomes, where the sends went during the stalled broker's stalls and outside them, the time to move per stall
 * ({@link TimeToMove}), the other broker's latency during the stalls, and what was acknowledged but not read back.
 * Only sends begun in the measured window count, and only stalls wholly inside it.
 */
public final class FailoverFigures {
    /** What one run recorded: its sends, the stalled broker's stalls, the measured window (epoch ms) and the read-back. */
    public record RunData(String stalledBroker, List<SendRecord> sends, List<StoreStalls.Stall> stalls, long from, long to,
                          long acked, long missing, long skippedSlots) {
    }

    public long sends;
    public double seconds;
    public Double sendsPerSecond;
    /**
     * Sends a producer thread left out because it was over a second behind its schedule (blocked sends, a slow first
     * send); counted over the whole run, warm-up included.
     */
    public long skippedSlots;
    /** Every send, whatever its outcome, from the start of {@code send} to its return. */
    public LatencySummary latencyMs;
    public Map<String, Long> outcomes = new LinkedHashMap<>();
    /** Failures by the broker's response code or the exception's type. */
    public Map<String, Long> failuresByKind = new TreeMap<>();
    /** Sends whose last attempt went to another broker than the first (the client's retry). */
    public long retriedElsewhere;
    public int stalls;
    public long toStalledDuringStalls;
    public long elsewhereDuringStalls;
    public long toStalledOutsideStalls;
    public long elsewhereOutsideStalls;
    /** Share of the sends routed to the stalled broker during its stalls, and outside them. */
    public Double shareToStalledDuringStalls;
    public Double shareToStalledOutsideStalls;
    /** The time to move ({@link TimeToMove#moveMs}) over the stalls: median and max; stalls with none recorded left out. */
    public Double timeToMoveMedianMs;
    public Double timeToMoveMaxMs;
    /** Stalls whose move came only after the stall ended (or never): the producers waited them out. */
    public int stallsWaitedOut;
    /** {@link TimeToMove#lastToStalledMs} over the stalls: median and max. */
    public Double lastToStalledMedianMs;
    public Double lastToStalledMaxMs;
    /** Sends routed to the other broker(s) first: begun during the stalls, and outside them (should be alike). */
    public LatencySummary elsewhereDuringStallsMs;
    public LatencySummary elsewhereOutsideStallsMs;
    /** SEND_OK sends, and those of them not found when both brokers' queues were read back. */
    public long acked;
    public long missing;
    public List<TimeToMove> perStall = new ArrayList<>();

    public static FailoverFigures of(List<RunData> runs) {
        FailoverFigures f = new FailoverFigures();
        for (SendOutcome o : SendOutcome.values()) {
            f.outcomes.put(o.name(), 0L);
        }
        Histogram all = histogram();
        Histogram elsewhereIn = histogram();
        Histogram elsewhereOut = histogram();
        List<Double> moves = new ArrayList<>();
        List<Double> lasts = new ArrayList<>();
        for (RunData r : runs) {
            f.seconds += (r.to - r.from) / 1000.0;
            f.acked += r.acked;
            f.missing += r.missing;
            f.skippedSlots += r.skippedSlots;
            List<StoreStalls.Stall> inWindow = new ArrayList<>();
            for (StoreStalls.Stall s : r.stalls) {
                if (s.at >= r.from && s.at + s.ms <= r.to) {
                    inWindow.add(s);
                }
            }
            List<SendRecord> window = new ArrayList<>();
            for (SendRecord s : r.sends) {
                if (s.startMillis() < r.from || s.startMillis() >= r.to) {
                    continue;
                }
                window.add(s);
                f.sends++;
                all.recordValue(Math.max(0, s.latencyMicros()));
                f.outcomes.merge(s.outcome().name(), 1L, Long::sum);
                if (s.outcome() != SendOutcome.SEND_OK && s.outcome() != SendOutcome.OTHER_STATUS) {
                    f.failuresByKind.merge(s.outcome().name() + " " + s.detail(), 1L, Long::sum);
                }
                if (s.firstBroker() != null && s.lastBroker() != null && !s.firstBroker().equals(s.lastBroker())) {
                    f.retriedElsewhere++;
                }
                boolean during = inWindow.stream().anyMatch(st -> s.startMillis() >= st.at && s.startMillis() < st.at + st.ms);
                boolean toStalled = r.stalledBroker.equals(s.firstBroker());
                if (s.firstBroker() == null) {
                    continue;
                }
                if (during) {
                    if (toStalled) {
                        f.toStalledDuringStalls++;
                    } else {
                        f.elsewhereDuringStalls++;
                        elsewhereIn.recordValue(Math.max(0, s.latencyMicros()));
                    }
                } else if (toStalled) {
                    f.toStalledOutsideStalls++;
                } else {
                    f.elsewhereOutsideStalls++;
                    elsewhereOut.recordValue(Math.max(0, s.latencyMicros()));
                }
            }
            for (StoreStalls.Stall s : inWindow) {
                TimeToMove t = TimeToMove.of(s.n, s.at, s.ms, r.stalledBroker, window);
                f.perStall.add(t);
                if (t.moveMs != null) {
                    moves.add(t.moveMs.doubleValue());
                }
                if (!t.movedWithinStall) {
                    f.stallsWaitedOut++;
                }
                if (t.lastToStalledMs != null) {
                    lasts.add(t.lastToStalledMs.doubleValue());
                }
            }
        }
        f.stalls = f.perStall.size();
        f.sendsPerSecond = f.seconds > 0 ? f.sends / f.seconds : null;
        f.latencyMs = LatencySummary.of(all);
        f.elsewhereDuringStallsMs = LatencySummary.of(elsewhereIn);
        f.elsewhereOutsideStallsMs = LatencySummary.of(elsewhereOut);
        f.shareToStalledDuringStalls = share(f.toStalledDuringStalls, f.elsewhereDuringStalls);
        f.shareToStalledOutsideStalls = share(f.toStalledOutsideStalls, f.elsewhereOutsideStalls);
        f.timeToMoveMedianMs = median(moves);
        f.timeToMoveMaxMs = moves.isEmpty() ? null : Collections.max(moves);
        f.lastToStalledMedianMs = median(lasts);
        f.lastToStalledMaxMs = lasts.isEmpty() ? null : Collections.max(lasts);
        return f;
    }

    private static Histogram histogram() {
        return new Histogram(3);
    }

    private static Double share(long part, long rest) {
        return part + rest == 0 ? null : (double) part / (part + rest);
    }

    /** The median (the mean of the middle two for an even count), or null for none. */
    static Double median(List<Double> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
