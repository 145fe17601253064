package dev.rmqpatch.codec.stats;

import java.util.concurrent.atomic.AtomicLong;

/**
 * P21. The rest of upstream's 4.9.2 counters (apache/rocketmq#3195, #3351): {@code StatsItem}'s {@code value} and
 * {@code times} (which {@code StatsItemSet.addValue}/{@code addRTValue} and BrokerStatsManager's
 * {@code incBrokerPutNums}/{@code incBrokerGetNums} add to for every send and pull: TOPIC_PUT_NUMS, TOPIC_PUT_SIZE,
 * BROKER_PUT_NUMS, GROUP_GET_NUMS ...) and the buckets of {@code StoreStatsService}'s put-latency histogram
 * ({@code putMessageDistributeTime}, one increment per put in {@code setPutMessageEntireTimeMax}).
 * Their allocations ({@code new AtomicLong(0)} in StatsItem's constructor and in
 * {@code initPutMessageDistributeTime}) call {@link #newCounter}, so every counter is an {@link AddedCounter} in
 * stock's own field or array; the writers, whose results stock discards, call {@link #add}/{@link #increment}
 * (LongAdder cells, no compare-and-set on a shared line), and every reader of these counters in 4.9.0
 * (StatsItem's {@code samplingInSeconds/Minutes/Hour}, StoreStatsService's {@code putMessageDistributeTimeToString}
 * and {@code printTps}) calls {@link #get}, stock's value, and {@code StatsItem.getValue()/getTimes()} return the
 * counter folded ({@link #read}): the AtomicLong stays the truth for stock's API, the adder is a write buffer
 * ({@link AddedCounter#fold}). The writers reach the counter through methods the patch adds ({@link #counter}), so
 * an add does not fold.
 */
public final class StatsItemCounters {

    private StatsItemCounters() {
    }

    /** Replaces {@code new AtomicLong(initialValue)} where these counters are built. */
    public static AtomicLong newCounter(long initialValue) {
        return new AddedCounter(initialValue);
    }

    /** Replaces {@code counter.addAndGet(delta)} at writer sites whose result is discarded (the patch checks POP2). */
    public static long add(AtomicLong counter, long delta) {
        if (counter instanceof AddedCounter) {
            ((AddedCounter) counter).add(delta);
            return 0L;
        }
        return counter.addAndGet(delta);
    }

    /** Replaces {@code counter.incrementAndGet()} at writer sites whose result is discarded. */
    public static long increment(AtomicLong counter) {
        return add(counter, 1L);
    }

    /** Replaces {@code counter.get()} in the readers: the value stock's AtomicLong would hold (the adder folded in). */
    public static long get(AtomicLong counter) {
        return AddedCounter.totalOf(counter);
    }

    /**
     * Replaces the bodies of {@code StatsItem.getValue()} and {@code getTimes()}, given the field: the counter with its
     * adder folded in, so that whoever reads it ({@code getValue().get()}: plugins, monitoring, upstream's tests) or
     * writes it ({@code getValue().addAndGet(x)}, {@code set}) sees and changes stock's value.
     */
    public static AtomicLong read(AtomicLong counter) {
        return AddedCounter.folded(counter);
    }

    /**
     * Behind the {@code StatsItem.rmqpatch$P21$value/times} methods the patch adds, which the patched writers
     * ({@code StatsItemSet.addValue/addRTValue}, BrokerStatsManager's {@code incBroker*}) call instead of
     * {@code getValue()/getTimes()}: the counter as it is, unfolded, for the add that follows.
     */
    public static AtomicLong counter(AtomicLong counter) {
        return counter;
    }
}
