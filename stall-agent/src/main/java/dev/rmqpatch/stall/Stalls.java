package dev.rmqpatch.stall;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The call the agent puts at the entry of the plan's point ({@link StallTransformer}): the first entry at or after the
 * next due time sleeps the plan's length, then prints one {@link StallLine} to stdout (the broker's output file): the wall-clock
 * start, so a test can find the requests it overlapped, and the thread, so it can tell which kind of thread stalled.
 * Every other entry costs a volatile read and a comparison.
 */
public final class Stalls {
    private static volatile StallPlan plan;
    /** System.nanoTime() at or after which the next stall begins. */
    private static final AtomicLong NEXT_DUE = new AtomicLong();
    private static final AtomicLong DONE = new AtomicLong();
    private static PrintStream out = System.out;

    private Stalls() {
    }

    /** Arms {@code p}: its first stall is due {@code afterMillis} from now. */
    static void arm(StallPlan p, PrintStream to) {
        out = to;
        DONE.set(0);
        NEXT_DUE.set(System.nanoTime() + p.afterMillis * 1_000_000L);
        plan = p;
    }

    /** Stalls done so far. */
    static long done() {
        return DONE.get();
    }

    /** Called at the entry of every method of the plan's point ({@code point}: the StallPoint's ordinal). */
    public static void at(int point) {
        StallPlan p = plan;
        if (p == null || p.point.ordinal() != point) {
            return;
        }
        long due = NEXT_DUE.get();
        long now = System.nanoTime();
        if (now - due < 0 || DONE.get() >= p.times || !NEXT_DUE.compareAndSet(due, now + p.everyMillis * 1_000_000L)) {
            return;
        }
        long n = DONE.incrementAndGet();
        long wallStart = System.currentTimeMillis();
        long deadline = now + p.millis * 1_000_000L;
        boolean interrupted = false;
        for (long left = p.millis; left > 0; left = (deadline - System.nanoTime()) / 1_000_000L) {
            try {
                Thread.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true; // a stalled disk does not end early either; the flag is given back below
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        out.println(StallLine.format(p.point, n, wallStart, p.millis, Thread.currentThread().getName()));
    }
}
