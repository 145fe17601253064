package dev.rmqpatch.bench.failover;

import java.util.List;

/**
 * How fast the producers moved off a stalling broker, for one stall: the sends whose first attempt the producers routed
 * to the stalled broker or elsewhere while it stalled, and two times from the stall's start.
 * <ul>
 * <li>{@link #lastToStalledMs}: the start of the last send routed to the stalled broker that began during the stall
 * (issue 43's "until sends stop being routed to broker-a"); null when none began.</li>
 * <li>{@link #moveMs}, the time to move: from the stall's start to the first send routed elsewhere that began at or
 * after that last one. Producers blocked on the stalled broker send nothing anywhere, so a low last start alone would
 * look like a quick move; the first send elsewhere after it says when they were actually sending to the other broker.
 * About the stall's length or more when the producers waited the stall out; null when no such send was recorded.</li>
 * </ul>
 */
public final class TimeToMove {
    public int n;
    /** The stall's start (epoch ms) and length. */
    public long at;
    public long ms;
    /** Sends whose first attempt went to the stalled broker, begun during the stall. */
    public long sendsToStalled;
    /** Sends whose first attempt went to another broker, begun during the stall. */
    public long sendsElsewhere;
    public Long lastToStalledMs;
    public Long moveMs;
    /** Whether the move came before the stall ended. */
    public boolean movedWithinStall;

    /**
     * The figures of the stall {@code n} at {@code at} (epoch ms), {@code ms} long, on broker {@code stalled}, from
     * {@code sends} (any order).
     */
    public static TimeToMove of(int n, long at, long ms, String stalled, List<SendRecord> sends) {
        TimeToMove t = new TimeToMove();
        t.n = n;
        t.at = at;
        t.ms = ms;
        long end = at + ms;
        long lastA = Long.MIN_VALUE;
        for (SendRecord s : sends) {
            if (s.startMillis() < at || s.startMillis() >= end) {
                continue;
            }
            if (stalled.equals(s.firstBroker())) {
                t.sendsToStalled++;
                lastA = Math.max(lastA, s.startMillis());
            } else if (s.firstBroker() != null) {
                t.sendsElsewhere++;
            }
        }
        t.lastToStalledMs = lastA == Long.MIN_VALUE ? null : lastA - at;
        long from = lastA == Long.MIN_VALUE ? at : lastA;
        long firstElsewhere = Long.MAX_VALUE;
        for (SendRecord s : sends) {
            if (s.startMillis() >= from && s.firstBroker() != null && !stalled.equals(s.firstBroker())) {
                firstElsewhere = Math.min(firstElsewhere, s.startMillis());
            }
        }
        t.moveMs = firstElsewhere == Long.MAX_VALUE ? null : firstElsewhere - at;
        t.movedWithinStall = t.moveMs != null && t.moveMs < ms;
        return t;
    }
}
