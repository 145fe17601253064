package dev.rmqpatch.bench.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.efficiency.WindowOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The paired ratio and its intervals on synthetic windows whose true ratio is known. */
class PairedRatioTest {

    /**
     * Windows of two variants in the counterbalanced order, CPU/msg = base x trueRatio (for B) x a slow drift over the run
     * x independent lognormal noise; returns the per-pair ratios B/A.
     */
    private static List<Double> pairs(int n, double trueRatio, double noise, double driftPerWindow, long seed) {
        Random random = new Random(seed);
        List<Double> ratios = new ArrayList<>();
        int window = 0;
        for (int p = 0; p < n; p++) {
            double[] cpu = new double[2];
            for (int v : WindowOrder.of(p, 2)) {
                double drift = 1 + driftPerWindow * window++;
                cpu[v] = 80.0 * (v == 1 ? trueRatio : 1.0) * drift * Math.exp(noise * random.nextGaussian());
            }
            ratios.add(cpu[1] / cpu[0]);
        }
        return ratios;
    }

    private static boolean contains(double[] interval, double value) {
        return interval[0] <= value && value <= interval[1];
    }

    @Test
    void aFivePercentSavingIsResolvedWithThirtyPairs() {
        PairedRatio r = PairedRatio.of(pairs(30, 0.95, 0.04, 0.001, 1));
        assertEquals(30, r.pairs());
        assertEquals(0.95, r.estimate(), 0.015);
        assertTrue(contains(r.bootstrap95(), 0.95), "bootstrap " + r.bootstrap95()[0] + "-" + r.bootstrap95()[1]);
        assertTrue(contains(r.t95(), 0.95), "t " + r.t95()[0] + "-" + r.t95()[1]);
        assertTrue(r.bootstrap95()[1] < 1.0, "excludes 1.0");
        assertTrue(r.resolved());
        assertTrue(r.halfWidth() < 0.03, "±" + r.halfWidth());
    }

    @Test
    void anAaComparisonContainsOneAndIsUnresolved() {
        PairedRatio r = PairedRatio.of(pairs(30, 1.0, 0.05, 0.002, 7));
        assertTrue(contains(r.bootstrap95(), 1.0), r.bootstrap95()[0] + "-" + r.bootstrap95()[1]);
        assertTrue(contains(r.t95(), 1.0), r.t95()[0] + "-" + r.t95()[1]);
        assertFalse(r.resolved());
    }

    @Test
    void theIntervalsCoverTheTrueRatioAboutNineteenTimesInTwenty() {
        int runs = 200;
        int bootstrap = 0;
        int t = 0;
        for (long seed = 1; seed <= runs; seed++) {
            PairedRatio r = PairedRatio.of(pairs(30, 0.95, 0.05, 0.001, seed));
            bootstrap += contains(r.bootstrap95(), 0.95) ? 1 : 0;
            t += contains(r.t95(), 0.95) ? 1 : 0;
        }
        // Nominal 95%; a percentile bootstrap of 30 pairs is a little narrow, the t interval is not.
        assertTrue(bootstrap >= 0.90 * runs, bootstrap + " of " + runs);
        assertTrue(t >= 0.92 * runs, t + " of " + runs);
    }

    @Test
    void aLinearDriftCancelsInTheCounterbalancedOrder() {
        // 1% drift per window: window 2k+1 of every pair is 1% "dearer" than window 2k, for whichever variant comes second.
        PairedRatio r = PairedRatio.of(pairs(20, 1.0, 0.0, 0.01, 3));
        assertEquals(1.0, r.estimate(), 0.001, "drift adds to A in half the pairs and to B in the other half");
    }

    @Test
    void theSameDataGiveTheSameInterval() {
        List<Double> data = pairs(12, 0.97, 0.03, 0, 5);
        assertArrayEquals(PairedRatio.of(data).bootstrap95(), PairedRatio.of(data).bootstrap95(), 0.0);
    }

    @Test
    void withTwoPairsTheTCheckKeepsTheVerdictHonest() {
        PairedRatio r = PairedRatio.of(List.of(0.90, 0.92));
        assertTrue(r.bootstrap95()[1] < 1.0, "the percentile bootstrap of two pairs is just their range");
        assertTrue(r.t95()[1] > 1.0, "t with one degree of freedom is wide");
        assertFalse(r.resolved());
        PairedRatio one = PairedRatio.of(List.of(0.9));
        assertNull(one.bootstrap95());
        assertFalse(one.resolved());
        assertTrue(Double.isNaN(one.halfWidth()));
    }

    @Test
    void studentQuantilesMatchTheTables() {
        assertEquals(12.7062, PairedRatio.tQuantile975(1), 1e-4);
        assertEquals(2.0452, PairedRatio.tQuantile975(29), 1e-4);
        assertEquals(2.0211, PairedRatio.tQuantile975(40), 1e-3);
        assertEquals(1.9840, PairedRatio.tQuantile975(100), 1e-3);
    }

    @Test
    void nonPositiveRatiosAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of(1.0, 0.0)));
        assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of()));
    }
}
