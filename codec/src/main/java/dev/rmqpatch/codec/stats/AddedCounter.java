package dev.rmqpatch.codec.stats;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * P18, P21. A counter stock keeps in an {@link AtomicLong} (a topic's put counter in {@code StoreStatsService}'s
 * maps, a {@code StatsItem}'s value and times, a histogram bucket): still that AtomicLong, which stays the truth for
 * whoever reads it through stock's API ({@code StatsItem.getValue().get()}, {@code getSinglePutMessageTopicTimesTotal})
 * or adds to it directly (DLedgerCommitLog, a plugin's {@code getValue().addAndGet(x)}), plus a {@link LongAdder} that
 * the patched hot writers add to instead, in per-thread cells rather than by compare-and-set on one shared line. The
 * adder is a write buffer: {@link #fold()} moves what was added to it since the last fold into the AtomicLong,
 * exactly (the delta of its sum under a lock; no add is lost or counted twice, whatever runs beside it), and every
 * patched reader and getter folds before it reads. AtomicLong's methods are final, so the two cannot be one.
 */
public final class AddedCounter extends AtomicLong {

    private static final long serialVersionUID = 1L;

    private final transient LongAdder added = new LongAdder();

    /**
     * The adder's sum already added to the AtomicLong; written under {@code added}'s monitor, after the add to the
     * AtomicLong, and volatile for {@link #fold}'s check without the lock.
     */
    private volatile long folded;

    public AddedCounter() {
        super();
    }

    /** P21: a counter whose AtomicLong starts at {@code initialValue}, as stock's {@code new AtomicLong(initialValue)}. */
    public AddedCounter(long initialValue) {
        super(initialValue);
    }

    /** Counts {@code delta} in the adder: the patched put paths' increment. */
    public void add(long delta) {
        added.add(delta);
    }

    /**
     * Adds to the AtomicLong what the adder has counted since the last fold, and returns this counter, whose value is
     * then stock's: every add through either path that finished before the call. The lock orders concurrent folds;
     * an add racing with the fold's {@code sum()} is in this fold or in the next, never in both or neither.
     */
    public AddedCounter fold() {
        if (added.sum() == folded) {
            // Nothing added since the last fold (or adds that cancel out): the AtomicLong already holds the count,
            // since a fold writes folded only after its add. A counter only stock's API writes (DLedgerCommitLog's,
            // a plugin's) never takes the lock.
            return this;
        }
        synchronized (added) {
            long sum = added.sum();
            long delta = sum - folded;
            if (delta != 0) {
                addAndGet(delta);
                folded = sum;
            }
        }
        return this;
    }

    /** What stock's AtomicLong would hold: every add through either path, once the adds it races with are done. */
    public long total() {
        return fold().get();
    }

    /** Folds {@code counter} if it is this kind, and returns it: for getters that hand the AtomicLong to stock's API. */
    public static AtomicLong folded(AtomicLong counter) {
        if (counter instanceof AddedCounter) {
            ((AddedCounter) counter).fold();
        }
        return counter;
    }

    /** The count stock would hold for any counter, this kind (folded first) or a plain AtomicLong. */
    public static long totalOf(AtomicLong counter) {
        return counter instanceof AddedCounter ? ((AddedCounter) counter).total() : counter.get();
    }
}
