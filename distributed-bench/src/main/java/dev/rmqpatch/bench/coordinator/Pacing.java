package dev.rmqpatch.bench.coordinator;

import java.util.concurrent.TimeUnit;

/** The coordinator's waits: a fixed delay, or until the next whole second of a loop; an interruption ends the run. */
final class Pacing {
    private Pacing() {
    }

    /** Waits until {@code second} seconds after {@code beginNanos} (System.nanoTime); returns at once when that has passed. */
    static void awaitSecond(long beginNanos, int second) throws Coordinator.Abort {
        long wait = beginNanos + TimeUnit.SECONDS.toNanos(second) - System.nanoTime();
        if (wait > 0) {
            sleep(TimeUnit.NANOSECONDS.toMillis(wait));
        }
    }

    static void sleep(long ms) throws Coordinator.Abort {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Coordinator.Abort("interrupted");
        }
    }
}
