package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.protocol.Counts;
import dev.rmqpatch.bench.stats.Histograms;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and latency recorders of one phase (warm-up or measurement). A send is charged to the phase in which it
 * was issued, also when its answer arrives after the phase ended, so each phase's outcomes add up to its sends and
 * resetting for the measurement window never loses or double-counts a message.
 */
public final class PhaseStats {
    private static final int MAX_SAMPLE_LENGTH = 300;

    private final LongAdder sent = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder unconfirmed = new LongAdder();
    private final Map<String, LongAdder> byStatus = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> byError = new ConcurrentHashMap<>();
    private final Map<String, String> errorSamples = new ConcurrentHashMap<>();
    private final Recorder latency = new Recorder(Histograms.SIGNIFICANT_DIGITS);
    private final Recorder sendDelay = new Recorder(Histograms.SIGNIFICANT_DIGITS);
    private final Histogram cumulativeLatency = Histograms.create();
    private final Histogram cumulativeSendDelay = Histograms.create();
    private final long startNanos;

    private long lastDrainNanos;
    private long reportedSent;
    private long reportedAcked;
    private long reportedFailed;
    private Histogram recycledInterval;
    private final Map<String, Long> reportedByError = new java.util.HashMap<>();

    public PhaseStats(long startNanos) {
        this.startNanos = startNanos;
        this.lastDrainNanos = startNanos;
    }

    public long startNanos() {
        return startNanos;
    }

    public void onSent() {
        sent.increment();
    }

    public void onAcked(String status, long latencyNanos, long sendDelayNanos) {
        byStatus.computeIfAbsent(status, k -> new LongAdder()).increment();
        latency.recordValue(micros(latencyNanos));
        if (sendDelayNanos >= 0) {
            sendDelay.recordValue(micros(sendDelayNanos));
        }
        acked.increment();
    }

    public void onUnconfirmed(long callNanos, long sendDelayNanos) {
        latency.recordValue(micros(callNanos));
        if (sendDelayNanos >= 0) {
            sendDelay.recordValue(micros(sendDelayNanos));
        }
        unconfirmed.increment();
    }

    public void onFailed(Throwable error) {
        String key = errorKey(error);
        byError.computeIfAbsent(key, k -> new LongAdder()).increment();
        errorSamples.computeIfAbsent(key, k -> describe(error));
        failed.increment();
    }

    /** A failure already classified by the caller (the wire agent: broker response code, timeout, lost connection). */
    public void onFailed(String key, java.util.function.Supplier<String> sample) {
        byError.computeIfAbsent(key, k -> new LongAdder()).increment();
        errorSamples.computeIfAbsent(key, k -> {
            String text = String.valueOf(sample.get());
            return text.length() <= MAX_SAMPLE_LENGTH ? text : text.substring(0, MAX_SAMPLE_LENGTH) + "...";
        });
        failed.increment();
    }

    private static long micros(long nanos) {
        return Math.max(0, (nanos + 500) / 1000);
    }

    /**
     * Groups failures by what the operator would act on: exception type, plus the broker's response code where there
     * is one (14 = system busy, 2 = system error ...), plus the root cause type for wrapped client exceptions.
     */
    static String errorKey(Throwable error) {
        String key = error.getClass().getSimpleName();
        if (error instanceof org.apache.rocketmq.client.exception.MQBrokerException) {
            key += "(code=" + ((org.apache.rocketmq.client.exception.MQBrokerException) error).getResponseCode() + ")";
        } else if (error instanceof org.apache.rocketmq.client.exception.MQClientException) {
            int code = ((org.apache.rocketmq.client.exception.MQClientException) error).getResponseCode();
            if (code != -1) {
                key += "(code=" + code + ")";
            }
            Throwable cause = error.getCause();
            if (cause != null && cause != error) {
                key += "/" + errorKey(cause);
            }
        }
        return key;
    }

    private static String describe(Throwable error) {
        String text = String.valueOf(error);
        return text.length() <= MAX_SAMPLE_LENGTH ? text : text.substring(0, MAX_SAMPLE_LENGTH) + "...";
    }

    /** Latency and counts since the previous call; also folds the interval into this phase's cumulative histogram. */
    public synchronized Interval drainInterval(long nowNanos) {
        recycledInterval = latency.getIntervalHistogram(recycledInterval);
        cumulativeLatency.add(recycledInterval);
        Histogram delays = sendDelay.getIntervalHistogram();
        cumulativeSendDelay.add(delays);
        long s = sent.sum();
        // Oneway sends have no answer; for the progress line they count as done when the call returned.
        long done = acked.sum() + unconfirmed.sum();
        long f = failed.sum();
        Map<String, Long> kinds = new TreeMap<>();
        byError.forEach((k, v) -> {
            long n = v.sum() - reportedByError.getOrDefault(k, 0L);
            if (n > 0) {
                kinds.put(k, n);
            }
            reportedByError.put(k, v.sum());
        });
        Interval interval = new Interval(nowNanos - lastDrainNanos, s - reportedSent, done - reportedAcked,
            f - reportedFailed, recycledInterval.copy(), kinds);
        interval.sendDelay = delays;
        reportedSent = s;
        reportedAcked = done;
        reportedFailed = f;
        lastDrainNanos = nowNanos;
        return interval;
    }

    /** Everything recorded so far; drains the recorders, so call it once the phase has ended. */
    public synchronized Histogram cumulativeLatency() {
        recycledInterval = latency.getIntervalHistogram(recycledInterval);
        cumulativeLatency.add(recycledInterval);
        return cumulativeLatency.copy();
    }

    public synchronized Histogram cumulativeSendDelay() {
        cumulativeSendDelay.add(sendDelay.getIntervalHistogram());
        return cumulativeSendDelay.copy();
    }

    public Counts counts(long inFlight) {
        Counts c = new Counts();
        c.acked = acked.sum();
        c.failed = failed.sum();
        c.unconfirmed = unconfirmed.sum();
        c.inFlight = inFlight;
        // Read last: an answer counted above was sent before, so sent can only be larger, never smaller.
        c.sent = sent.sum();
        return c;
    }

    public Map<String, Long> byStatus() {
        return snapshot(byStatus);
    }

    public Map<String, Long> byError() {
        return snapshot(byError);
    }

    public Map<String, String> errorSamples() {
        return new TreeMap<>(errorSamples);
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** One progress interval. */
    public static final class Interval {
        public final long nanos;
        public final long sent;
        public final long acked;
        public final long failed;
        public final Histogram latency;
        /** Send delay (actual start minus intended, µs) of this interval's rate-limited sends; empty when unlimited. */
        public Histogram sendDelay;
        /** Failures of this interval by kind (the keys of {@link #byError()}). */
        public final Map<String, Long> errorsByKind;

        Interval(long nanos, long sent, long acked, long failed, Histogram latency, Map<String, Long> errorsByKind) {
            this.errorsByKind = errorsByKind;
            this.nanos = nanos;
            this.sent = sent;
            this.acked = acked;
            this.failed = failed;
            this.latency = latency;
        }
    }
}
