package dev.rmqpatch.bench.stats;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Latency histograms as they travel between agents and the coordinator. Values are microseconds. Histograms are
 * shipped whole (compressed, base64) and merged with {@link Histogram#add}, because percentiles of a merged load
 * cannot be computed from the percentiles of its parts.
 */
public final class Histograms {
    /** Three significant digits: 0.1% value resolution at every magnitude. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {
    }

    /** An auto-resizing histogram, so a pathological 60 s stall is recorded instead of throwing. */
    public static Histogram create() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }

    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    public static Histogram decode(String base64) {
        if (base64 == null) {
            throw new IllegalArgumentException("not a compressed HdrHistogram: no data");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(base64);
            Histogram decoded = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
            Histogram copy = create();
            copy.add(decoded);
            return copy;
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram: " + e.getMessage(), e);
        }
    }

    /** Adds every histogram into a fresh one; the inputs are not modified. */
    public static Histogram merge(Iterable<Histogram> parts) {
        Histogram total = create();
        for (Histogram part : parts) {
            if (part != null) {
                total.add(part);
            }
        }
        return total;
    }
}
