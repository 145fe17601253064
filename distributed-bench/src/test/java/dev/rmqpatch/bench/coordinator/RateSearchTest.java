package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateSearchTest {
    private static final long PERIOD = 3_000_000_000L;

    @Test
    void growsWhileProducersAndConsumersKeepUpThenStaysAroundTheCapacity() {
        RateSearch search = new RateSearch();
        assertEquals(10_000, search.rate());
        double capacity = 50_000;
        long published = 0;
        long received = 0;
        double rate = search.rate();
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int step = 0; step < 60; step++) {
            // A system that publishes at most `capacity` msg/s and consumes everything it publishes.
            long sent = (long) (Math.min(rate, capacity) * 3);
            published += sent;
            received += sent;
            boolean shortfall = rate * 3 - sent > 1_000;
            rate = search.next(PERIOD, published, received);
            if (shortfall) {
                assertTrue(rate <= capacity + 1e-6, "after a shortfall the rate drops to what was achieved: " + rate);
            }
            if (step >= 40) {
                min = Math.min(min, rate);
                max = Math.max(max, rate);
            }
        }
        // OMB's controller never settles: at the capacity it ramps up again and is brought back to what was achieved.
        assertTrue(min >= capacity * 0.8 && max <= capacity * 2.0, "moves around 50,000 msg/s: " + min + ".." + max);
    }

    @Test
    void firstStepsDoubleThenALaggingConsumerBringsTheRateDown() {
        RateSearch search = new RateSearch();
        assertEquals(20_000, search.next(PERIOD, 30_000, 30_000), 1e-6);
        assertEquals(40_000, search.next(PERIOD, 90_000, 90_000), 1e-6);
        // Published 120,000 on schedule, but the consumers only took 30,000 of them: 90,000 behind.
        double r = search.next(PERIOD, 210_000, 120_000);
        assertEquals(10_000, r, 1e-6, "the rate the consumers achieved");
    }

    @Test
    void producersFallingShortOfTheScheduleBringTheRateDown() {
        RateSearch search = new RateSearch();
        // Without consumers: received = published. 10,000 msg/s asked for, 6,000 achieved.
        double r = search.next(PERIOD, 18_000, 18_000);
        assertEquals(6_000, r, 1e-6);
        assertTrue(search.next(PERIOD, 36_000, 36_000) > 6_000, "then grows again, by a halved ramp factor");
    }
}
