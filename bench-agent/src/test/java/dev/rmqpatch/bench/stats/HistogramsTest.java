package dev.rmqpatch.bench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HistogramsTest {

    @Test
    void encodedHistogramDecodesToTheSameDistribution() {
        Histogram h = Histograms.create();
        Random random = new Random(7);
        for (int i = 0; i < 50_000; i++) {
            h.recordValue(1 + random.nextInt(2_000_000));
        }
        Histogram back = Histograms.decode(Histograms.encode(h));
        assertEquals(h, back);
        assertEquals(h.getValueAtPercentile(99.9), back.getValueAtPercentile(99.9));
    }

    @Test
    void mergeEqualsRecordingEveryValueIntoOneHistogram() {
        Random random = new Random(11);
        Histogram a = Histograms.create();
        Histogram b = Histograms.create();
        Histogram all = Histograms.create();
        for (int i = 0; i < 20_000; i++) {
            long v = 100 + random.nextInt(5_000);
            a.recordValue(v);
            all.recordValue(v);
        }
        for (int i = 0; i < 7_000; i++) {
            long v = 50_000 + random.nextInt(900_000);
            b.recordValue(v);
            all.recordValue(v);
        }
        // Through the wire format, as agents ship them.
        Histogram merged = Histograms.merge(List.of(Histograms.decode(Histograms.encode(a)), Histograms.decode(Histograms.encode(b))));
        assertEquals(all.getTotalCount(), merged.getTotalCount());
        for (double p : new double[] {50, 90, 99, 99.9, 100}) {
            assertEquals(all.getValueAtPercentile(p), merged.getValueAtPercentile(p), "p" + p);
        }
        assertEquals(20_000, a.getTotalCount(), "inputs are left alone");
    }

    @Test
    void averagingPercentilesOfTwoAgentsWouldBeWrong() {
        // One fast agent with many sends and one slow agent with few: the merged p50 is the fast agent's.
        Histogram fast = Histograms.create();
        Histogram slow = Histograms.create();
        for (int i = 0; i < 9_000; i++) {
            fast.recordValue(1_000);
        }
        for (int i = 0; i < 1_000; i++) {
            slow.recordValue(100_000);
        }
        Histogram merged = Histograms.merge(List.of(fast, slow));
        double averaged = (fast.getValueAtPercentile(50) + slow.getValueAtPercentile(50)) / 2.0;
        assertEquals(1_000, merged.getValueAtPercentile(50), 1_000 * 0.001);
        assertNotEquals(averaged, merged.getValueAtPercentile(50), 1_000.0);
    }

    @Test
    void mergeOfNothingIsEmptyAndNullPartsAreSkipped() {
        Histogram merged = Histograms.merge(java.util.Arrays.asList(null, Histograms.create()));
        assertEquals(0, merged.getTotalCount());
        assertEquals(0, LatencySummary.of(merged).count);
        assertEquals(null, LatencySummary.of(merged).p99);
    }

    @Test
    void hugeValuesAreRecordedNotRejected() {
        Histogram h = Histograms.create();
        h.recordValue(1);
        h.recordValue(3_600_000_000L);
        Histogram back = Histograms.decode(Histograms.encode(h));
        assertEquals(2, back.getTotalCount());
        assertEquals(3_600_000.0, LatencySummary.of(back).max, 3_600_000 * 0.001);
    }

    @Test
    void garbageIsRejectedWithAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Histograms.decode(java.util.Base64.getEncoder().encodeToString(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9})));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("HdrHistogram"), e.getMessage());
    }

    @Test
    void summaryIsInMilliseconds() {
        Histogram h = Histograms.create();
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 10L);
        }
        LatencySummary s = LatencySummary.of(h);
        assertEquals(5.0, s.p50, 0.01);
        assertEquals(9.9, s.p99, 0.01);
        assertEquals(10.0, s.max, 0.01);
    }
}
