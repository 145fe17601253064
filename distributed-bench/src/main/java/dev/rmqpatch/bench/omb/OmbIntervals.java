package dev.rmqpatch.bench.omb;

import dev.rmqpatch.bench.stats.Histograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Collects the coordinator's per-second figures of the measured phase into OMB's 10-second intervals (OMB's chart script
 * draws entry i at 10 * i seconds) and builds an {@link OmbResult}. Histograms are added, never averaged. A last
 * interval shorter than 10 s is kept when it lasted at least a second (short runs would otherwise have no interval);
 * its rates are per second of its own length.
 */
public final class OmbIntervals {
    public static final int INTERVAL_SECONDS = 10;

    private final OmbResult result;
    private final int subscriptionsPerTopic;
    private Histogram latency = Histograms.create();
    private Histogram delay = Histograms.create();
    private Histogram endToEnd = Histograms.create();
    private final Histogram allDelay = Histograms.create();
    private long nanos;
    private long acked;
    private long failed;
    private long consumed;
    private int seconds;
    private long backlog;

    /** The run's description in OMB's terms; {@code subscriptionsPerTopic} for OMB's backlog formula. */
    public OmbIntervals(String workload, String driver, int messageSize, int topics, int partitions, int producersPerTopic,
                        int consumerPerSubscription, int subscriptionsPerTopic) {
        result = new OmbResult();
        result.workload = workload;
        result.driver = driver;
        result.messageSize = messageSize;
        result.topics = topics;
        result.partitions = partitions;
        result.producersPerTopic = producersPerTopic;
        // OMB writes consumerPerSubscription here.
        result.consumersPerTopic = consumerPerSubscription;
        this.subscriptionsPerTopic = subscriptionsPerTopic;
    }

    /**
     * One second of the measured phase over all agents: how long it really lasted, acknowledged and failed sends,
     * deliveries, the merged histograms (µs; null = none), and the totals for OMB's backlog (subscriptionsPerTopic x
     * acknowledged since start minus received by all subscriptions).
     */
    public void second(long intervalNanos, long acked, long failed, long consumed, Histogram latency, Histogram delay,
                       Histogram endToEnd, long ackedSinceStart, long receivedByAllSubscriptions) {
        this.nanos += intervalNanos;
        this.acked += acked;
        this.failed += failed;
        this.consumed += consumed;
        add(this.latency, latency);
        add(this.delay, delay);
        add(this.allDelay, delay);
        add(this.endToEnd, endToEnd);
        this.backlog = Math.max(0, subscriptionsPerTopic * ackedSinceStart - receivedByAllSubscriptions);
        if (++seconds == INTERVAL_SECONDS) {
            close();
        }
    }

    private static void add(Histogram to, Histogram from) {
        if (from != null) {
            to.add(from);
        }
    }

    private void close() {
        double elapsed = nanos / 1e9;
        result.publishRate.add(acked / elapsed);
        result.publishErrorRate.add(failed / elapsed);
        result.consumeRate.add(consumed / elapsed);
        result.backlog.add(backlog);
        result.publishLatencyAvg.add(millis(latency.getMean()));
        result.publishLatency50pct.add(millis(latency.getValueAtPercentile(50)));
        result.publishLatency75pct.add(millis(latency.getValueAtPercentile(75)));
        result.publishLatency95pct.add(millis(latency.getValueAtPercentile(95)));
        result.publishLatency99pct.add(millis(latency.getValueAtPercentile(99)));
        result.publishLatency999pct.add(millis(latency.getValueAtPercentile(99.9)));
        result.publishLatency9999pct.add(millis(latency.getValueAtPercentile(99.99)));
        result.publishLatencyMax.add(millis(latency.getMaxValue()));
        result.publishDelayLatencyAvg.add(delay.getMean());
        result.publishDelayLatency50pct.add(delay.getValueAtPercentile(50));
        result.publishDelayLatency75pct.add(delay.getValueAtPercentile(75));
        result.publishDelayLatency95pct.add(delay.getValueAtPercentile(95));
        result.publishDelayLatency99pct.add(delay.getValueAtPercentile(99));
        result.publishDelayLatency999pct.add(delay.getValueAtPercentile(99.9));
        result.publishDelayLatency9999pct.add(delay.getValueAtPercentile(99.99));
        result.publishDelayLatencyMax.add(delay.getMaxValue());
        result.endToEndLatencyAvg.add(millis(endToEnd.getMean()));
        result.endToEndLatency50pct.add(millis(endToEnd.getValueAtPercentile(50)));
        result.endToEndLatency75pct.add(millis(endToEnd.getValueAtPercentile(75)));
        result.endToEndLatency95pct.add(millis(endToEnd.getValueAtPercentile(95)));
        result.endToEndLatency99pct.add(millis(endToEnd.getValueAtPercentile(99)));
        result.endToEndLatency999pct.add(millis(endToEnd.getValueAtPercentile(99.9)));
        result.endToEndLatency9999pct.add(millis(endToEnd.getValueAtPercentile(99.99)));
        result.endToEndLatencyMax.add(millis(endToEnd.getMaxValue()));
        latency = Histograms.create();
        delay = Histograms.create();
        endToEnd = Histograms.create();
        nanos = 0;
        acked = 0;
        failed = 0;
        consumed = 0;
        seconds = 0;
    }

