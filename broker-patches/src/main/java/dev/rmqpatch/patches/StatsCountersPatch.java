package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P18. Targets: {@code StoreStatsService.getSinglePutMessageTopicTimesTotal(String)} and
 * {@code getSinglePutMessageTopicSizeTotal(String)} (get-or-create of a topic's counters), the maps' two readers
 * {@code getPutMessageTimesTotal()} and {@code getPutMessageSizeTotal()}, and the adds to the counters in
 * {@code CommitLog}'s four put paths and in the reput thread's {@code doReput} (a slave counts every replicated message
 * there), in rocketmq-store.
 * Replacement: codec's {@code TopicPutCounters}: a topic's counters are {@code AddedCounter}s (an AtomicLong, the
 * maps' type, with a LongAdder beside it) in stock's own maps under stock's keys; the put paths' adds (whose results
 * stock discards) go to the LongAdder, and the two readers sum AtomicLong plus adder, so runtime info, BrokerStats and
 * the TPS sampling report stock's numbers. AtomicLong's methods are final, so no counter can be a LongAdder that
 * every stock reader reads unchanged: the readers are patched instead; 4.9.0 has no other reader of these counters. This is the per-topic half of upstream's 4.9.2 change (apache/rocketmq#3195); the put-latency histogram
 * ({@code setPutMessageEntireTimeMax}) and {@code StatsItem} (#3351), whose counters are built in a constructor and a
 * private method, are P21's ({@code StatsItemsPatch}, with the {@code ReplaceAllocation} shape).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class StatsCountersPatch implements Patch {

    @Override
    public String id() {
        return "P18";
    }

    @Override
    public String name() {
        return "stats-counters";
    }

    @Override
    public String buys() {
        return "the store's per-topic put counters add to a LongAdder, no CAS loop on a shared line per put; same "
            + "statistics (upstream 4.9.2)";
    }

    @Override
    public String effect() {
        return "Each put (and each message a slave's reput dispatches) adds to its topic's message and byte counters "
            + "in LongAdder cells instead of by compare-and-set on one AtomicLong per topic; the counters stay in "
            + "StoreStatsService's maps, whose two readers add the cells in, so runtime info, brokerStatus and the "
            + "TPS figures report the same values.";
    }

    @Override
    public String why() {
        return "Every sending thread increments the same two AtomicLongs of a topic after each put "
            + "(docs/send-path.md row 10), so under concurrent sends the cache line bounces between cores and "
            + "the CAS retries; upstream measured +5.4% TPS for 300-byte messages from the store and StatsItem "
            + "counters together (apache/rocketmq#3195, #3351).";
    }

    @Override
    public String verification() {
        return "A master's and its slave's runtime info (mqadmin brokerStatus) report the same putMessageTimesTotal and "
            + "putMessageSizeTotal after the same sends with the patch on and with -Drmqpatch.disable=P18 (which restores "
            + "stock's plain AtomicLongs); the same random puts from several threads give stock's per-topic counters.";
    }

    @Override
    public String tests() {
        return "StatsCountersIT, MasterSlaveIT; codec: TopicPutCountersTest";
    }

    @Override
    public String benchmark() {
        return "TopicPutCountersBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P18";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.SSS_TOPIC_TIMES, Codec.COUNTERS_TOPIC_TIMES),
            new DelegateBody(Stock.SSS_TOPIC_SIZE, Codec.COUNTERS_TOPIC_SIZE),
            new DelegateBody(Stock.SSS_TIMES_TOTAL, Codec.COUNTERS_TIMES_TOTAL),
            new DelegateBody(Stock.SSS_SIZE_TOTAL, Codec.COUNTERS_SIZE_TOTAL),
            new DiscardedResultCall(Stock.COMMIT_LOG_ASYNC_PUT, Stock.ATOMIC_LONG_INCREMENT, Codec.COUNTERS_INCREMENT, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_ASYNC_PUT, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_PUT, Stock.ATOMIC_LONG_INCREMENT, Codec.COUNTERS_INCREMENT, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_PUT, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_ASYNC_PUT_BATCH, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 2),
            new DiscardedResultCall(Stock.COMMIT_LOG_PUT_BATCH, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 2),
            new DiscardedResultCall(Stock.REPUT_DO_REPUT, Stock.ATOMIC_LONG_INCREMENT, Codec.COUNTERS_INCREMENT, 1),
            new DiscardedResultCall(Stock.REPUT_DO_REPUT, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 1));
    }
}
