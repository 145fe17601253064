package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** A progress interval cut short by a rate change, joined to the next one. */
class ProgressReportsTest {
    private static String hist(long... values) {
        Histogram h = Histograms.create();
        for (long v : values) {
            h.recordValue(v);
        }
        return Histograms.encode(h);
    }

    @Test
    void countsAndHistogramsAddTotalsAreTheLaters() {
        ProgressReport a = new ProgressReport();
        a.intervalNanos = 5_000_000;
        a.sent = 10;
        a.acked = 9;
        a.failed = 1;
        a.consumed = 8;
        a.errorsByKind = Map.of("Timeout", 1L);
        a.latencyHistogram = hist(100, 200);
        a.ackedSinceStart = 1000;
        a.receivedByGroup = Map.of("g", 990L);
        ProgressReport b = new ProgressReport();
        b.state = "MEASURING";
        b.intervalNanos = 995_000_000;
        b.sent = 1000;
        b.acked = 1000;
        b.consumed = 1001;
        b.errorsByKind = Map.of("Timeout", 2L, "NoRoute", 1L);
        b.latencyHistogram = hist(300);
        b.sendDelayHistogram = hist(7);
        b.ackedSinceStart = 2000;
        b.receivedByGroup = Map.of("g", 1995L);

        ProgressReport r = ProgressReports.add(a, b);
        assertEquals("MEASURING", r.state);
        assertEquals(1_000_000_000, r.intervalNanos);
        assertEquals(1010, r.sent);
        assertEquals(1009, r.acked);
        assertEquals(1, r.failed);
        assertEquals(1009, r.consumed);
        assertEquals(Map.of("Timeout", 3L, "NoRoute", 1L), r.errorsByKind);
        assertEquals(3, Histograms.decode(r.latencyHistogram).getTotalCount());
        assertEquals(1, Histograms.decode(r.sendDelayHistogram).getTotalCount());
        assertNull(r.endToEndHistogram);
        assertEquals(2000, r.ackedSinceStart);
        assertEquals(Map.of("g", 1995L), r.receivedByGroup);
    }
}