    /**
     * The result, its aggregated figures from the whole window's histograms (µs): the publish latency and end-to-end
     * latency the run reports in results.json (null = none), and the send delay of every second collected here.
     */
    public OmbResult finish(Histogram windowLatency, Histogram windowEndToEnd) {
        if (seconds > 0 && nanos >= 1_000_000_000L) {
            close();
        }
        Histogram pub = windowLatency != null ? windowLatency : Histograms.create();
        result.aggregatedPublishLatencyAvg = millis(pub.getMean());
        result.aggregatedPublishLatency50pct = millis(pub.getValueAtPercentile(50));
        result.aggregatedPublishLatency75pct = millis(pub.getValueAtPercentile(75));
        result.aggregatedPublishLatency95pct = millis(pub.getValueAtPercentile(95));
        result.aggregatedPublishLatency99pct = millis(pub.getValueAtPercentile(99));
        result.aggregatedPublishLatency999pct = millis(pub.getValueAtPercentile(99.9));
        result.aggregatedPublishLatency9999pct = millis(pub.getValueAtPercentile(99.99));
        result.aggregatedPublishLatencyMax = millis(pub.getMaxValue());
        result.aggregatedPublishDelayLatencyAvg = allDelay.getMean();
        result.aggregatedPublishDelayLatency50pct = allDelay.getValueAtPercentile(50);
        result.aggregatedPublishDelayLatency75pct = allDelay.getValueAtPercentile(75);
        result.aggregatedPublishDelayLatency95pct = allDelay.getValueAtPercentile(95);
        result.aggregatedPublishDelayLatency99pct = allDelay.getValueAtPercentile(99);
        result.aggregatedPublishDelayLatency999pct = allDelay.getValueAtPercentile(99.9);
        result.aggregatedPublishDelayLatency9999pct = allDelay.getValueAtPercentile(99.99);
        result.aggregatedPublishDelayLatencyMax = allDelay.getMaxValue();
        Histogram e2e = windowEndToEnd != null ? windowEndToEnd : Histograms.create();
        result.aggregatedEndToEndLatencyAvg = millis(e2e.getMean());
        result.aggregatedEndToEndLatency50pct = millis(e2e.getValueAtPercentile(50));
        result.aggregatedEndToEndLatency75pct = millis(e2e.getValueAtPercentile(75));
        result.aggregatedEndToEndLatency95pct = millis(e2e.getValueAtPercentile(95));
        result.aggregatedEndToEndLatency99pct = millis(e2e.getValueAtPercentile(99));
        result.aggregatedEndToEndLatency999pct = millis(e2e.getValueAtPercentile(99.9));
        result.aggregatedEndToEndLatency9999pct = millis(e2e.getValueAtPercentile(99.99));
        result.aggregatedEndToEndLatencyMax = millis(e2e.getMaxValue());
        // OMB's quantile maps: HdrHistogram's percentile iteration, 100 steps per halving of the distance to 100%.
        for (HistogramIterationValue v : pub.percentiles(100)) {
            result.aggregatedPublishLatencyQuantiles.put(v.getPercentile(), millis(v.getValueIteratedTo()));
        }
        for (HistogramIterationValue v : allDelay.percentiles(100)) {
            result.aggregatedPublishDelayLatencyQuantiles.put(v.getPercentile(), v.getValueIteratedTo());
        }
        for (HistogramIterationValue v : e2e.percentiles(100)) {
            result.aggregatedEndToEndLatencyQuantiles.put(v.getPercentile(), millis(v.getValueIteratedTo()));
        }
        return result;
    }

    private static double millis(double micros) {
        return micros / 1000.0;
    }
}
