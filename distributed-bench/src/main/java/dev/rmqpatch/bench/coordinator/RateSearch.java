package dev.rmqpatch.bench.coordinator;

/**
 * OpenMessaging Benchmark's search for the maximum sustainable rate ({@code producerRate: 0} in a workload file), written
 * here after its documented behaviour: start at 10,000 msg/s and, every control period (3 s), compare what should have
 * been published at the current rate with what was acknowledged and what the slowest subscription received. When the
 * consumers lag by more than 1,000 messages, or the producers fall more than 1,000 messages short of the schedule, the
 * rate drops to what was actually achieved (less the shortfall) and the ramp factor halves (down to 1%); otherwise the
 * rate grows by the ramp factor, which doubles back up to 100%. Without consumers only the producers' shortfall counts.
 * Not thread-safe; the coordinator's progress loop owns it.
 */
public final class RateSearch {
    public static final double START_RATE = 10_000;
    public static final int CONTROL_PERIOD_SECONDS = 3;
    static final long PUBLISH_BACKLOG_LIMIT = 1_000;
    static final long RECEIVE_BACKLOG_LIMIT = 1_000;
    static final double MIN_RAMP = 0.01;
    static final double MAX_RAMP = 1.0;

    private double rate = START_RATE;
    private double ramp = MAX_RAMP;
    private long lastPublished;
    private long lastReceived;

    public double rate() {
        return rate;
    }

    /**
     * The rate for the next period, from the totals since the run started: messages acknowledged, and messages received by
     * the slowest subscription (pass {@code totalPublished} again when the run has no consumers).
     */
    public double next(long periodNanos, long totalPublished, long totalReceived) {
        double seconds = periodNanos / 1e9;
        long expected = (long) (rate * seconds);
        long published = totalPublished - lastPublished;
        long received = totalReceived - lastReceived;
        lastPublished = totalPublished;
        lastReceived = totalReceived;

        long receiveBacklog = totalPublished - totalReceived;
        if (receiveBacklog > RECEIVE_BACKLOG_LIMIT) {
            rate = lower(received, expected, receiveBacklog, seconds);
        } else if (expected - published > PUBLISH_BACKLOG_LIMIT) {
            rate = lower(published, expected, expected - published, seconds);
        } else {
            ramp = Math.min(MAX_RAMP, ramp * 2);
            rate = rate * (1 + ramp);
        }
        return rate;
    }

    private double lower(long achieved, long expected, long backlog, double seconds) {
        ramp = Math.max(MIN_RAMP, ramp / 2);
        double catchUp = Math.max(0, expected - backlog) / seconds;
        // Never 0: an agent given rate 0 would send unlimited; one message a second keeps the search alive.
        return Math.max(1, Math.min(achieved / seconds, catchUp));
    }
}
