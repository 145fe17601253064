package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.AddDelegate;
import dev.rmqpatch.patches.transform.DelegateFields;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.ReplaceAllocation;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P21. Targets: {@code StatsItem}'s constructor (its {@code value} and {@code times} counters) and its three readers
 * {@code samplingInSeconds/Minutes/Hour}, the writers {@code StatsItemSet.addValue} and {@code addRTValue} in
 * rocketmq-common; {@code BrokerStatsManager.incBrokerPutNums()}, {@code incBrokerPutNums(int)},
 * {@code incBrokerGetNums(int)}, and {@code StoreStatsService}'s put-latency histogram (built in the private
 * {@code initPutMessageDistributeTime}, incremented in {@code setPutMessageEntireTimeMax}, read by
 * {@code putMessageDistributeTimeToString} and {@code printTps}) in rocketmq-store.
 * Replacement: codec's {@code StatsItemCounters}: the counters' {@code new AtomicLong(0)} allocations call a factory
 * that returns an {@code AddedCounter} (P18's AtomicLong with a LongAdder beside it) in stock's own field or array;
 * the writers (whose results stock discards) add to the adder, reaching the counters through two methods the patch adds
 * to StatsItem ({@code rmqpatch$P21$value/times}) instead of {@code getValue()/getTimes()}; the adder is a write buffer
 * that every reader folds into the AtomicLong first (exactly, under a lock): the samplers and the histogram's readers,
 * and {@code StatsItem.getValue()/getTimes()}, whose AtomicLong therefore holds stock's count for whoever reads or
 * writes it through stock's API (plugins, monitoring, upstream's StatsItemSetTest and BrokerStatsManagerTest).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class StatsItemsPatch implements Patch {

    @Override
    public String id() {
        return "P21";
    }

    @Override
    public String name() {
        return "stats-items";
    }

    @Override
    public String buys() {
        return "the StatsItem counters and the put-latency histogram add to LongAdders, no CAS loop on a shared "
            + "line per message; same statistics (upstream 4.9.2)";
    }

    @Override
    public String effect() {
        return "Each send and pull adds to its StatsItems' value and times counters, and each put to its latency bucket, "
            + "in LongAdder cells instead of by compare-and-set on shared AtomicLongs; the counters stay in stock's "
            + "fields and array, and every reader (the StatsItem sampling behind BrokerStats and VIEW_BROKER_STATS_DATA, "
            + "the histogram in runtime info and the [PAGECACHERT] log, StatsItem.getValue() and getTimes()) folds the "
            + "cells into the AtomicLong first, so the same values are reported and read through stock's API.";
    }

    @Override
    public String why() {
        return "Every sending thread adds to the same StatsItem counters (BROKER_PUT_NUMS has one item per broker, "
            + "TOPIC_PUT_NUMS/SIZE one per topic) and to one histogram bucket after each put, so under concurrent "
            + "sends the cache lines bounce between cores and the CASes retry; upstream made them LongAdders in 4.9.2 "
            + "(apache/rocketmq#3195, #3351: +5.4% TPS for 300-byte messages with P18's counters).";
    }

    @Override
    public String verification() {
        return "The stock and patched classes, loaded side by side, report the same StatsItem snapshots (sum, times, "
            + "average), the same getValue()/getTimes() counts (also after writes through getValue().addAndGet) and the same "
            + "histogram after the same random adds, reads and samples from one and from several threads, and "
            + "with -Drmqpatch.disable=P21 the patched jars build stock's plain AtomicLongs; a master reports the same "
            + "TOPIC_PUT_NUMS, TOPIC_PUT_SIZE and BROKER_PUT_NUMS (VIEW_BROKER_STATS_DATA) after the same sends with the "
            + "patch on and off.";
    }

    @Override
    public String tests() {
        return "StatsItemsIT, StatsCountersIT; codec: StatsItemCountersTest";
    }

    @Override
    public String benchmark() {
        return "StatsItemsBenchmark; end to end: scripts/compare.sh --efficiency with and without -Drmqpatch.disable=P21";
    }

    /** Added to StatsItem: the raw counters, for the writers (an add must not fold). */
    static final MethodRef ADDED_VALUE = new MethodRef(Stock.STATS_ITEM, "rmqpatch$P21$value",
        "(L" + Stock.STATS_ITEM + ";)L" + Stock.ATOMIC_LONG + ";");
    static final MethodRef ADDED_TIMES = new MethodRef(Stock.STATS_ITEM, "rmqpatch$P21$times", ADDED_VALUE.desc);

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "StatsItem's counters are LongAdders from 4.9.2: no new AtomicLong(long) in "
            + "StatsItem.<init> (witness only, not read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        List<MethodRef> value = Collections.singletonList(Stock.STATS_ITEM_VALUE_FIELD);
        List<MethodRef> times = Collections.singletonList(Stock.STATS_ITEM_TIMES_FIELD);
        return Arrays.<MethodEdit>asList(
            new ReplaceAllocation(Stock.STATS_ITEM_INIT, Stock.ATOMIC_LONG, "(J)V", Codec.STATS_NEW_COUNTER, 2),
            new AddDelegate(Stock.STATS_ITEM_GET_VALUE, value, ADDED_VALUE, Collections.singletonList(value),
                Codec.STATS_COUNTER),
            new AddDelegate(Stock.STATS_ITEM_GET_TIMES, times, ADDED_TIMES, Collections.singletonList(times),
                Codec.STATS_COUNTER),
            new DelegateFields(Stock.STATS_ITEM_GET_VALUE, Collections.singletonList(value), Codec.STATS_READ),
            new DelegateFields(Stock.STATS_ITEM_GET_TIMES, Collections.singletonList(times), Codec.STATS_READ),
            raw(Stock.STATS_ITEM_SET_ADD_VALUE, Stock.STATS_ITEM_GET_VALUE, ADDED_VALUE),
            raw(Stock.STATS_ITEM_SET_ADD_VALUE, Stock.STATS_ITEM_GET_TIMES, ADDED_TIMES),
            raw(Stock.STATS_ITEM_SET_ADD_RT_VALUE, Stock.STATS_ITEM_GET_VALUE, ADDED_VALUE),
            raw(Stock.STATS_ITEM_SET_ADD_RT_VALUE, Stock.STATS_ITEM_GET_TIMES, ADDED_TIMES),
            raw(Stock.BSM_INC_BROKER_PUT_NUMS, Stock.STATS_ITEM_GET_VALUE, ADDED_VALUE),
            raw(Stock.BSM_INC_BROKER_PUT_NUMS_BY, Stock.STATS_ITEM_GET_VALUE, ADDED_VALUE),
            raw(Stock.BSM_INC_BROKER_GET_NUMS, Stock.STATS_ITEM_GET_VALUE, ADDED_VALUE),
            get(Stock.STATS_ITEM_SAMPLING_SECONDS, 2),
            get(Stock.STATS_ITEM_SAMPLING_MINUTES, 2),
            get(Stock.STATS_ITEM_SAMPLING_HOUR, 2),
            new DiscardedResultCall(Stock.STATS_ITEM_SET_ADD_VALUE, Stock.ATOMIC_LONG_ADD, Codec.STATS_ADD, 2),
            new DiscardedResultCall(Stock.STATS_ITEM_SET_ADD_RT_VALUE, Stock.ATOMIC_LONG_ADD, Codec.STATS_ADD, 2),
            new DiscardedResultCall(Stock.BSM_INC_BROKER_PUT_NUMS, Stock.ATOMIC_LONG_INCREMENT, Codec.STATS_INCREMENT, 1),
            new DiscardedResultCall(Stock.BSM_INC_BROKER_PUT_NUMS_BY, Stock.ATOMIC_LONG_ADD, Codec.STATS_ADD, 1),
            new DiscardedResultCall(Stock.BSM_INC_BROKER_GET_NUMS, Stock.ATOMIC_LONG_ADD, Codec.STATS_ADD, 1),
            new ReplaceAllocation(Stock.SSS_INIT_DISTRIBUTE_TIME, Stock.ATOMIC_LONG, "(J)V", Codec.STATS_NEW_COUNTER, 1),
            new DiscardedResultCall(Stock.SSS_SET_PUT_TIME_MAX, Stock.ATOMIC_LONG_INCREMENT, Codec.STATS_INCREMENT, 13),
            get(Stock.SSS_DISTRIBUTE_TIME_TO_STRING, 1),
            get(Stock.SSS_PRINT_TPS, 1));
    }

    /** A writer's one {@code getValue()/getTimes()} call: the raw counter (the added method), not the folding getter. */
    private static MethodEdit raw(MethodRef writer, MethodRef getter, MethodRef added) {
        return ReplaceCall.ofInstanceCallToAdded(writer, getter, Opcodes.INVOKEVIRTUAL, added, 1);
    }

    /** A reader's {@code counter.get()} calls: stock's value, AtomicLong plus adder. */
    private static MethodEdit get(MethodRef reader, int sites) {
        return ReplaceCall.ofInstanceCall(reader, Stock.ATOMIC_LONG_GET, Opcodes.INVOKEVIRTUAL, Codec.STATS_GET, sites);
    }
}
