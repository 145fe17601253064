package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.AddDelegate;
import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.DelegateFields;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P18. Targets: {@code StoreStatsService.getSinglePutMessageTopicTimesTotal(String)} and
 * {@code getSinglePutMessageTopicSizeTotal(String)} (get-or-create of a topic's counters), the maps' getters
 * {@code getPutMessageTopicTimesTotal()} and {@code getPutMessageTopicSizeTotal()}, their two readers
 * {@code getPutMessageTimesTotal()} and {@code getPutMessageSizeTotal()}, and the calls and adds in {@code CommitLog}'s
 * four put paths and in the reput thread's {@code doReput} (a slave counts every replicated message there), in
 * rocketmq-store.
 * Replacement: codec's {@code TopicPutCounters}: a topic's counters are {@code AddedCounter}s (an AtomicLong, the
 * maps' type, with a LongAdder beside it) in stock's own maps under stock's keys; the put paths reach them through
 * two methods the patch adds ({@code rmqpatch$P18$topicTimes/topicSize}) and add to the LongAdder (stock discards the
 * results); the LongAdder is a write buffer that every reader folds into the AtomicLong first: the two totals (runtime
 * info, BrokerStats, the TPS sampling) and the public getters of a counter or a map, so whoever reads or adds through
 * stock's API (DLedgerCommitLog, plugins, upstream's tests) sees stock's count. AtomicLong's methods are final, so no
 * counter can be a LongAdder that every stock reader reads unchanged. This is the per-topic half of upstream's 4.9.2 change (apache/rocketmq#3195); the put-latency histogram
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
            + "StoreStatsService's maps, and every reader (the two totals, the public getters of a topic's counter and "
            + "of the maps) folds the cells in first, so runtime info, brokerStatus, the TPS figures and stock's API "
            + "report the same values.";
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
            + "stock's plain AtomicLongs); the same random puts from several threads give stock's per-topic counters, and "
            + "getSinglePutMessageTopicTimesTotal(t).get(), the maps and the totals show stock's values between puts.";
    }

    @Override
    public String tests() {
        return "StatsCountersIT, StatsItemsIT, MasterSlaveIT; codec: TopicPutCountersTest";
    }

    @Override
    public String benchmark() {
        return "TopicPutCountersBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P18";
    }

    /** Added to StoreStatsService: a topic's raw counter, for the put paths (a put must not fold). */
    static final MethodRef ADDED_TOPIC_TIMES = new MethodRef(Stock.STORE_STATS_SERVICE, "rmqpatch$P18$topicTimes",
        "(L" + Stock.STORE_STATS_SERVICE + ";Ljava/lang/String;)L" + Stock.ATOMIC_LONG + ";");
    static final MethodRef ADDED_TOPIC_SIZE = new MethodRef(Stock.STORE_STATS_SERVICE, "rmqpatch$P18$topicSize",
        ADDED_TOPIC_TIMES.desc);

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "the per-topic put counters are LongAdders from 4.9.2 (javap: the getters "
            + "return LongAdder)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        List<MethodRef> times = Collections.singletonList(Stock.SSS_TIMES_FIELD);
        List<MethodRef> size = Collections.singletonList(Stock.SSS_SIZE_FIELD);
        List<MethodEdit> edits = new ArrayList<MethodEdit>(Arrays.<MethodEdit>asList(
            new AddDelegate(Stock.SSS_TOPIC_TIMES, times, ADDED_TOPIC_TIMES, Collections.singletonList(times),
                Codec.COUNTERS_COUNTER),
            new AddDelegate(Stock.SSS_TOPIC_SIZE, size, ADDED_TOPIC_SIZE, Collections.singletonList(size),
                Codec.COUNTERS_COUNTER),
            new DelegateFields(Stock.SSS_TOPIC_TIMES, Collections.singletonList(times), Codec.COUNTERS_READ_TOPIC),
            new DelegateFields(Stock.SSS_TOPIC_SIZE, Collections.singletonList(size), Codec.COUNTERS_READ_TOPIC),
            new DelegateFields(Stock.SSS_TOPIC_TIMES_MAP, Collections.singletonList(times), Codec.COUNTERS_FOLD_ALL),
            new DelegateFields(Stock.SSS_TOPIC_SIZE_MAP, Collections.singletonList(size), Codec.COUNTERS_FOLD_ALL),
            new DelegateBody(Stock.SSS_TIMES_TOTAL, Codec.COUNTERS_TIMES_TOTAL),
            new DelegateBody(Stock.SSS_SIZE_TOTAL, Codec.COUNTERS_SIZE_TOTAL),
            new DiscardedResultCall(Stock.COMMIT_LOG_ASYNC_PUT, Stock.ATOMIC_LONG_INCREMENT, Codec.COUNTERS_INCREMENT, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_ASYNC_PUT, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_PUT, Stock.ATOMIC_LONG_INCREMENT, Codec.COUNTERS_INCREMENT, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_PUT, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 1),
            new DiscardedResultCall(Stock.COMMIT_LOG_ASYNC_PUT_BATCH, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 2),
            new DiscardedResultCall(Stock.COMMIT_LOG_PUT_BATCH, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 2),
            new DiscardedResultCall(Stock.REPUT_DO_REPUT, Stock.ATOMIC_LONG_INCREMENT, Codec.COUNTERS_INCREMENT, 1),
            new DiscardedResultCall(Stock.REPUT_DO_REPUT, Stock.ATOMIC_LONG_ADD, Codec.COUNTERS_ADD, 1)));
        for (MethodRef putPath : new MethodRef[] {Stock.COMMIT_LOG_ASYNC_PUT, Stock.COMMIT_LOG_PUT,
            Stock.COMMIT_LOG_ASYNC_PUT_BATCH, Stock.COMMIT_LOG_PUT_BATCH, Stock.REPUT_DO_REPUT}) {
            edits.add(ReplaceCall.ofInstanceCallToAdded(putPath, Stock.SSS_TOPIC_TIMES, Opcodes.INVOKEVIRTUAL,
                ADDED_TOPIC_TIMES, 1));
            edits.add(ReplaceCall.ofInstanceCallToAdded(putPath, Stock.SSS_TOPIC_SIZE, Opcodes.INVOKEVIRTUAL,
                ADDED_TOPIC_SIZE, 1));
        }
        return edits;
    }
}
