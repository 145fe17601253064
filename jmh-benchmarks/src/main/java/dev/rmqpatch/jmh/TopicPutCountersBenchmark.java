package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.stats.TopicPutCounters;
import org.apache.rocketmq.store.StoreStatsService;
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
 * P18 (store statistics counters): the per-topic statistics one put records at the end of
 * {@code CommitLog.asyncPutMessage} (its topic's message count up by one, its byte count up by a 300-byte message's
 * stored size), from as many threads as the machine has cores, all putting to one topic as a producer benchmark
 * does. Stock: {@code StoreStatsService}'s AtomicLongs ({@code incrementAndGet}, {@code addAndGet}: a compare-and-set
 * on a line every thread writes). Patched: {@code TopicPutCounters} (the same map lookups, then LongAdder cells).
 * With one core the two should be close: the contention is what is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(Threads.MAX)
public class TopicPutCountersBenchmark {

    /** A 300-byte body with a typical topic and properties, as stored (what {@code getWroteBytes()} returns). */
    static final long STORED_SIZE = 420;

    /** One broker's statistics, shared by every sending thread as in the broker. */
    @State(Scope.Benchmark)
    public static class Stats {
        public final String topic = "BenchmarkTopic";
        public StoreStatsService stock;
        public StoreStatsService patched;

        @Setup
        public void create() {
            stock = new StoreStatsService();
            patched = new StoreStatsService();
        }
    }

    @Benchmark
    public long stock(Stats s) {
        s.stock.getSinglePutMessageTopicTimesTotal(s.topic).incrementAndGet();
        return s.stock.getSinglePutMessageTopicSizeTotal(s.topic).addAndGet(STORED_SIZE);
    }

    @Benchmark
    public long patched(Stats s) {
        // What the patched put paths run: the added StoreStatsService methods hand the map field to counter().
        TopicPutCounters.increment(TopicPutCounters.counter(s.patched.getPutMessageTopicTimesTotal(), s.topic));
        return TopicPutCounters.add(TopicPutCounters.counter(s.patched.getPutMessageTopicSizeTotal(), s.topic), STORED_SIZE);
    }
}
