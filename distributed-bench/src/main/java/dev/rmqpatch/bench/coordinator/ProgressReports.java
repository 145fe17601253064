package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Joins two consecutive progress intervals of one agent into one (counts and histograms added, totals the later's). */
final class ProgressReports {
    private ProgressReports() {
    }

    static ProgressReport add(ProgressReport earlier, ProgressReport later) {
        ProgressReport r = new ProgressReport();
        r.state = later.state;
        r.error = later.error != null ? later.error : earlier.error;
        r.intervalNanos = earlier.intervalNanos + later.intervalNanos;
        r.sent = earlier.sent + later.sent;
        r.acked = earlier.acked + later.acked;
        r.failed = earlier.failed + later.failed;
        r.consumed = earlier.consumed + later.consumed;
        r.consumeErrors = earlier.consumeErrors + later.consumeErrors;
        if (earlier.errorsByKind != null || later.errorsByKind != null) {
            r.errorsByKind = new TreeMap<>();
            if (earlier.errorsByKind != null) {
                earlier.errorsByKind.forEach((k, n) -> r.errorsByKind.merge(k, n, Long::sum));
            }
            if (later.errorsByKind != null) {
                later.errorsByKind.forEach((k, n) -> r.errorsByKind.merge(k, n, Long::sum));
            }
        }
        r.latencyHistogram = add(earlier.latencyHistogram, later.latencyHistogram);
        r.sendDelayHistogram = add(earlier.sendDelayHistogram, later.sendDelayHistogram);
        r.endToEndHistogram = add(earlier.endToEndHistogram, later.endToEndHistogram);
        r.receivedByGroup = later.receivedByGroup != null ? later.receivedByGroup : earlier.receivedByGroup;
        r.ackedSinceStart = Math.max(earlier.ackedSinceStart, later.ackedSinceStart);
        return r;
    }

    private static String add(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        Histogram h = Histograms.decode(a);
        h.add(Histograms.decode(b));
        return Histograms.encode(h);
    }
}
