package dev.rmqpatch.codec.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import dev.rmqpatch.codec.Concurrently;
import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.store.StoreStatsService;
import org.junit.jupiter.api.Test;

/**
 * P18 against stock {@code StoreStatsService}: the same puts (single messages, batches, a slave's reput, and a caller
 * that still uses the AtomicLong API as DLedgerCommitLog does), random in topic, size and kind, recorded once through
 * stock's code on one service and once through the patched code on another, from one thread and from several at
 * once; every statistic a broker reports from these counters must be equal.
 */
class TopicPutCountersTest {

    private static final int THREADS = 4;

    @Test
    void sameStatisticsAsStockForRandomPutsFromOneThread() {
        long seed = Seeds.seed();
        StoreStatsService stock = new StoreStatsService();
        StoreStatsService patched = new StoreStatsService();
        Random r = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            Put p = Put.random(r);
            p.stock(stock);
            p.patched(patched);
            if (i % 997 == 0) {
                assertSameStatistics(stock, patched, Seeds.replay(seed, i));
            }
        }
        assertSameStatistics(stock, patched, Seeds.replay(seed, -1));
    }

    @Test
    void sameStatisticsAsStockForRandomPutsFromConcurrentThreads() throws InterruptedException {
        long seed = Seeds.seed();
        StoreStatsService stock = new StoreStatsService();
        StoreStatsService patched = new StoreStatsService();
        Concurrently.run(THREADS, seed, r -> {
            for (int i = 0; i < 50_000; i++) {
                Put p = Put.random(r);
                p.stock(stock);
                p.patched(patched);
            }
        });
        assertSameStatistics(stock, patched, Seeds.replay(seed, -1));
    }

    @Test
    void oneCounterPerTopicInStocksMapsUnderStocksKeys() {
        StoreStatsService patched = new StoreStatsService();
        AtomicLong times = TopicPutCounters.counter(patched.getPutMessageTopicTimesTotal(), "T");
        assertTrue(times instanceof AddedCounter);
        assertSame(times, TopicPutCounters.counter(patched.getPutMessageTopicTimesTotal(), "T"));
        assertSame(times, TopicPutCounters.readTopic(patched.getPutMessageTopicTimesTotal(), "T"));
        assertSame(times, patched.getPutMessageTopicTimesTotal().get("T"));
        AtomicLong size = TopicPutCounters.counter(patched.getPutMessageTopicSizeTotal(), "T");
        assertSame(size, patched.getPutMessageTopicSizeTotal().get("T"));
        assertTrue(size != times);
    }

    @Test
    void aPlainAtomicLongIsAddedToAsStock() {
        AtomicLong plain = new AtomicLong(5);
        assertEquals(6L, TopicPutCounters.increment(plain));
        assertEquals(16L, TopicPutCounters.add(plain, 10));
        assertEquals(16L, plain.get());
    }

    @Test
    void aCounterFoldsItsAdderIntoItsAtomicLong() {
        AddedCounter c = new AddedCounter();
        c.add(40);
        c.incrementAndGet();
        c.addAndGet(2);
        c.add(-3);
        assertEquals(3L, c.get(), "adds to the adder are not in the AtomicLong until a fold");
        assertEquals(40L, c.total());
        assertEquals(40L, c.get(), "total() folded the adder into the AtomicLong");
        assertEquals(40L, c.total(), "a second fold adds nothing");
        c.add(5);
        c.addAndGet(1);
        assertEquals(46L, AddedCounter.totalOf(c));
        assertEquals(7L, AddedCounter.totalOf(new AtomicLong(7)));
    }

    /**
     * Everything the broker reports from these counters: the two totals (runtime info, brokerStatus, BrokerStats and
     * the TPS sampling all read them through the two patched readers) and every topic's pair.
     */
    private static void assertSameStatistics(StoreStatsService stock, StoreStatsService patched, String replay) {
        assertEquals(stock.getPutMessageTimesTotal(), TopicPutCounters.timesTotal(patched), replay);
        assertEquals(stock.getPutMessageSizeTotal(), TopicPutCounters.sizeTotal(patched), replay);
        assertSameValues(stock.getPutMessageTopicTimesTotal(),
            TopicPutCounters.foldAll(patched.getPutMessageTopicTimesTotal()), replay);
        assertSameValues(stock.getPutMessageTopicSizeTotal(),
            TopicPutCounters.foldAll(patched.getPutMessageTopicSizeTotal()), replay);
    }

    private static void assertSameValues(Map<String, AtomicLong> stock, Map<String, AtomicLong> patched, String replay) {
        assertEquals(stock.keySet(), patched.keySet(), replay);
        for (Map.Entry<String, AtomicLong> e : stock.entrySet()) {
            assertTrue(patched.get(e.getKey()) instanceof AddedCounter, replay);
            assertEquals(e.getValue().get(), patched.get(e.getKey()).get(), replay + " topic " + e.getKey()
                + ": the map's AtomicLong, as stock's API reads it after the patched getter");
        }
    }

    /** One put as the patched sites record it; {@link #stock} is 4.9.0's code at the same site. */
    private static final class Put {
        final int kind;
        final String topic;
        final int messages;
        final int bytes;

        private Put(int kind, String topic, int messages, int bytes) {
            this.kind = kind;
            this.topic = topic;
            this.messages = messages;
            this.bytes = bytes;
        }

        static Put random(Random r) {
            int kind = r.nextInt(4);
            String topic = "topic-" + r.nextInt(r.nextBoolean() ? 3 : 40);
            int messages = kind == 1 ? 1 + r.nextInt(64) : 1;
            return new Put(kind, topic, messages, messages * (20 + r.nextInt(4_000)));
        }

        /** CommitLog.asyncPutMessage / putMessage (0), the batch paths (1), doReput (2), DLedgerCommitLog (3). */
        void stock(StoreStatsService s) {
            if (kind == 1) {
                s.getSinglePutMessageTopicTimesTotal(topic).addAndGet(messages);
                s.getSinglePutMessageTopicSizeTotal(topic).addAndGet(bytes);
            } else {
                s.getSinglePutMessageTopicTimesTotal(topic).incrementAndGet();
                s.getSinglePutMessageTopicSizeTotal(topic).addAndGet(bytes);
            }
        }

        void patched(StoreStatsService s) {
            Map<String, AtomicLong> times = s.getPutMessageTopicTimesTotal(); // the raw map: the stock class here
            Map<String, AtomicLong> size = s.getPutMessageTopicSizeTotal();
            if (kind == 1) {
                TopicPutCounters.add(TopicPutCounters.counter(times, topic), messages);
                TopicPutCounters.add(TopicPutCounters.counter(size, topic), bytes);
            } else if (kind == 3) {
                // Not edited: DLedgerCommitLog's own calls go through the patched public getter and the AtomicLong API.
                TopicPutCounters.readTopic(times, topic).incrementAndGet();
                TopicPutCounters.readTopic(size, topic).addAndGet(bytes);
            } else {
                TopicPutCounters.increment(TopicPutCounters.counter(times, topic));
                TopicPutCounters.add(TopicPutCounters.counter(size, topic), bytes);
            }
        }
    }
}
