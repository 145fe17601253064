package dev.rmqpatch.codec.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import dev.rmqpatch.codec.Concurrently;
import dev.rmqpatch.codec.Seeds;
import org.junit.jupiter.api.Test;

/**
 * P21's codec against stock's AtomicLong: the same random adds (StatsItemSet.addValue's value and times,
 * BrokerStatsManager's increments, a histogram bucket's increment), recorded once on stock's {@code new AtomicLong(0)}
 * with stock's calls and once on {@link StatsItemCounters#newCounter} with the patched calls, from one thread and
 * from several; what the patched readers read ({@link StatsItemCounters#get}) must be stock's {@code get()}.
 * The patched classes themselves are checked against stock in broker-patches' StatsItemsIT.
 */
class StatsItemCountersTest {

    private static final int THREADS = 4;
    private static final int COUNTERS = 6;

    @Test
    void sameValuesAsStockFromOneThread() {
        long seed = Seeds.seed();
        AtomicLong[] stock = counters(false);
        AtomicLong[] patched = counters(true);
        Random r = new Random(seed);
        for (int i = 0; i < 50_000; i++) {
            apply(r, stock, patched);
            if (i % 1_009 == 0) {
                assertSame(stock, patched, Seeds.replay(seed, i));
            }
        }
        assertSame(stock, patched, Seeds.replay(seed, -1));
    }

    @Test
    void sameValuesAsStockFromConcurrentThreads() throws InterruptedException {
        long seed = Seeds.seed();
        AtomicLong[] stock = counters(false);
        AtomicLong[] patched = counters(true);
        Concurrently.run(THREADS, seed, r -> {
            for (int i = 0; i < 100_000; i++) {
                apply(r, stock, patched);
            }
        });
        assertSame(stock, patched, Seeds.replay(seed, -1));
    }

    @Test
    void theFactoryBuildsAnAddedCounterHoldingTheInitialValue() {
        AtomicLong c = StatsItemCounters.newCounter(7);
        assertTrue(c instanceof AddedCounter);
        assertEquals(7L, c.get());
        assertEquals(0L, StatsItemCounters.add(c, 5), "the discarded result");
        assertEquals(0L, StatsItemCounters.increment(c));
        assertEquals(13L, StatsItemCounters.get(c));
    }

    @Test
    void aPlainAtomicLongIsReadAndAddedToAsStock() {
        AtomicLong plain = new AtomicLong(5);
        assertEquals(6L, StatsItemCounters.increment(plain));
        assertEquals(16L, StatsItemCounters.add(plain, 10));
        assertEquals(16L, StatsItemCounters.get(plain));
    }

    private static AtomicLong[] counters(boolean patched) {
        AtomicLong[] c = new AtomicLong[COUNTERS];
        for (int i = 0; i < c.length; i++) {
            c[i] = patched ? StatsItemCounters.newCounter(0) : new AtomicLong(0);
        }
        return c;
    }

    /**
     * One random write, stock's call on stock's counter and the patched call on the patched one; or a read or a write
     * through stock's API ({@code StatsItem.getValue()}, which folds: {@link StatsItemCounters#read}), which in one
     * thread must show stock's value, and from several threads, racing with the adds, must lose and double nothing.
     */
    private static void apply(Random r, AtomicLong[] stock, AtomicLong[] patched) {
        int i = r.nextInt(COUNTERS);
        int kind = r.nextInt(12);
        if (kind == 0) {
            long want = stock[i].get();
            long got = StatsItemCounters.read(patched[i]).get();
            if (Thread.currentThread().getName().equals("main")) {
                assertEquals(want, got, "getValue().get()");
            }
        } else if (kind == 1) {
            int v = r.nextInt(4_000);
            stock[i].addAndGet(v);
            StatsItemCounters.read(patched[i]).addAndGet(v); // a plugin's write, as 4.9.0's own addValue wrote
        } else if (kind < 5) {
            stock[i].incrementAndGet();
            StatsItemCounters.increment(patched[i]);
        } else {
            // StatsItemSet.addValue's int, widened as stock's I2L does (negative values occur: a size or a latency).
            int v = r.nextInt(8) == 0 ? r.nextInt() : r.nextInt(4_000);
            stock[i].addAndGet(v);
            StatsItemCounters.add(patched[i], v);
        }
    }

    private static void assertSame(AtomicLong[] stock, AtomicLong[] patched, String replay) {
        for (int i = 0; i < stock.length; i++) {
            assertEquals(stock[i].get(), StatsItemCounters.get(patched[i]), replay + " counter " + i);
        }
    }
}
