package dev.rmqpatch.codec.stats;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.store.StoreStatsService;

/**
 * P18. The store's per-topic put counters ({@code StoreStatsService}'s putMessageTopicTimesTotal and
 * putMessageTopicSizeTotal, which every put on a master and every replicated message a slave's reput dispatches add
 * to) become {@link AddedCounter}s in stock's own maps under stock's keys; the put paths reach them through methods
 * the patch adds ({@link #counter}) and add to their LongAdder without a compare-and-set loop; every reader folds
 * the adders into the AtomicLongs first ({@link AddedCounter#fold}): the two totals ({@code getPutMessageTimesTotal},
 * {@code getPutMessageSizeTotal}, behind runtime info, brokerStatus, BrokerStats and the TPS sampling) and the public
 * getters that hand a counter or a map to stock's API ({@link #readTopic}, {@link #foldAll}), so every reported or
 * read number is stock's. Upstream made these counters LongAdders in 4.9.2
 * (apache/rocketmq#3195).
 */
public final class TopicPutCounters {

    private TopicPutCounters() {
    }

    /**
     * Replaces the bodies of {@code StoreStatsService.getSinglePutMessageTopicTimesTotal(String)} and
     * {@code getSinglePutMessageTopicSizeTotal(String)}, given their map: the topic's counter (created as stock creates
     * it) with its adder folded in, so that whoever reads or adds to it through stock's API sees stock's count.
     */
    public static AtomicLong readTopic(Map<String, AtomicLong> map, String topic) {
        return AddedCounter.folded(counter(map, topic));
    }

    /**
     * Replaces the bodies of {@code StoreStatsService.getPutMessageTopicTimesTotal()} and
     * {@code getPutMessageTopicSizeTotal()}: the map itself, every counter in it folded first.
     */
    public static Map<String, AtomicLong> foldAll(Map<String, AtomicLong> map) {
        for (AtomicLong c : map.values()) {
            AddedCounter.folded(c);
        }
        return map;
    }

    /** Replaces the body of {@code StoreStatsService.getPutMessageTimesTotal()}. */
    public static long timesTotal(StoreStatsService stats) {
        return total(stats.getPutMessageTopicTimesTotal());
    }

    /** Replaces the body of {@code StoreStatsService.getPutMessageSizeTotal()}. */
    public static long sizeTotal(StoreStatsService stats) {
        return total(stats.getPutMessageTopicSizeTotal());
    }

    /**
     * Stock's get-or-create on the concurrent map (one counter per topic, whichever thread creates it first), unfolded:
     * behind the {@code StoreStatsService.rmqpatch$P18$topicTimes/topicSize} methods the patch adds, which the put
     * paths call instead of {@code getSinglePutMessageTopic*Total}, so that a put does not fold.
     */
    public static AtomicLong counter(Map<String, AtomicLong> map, String topic) {
        AtomicLong c = map.get(topic);
        if (c == null) {
            AtomicLong created = new AddedCounter();
            AtomicLong previous = map.putIfAbsent(topic, created);
            c = previous != null ? previous : created;
        }
        return c;
    }

    /** Stock's sum over the map's counters, each read as stock's value. */
    static long total(Map<String, AtomicLong> map) {
        long sum = 0;
        for (AtomicLong c : map.values()) {
            sum += AddedCounter.totalOf(c);
        }
        return sum;
    }

    /**
     * Replaces {@code counter.incrementAndGet()} at put-path sites whose result is discarded (each is followed by
     * POP2, which the patch checks): on an AddedCounter the add alone, returning 0; on any other AtomicLong stock's call.
     */
    public static long increment(AtomicLong counter) {
        return add(counter, 1L);
    }

    /** Replaces {@code counter.addAndGet(delta)} at put-path sites whose result is discarded; see {@link #increment}. */
    public static long add(AtomicLong counter, long delta) {
        if (counter instanceof AddedCounter) {
            ((AddedCounter) counter).add(delta);
            return 0L;
        }
        return counter.addAndGet(delta);
    }
}
