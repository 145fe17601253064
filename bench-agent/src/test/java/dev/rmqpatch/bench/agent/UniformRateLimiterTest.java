package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UniformRateLimiterTest {
    /** Time moves only when the limiter sleeps or the test says so. */
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<Long> sleeps = new ArrayList<>();
    private final UniformRateLimiter.NanoClock clock = now::get;
    private final UniformRateLimiter.Sleeper sleeper = nanos -> {
        sleeps.add(nanos);
        now.addAndGet(nanos);
    };

    @Test
    void intendedTimesAreEvenlySpacedFromTheStart() throws Exception {
        UniformRateLimiter limiter = new UniformRateLimiter(1000, clock, sleeper);
        long start = now.get();
        limiter.start();
        for (int n = 0; n < 5; n++) {
            long intended = limiter.acquire(() -> true);
            assertEquals(start + n * 1_000_000L, intended);
            assertEquals(intended, now.get(), "waited exactly until the intended time");
        }
    }

    @Test
    void aLateSenderKeepsTheOriginalScheduleSoTheDelayShows() throws Exception {
        UniformRateLimiter limiter = new UniformRateLimiter(100, clock, sleeper);
        long start = now.get();
        limiter.start();
        limiter.acquire(() -> true);
        // The send took 55 ms, five and a half periods: the next permits are already due.
        now.addAndGet(55_000_000L);
        sleeps.clear();
        long second = limiter.acquire(() -> true);
        long third = limiter.acquire(() -> true);
        assertEquals(start + 10_000_000L, second, "not moved to 'now': the 45 ms delay is visible");
        assertEquals(start + 20_000_000L, third);
        assertTrue(sleeps.isEmpty(), "no waiting while behind schedule");
        assertEquals(45_000_000L, now.get() - second);
    }

    @Test
    void longWaitsAreSlicedAndStopEarly() throws Exception {
        UniformRateLimiter limiter = new UniformRateLimiter(1, clock, sleeper);
        limiter.start();
        limiter.acquire(() -> true);
        int[] polls = {0};
        long intended = limiter.acquire(() -> ++polls[0] < 3);
        assertEquals(2, sleeps.size(), "two slices, then the stop was seen");
        for (long s : sleeps) {
            assertTrue(s <= UniformRateLimiter.MAX_WAIT_SLICE_NANOS, "slice " + s);
        }
        assertTrue(now.get() < intended, "returned before the intended time");
    }

    @Test
    void fractionalRatesDoNotDrift() throws Exception {
        UniformRateLimiter limiter = new UniformRateLimiter(3, clock, sleeper);
        long start = now.get();
        limiter.start();
        long last = 0;
        for (int i = 0; i <= 300; i++) {
            last = limiter.acquire(() -> true);
        }
        // 300 permits at 3/s: exactly 100 s later, no accumulated rounding from a rounded period.
        assertEquals(start + 100_000_000_000L, last, 1);
    }

    @Test
    void sharedByThreadsEveryPermitIsHandedOutOnce() throws Exception {
        UniformRateLimiter limiter = new UniformRateLimiter(1_000_000, System::nanoTime, nanos -> { });
        limiter.start();
        List<Long> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    try {
                        seen.add(limiter.acquire(() -> false));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(4000, seen.size());
        assertEquals(4000, seen.stream().distinct().count());
    }

    @Test
    void invalidUseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new UniformRateLimiter(0));
        assertThrows(IllegalArgumentException.class, () -> new UniformRateLimiter(-1));
        assertThrows(IllegalArgumentException.class, () -> new UniformRateLimiter(Double.NaN));
        assertThrows(IllegalStateException.class, () -> new UniformRateLimiter(10).acquire(() -> true));
    }
}
