package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.rmqpatch.codec.stats.StatsItemCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P21 (StatsItem counters and the put-latency histogram): the counter writes one send makes after its put, from as
 * many threads as the machine has cores all sending to one topic: TOPIC_PUT_NUMS' value and times, TOPIC_PUT_SIZE's
 * value and times, BROKER_PUT_NUMS' value (StatsItemSet.addValue and BrokerStatsManager.incBrokerPutNums), and one
 * bucket of StoreStatsService's histogram ({@code setPutMessageEntireTimeMax}). Stock: the AtomicLongs stock
 * allocates ({@code addAndGet}, {@code incrementAndGet}: a compare-and-set on lines every thread writes). Patched: the
 * counters {@code StatsItemCounters.newCounter} builds and the calls the patched sites make (LongAdder cells). The map
 * lookups around them are the same in both and left out. With one core the two should be close: the contention is
 * what is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(Threads.MAX)
public class StatsItemsBenchmark {

    /** A 300-byte body as stored. */
    static final int STORED_SIZE = 420;

    /** One broker's counters, shared by every sending thread as in the broker. */
    @State(Scope.Benchmark)
    public static class Counters {
        public AtomicLong[] stock;
        public AtomicLong[] patched;

        @Setup
        public void create() {
            // putNums value, putNums times, putSize value, putSize times, brokerPutNums value, a histogram bucket
            stock = new AtomicLong[6];
            patched = new AtomicLong[6];
            for (int i = 0; i < stock.length; i++) {
                stock[i] = new AtomicLong(0);
                patched[i] = StatsItemCounters.newCounter(0);
            }
        }
    }

    @Benchmark
    public long stock(Counters c) {
        AtomicLong[] a = c.stock;
        a[0].addAndGet(1);
        a[1].addAndGet(1);
        a[2].addAndGet(STORED_SIZE);
        a[3].addAndGet(1);
        a[4].incrementAndGet();
        return a[5].incrementAndGet();
    }

    @Benchmark
    public long patched(Counters c) {
        AtomicLong[] a = c.patched;
        StatsItemCounters.add(a[0], 1);
        StatsItemCounters.add(a[1], 1);
        StatsItemCounters.add(a[2], STORED_SIZE);
        StatsItemCounters.add(a[3], 1);
        StatsItemCounters.increment(a[4]);
        return StatsItemCounters.increment(a[5]);
    }
}
