package dev.rmqpatch.bench.omb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.protocol.Json;
import dev.rmqpatch.bench.stats.Histograms;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Reads our OMB-format result the way OMB's tools do: by the field names and types of OMB's TestResult (the per-interval
 * lists its bin/create_charts.py charts, the aggregated figures and quantile maps), listed here from OMB's documentation of
 * the class, independent of {@link OmbResult}.
 */
class OmbResultFormatTest {
    private static final List<String> STRINGS = List.of("workload", "driver");
    private static final List<String> NUMBERS = List.of("messageSize", "topics", "partitions", "producersPerTopic",
        "consumersPerTopic", "aggregatedPublishLatencyAvg", "aggregatedPublishLatency50pct", "aggregatedPublishLatency75pct",
        "aggregatedPublishLatency95pct", "aggregatedPublishLatency99pct", "aggregatedPublishLatency999pct",
        "aggregatedPublishLatency9999pct", "aggregatedPublishLatencyMax", "aggregatedPublishDelayLatencyAvg",
        "aggregatedPublishDelayLatency50pct", "aggregatedPublishDelayLatency75pct", "aggregatedPublishDelayLatency95pct",
        "aggregatedPublishDelayLatency99pct", "aggregatedPublishDelayLatency999pct", "aggregatedPublishDelayLatency9999pct",
        "aggregatedPublishDelayLatencyMax", "aggregatedEndToEndLatencyAvg", "aggregatedEndToEndLatency50pct",
        "aggregatedEndToEndLatency75pct", "aggregatedEndToEndLatency95pct", "aggregatedEndToEndLatency99pct",
        "aggregatedEndToEndLatency999pct", "aggregatedEndToEndLatency9999pct", "aggregatedEndToEndLatencyMax");
    private static final List<String> SERIES = List.of("publishRate", "publishErrorRate", "consumeRate", "backlog",
        "publishLatencyAvg", "publishLatency50pct", "publishLatency75pct", "publishLatency95pct", "publishLatency99pct",
        "publishLatency999pct", "publishLatency9999pct", "publishLatencyMax", "publishDelayLatencyAvg", "publishDelayLatency50pct",
        "publishDelayLatency75pct", "publishDelayLatency95pct", "publishDelayLatency99pct", "publishDelayLatency999pct",
        "publishDelayLatency9999pct", "publishDelayLatencyMax", "endToEndLatencyAvg", "endToEndLatency50pct", "endToEndLatency75pct",
        "endToEndLatency95pct", "endToEndLatency99pct", "endToEndLatency999pct", "endToEndLatency9999pct", "endToEndLatencyMax");
    private static final List<String> QUANTILES = List.of("aggregatedPublishLatencyQuantiles",
        "aggregatedPublishDelayLatencyQuantiles", "aggregatedEndToEndLatencyQuantiles");

    private static Histogram micros(long... values) {
        Histogram h = Histograms.create();
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void aRunReadsAsOmbsResult() {
        OmbIntervals intervals = new OmbIntervals("1 topic / 18 queues", "rocketmq-4.9.0-patched", 300, 1, 18, 2, 3, 1);
        Histogram window = Histograms.create();
        Histogram windowE2e = Histograms.create();
        // 25 seconds: two full 10-second intervals and a 5-second one. 1,000 acked and 990 consumed per second.
        for (int s = 1; s <= 25; s++) {
            Histogram lat = micros(2_000, 4_000);
            Histogram e2e = micros(6_000, 7_000);
            window.add(lat);
            windowE2e.add(e2e);
            intervals.second(1_000_000_000L, 1_000, s == 3 ? 10 : 0, 990, lat, micros(10, 50), e2e, 1_000L * s, 990L * s);
        }
        String json = Json.PRETTY.toJson(intervals.finish(window, windowE2e));
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();

        for (String f : STRINGS) {
            assertTrue(o.get(f).getAsJsonPrimitive().isString(), f);
        }
        for (String f : NUMBERS) {
            assertTrue(o.get(f).getAsJsonPrimitive().isNumber(), f);
        }
        for (String f : SERIES) {
            assertEquals(3, o.getAsJsonArray(f).size(), f + ": one entry per 10-second interval (the last one partial)");
            for (JsonElement e : o.getAsJsonArray(f)) {
                assertTrue(e.getAsJsonPrimitive().isNumber(), f);
            }
        }
        for (String f : QUANTILES) {
            JsonObject q = o.getAsJsonObject(f);
            assertTrue(q.size() > 1, f);
            for (Map.Entry<String, JsonElement> e : q.entrySet()) {
                double percentile = Double.parseDouble(e.getKey());
                assertTrue(percentile >= 0 && percentile <= 100, f + " " + e.getKey());
                assertTrue(e.getValue().getAsJsonPrimitive().isNumber(), f);
            }
        }
        assertEquals("1 topic / 18 queues", o.get("workload").getAsString());
        assertEquals("rocketmq-4.9.0-patched", o.get("driver").getAsString());
        assertEquals(3, o.get("consumersPerTopic").getAsInt());
        // Rates per second, publish latency in ms, publish delay in µs, backlog in messages (OMB's units).
        assertEquals(1000.0, o.getAsJsonArray("publishRate").get(0).getAsDouble(), 1e-9);
        assertEquals(1.0, o.getAsJsonArray("publishErrorRate").get(0).getAsDouble(), 1e-9);
        assertEquals(0.0, o.getAsJsonArray("publishErrorRate").get(1).getAsDouble(), 1e-9);
        assertEquals(990.0, o.getAsJsonArray("consumeRate").get(2).getAsDouble(), 1e-9);
        assertEquals(100, o.getAsJsonArray("backlog").get(0).getAsLong(), "1 x 10,000 acked - 9,900 received");
        assertEquals(250, o.getAsJsonArray("backlog").get(2).getAsLong());
        assertEquals(4.0, o.getAsJsonArray("publishLatency99pct").get(1).getAsDouble(), 0.01);
        assertEquals(2.0, o.getAsJsonArray("publishLatency50pct").get(1).getAsDouble(), 0.01);
        assertEquals(50, o.getAsJsonArray("publishDelayLatency99pct").get(0).getAsLong());
        assertEquals(7.0, o.getAsJsonArray("endToEndLatency95pct").get(0).getAsDouble(), 0.01);
        assertEquals(6.0, o.getAsJsonArray("endToEndLatency50pct").get(0).getAsDouble(), 0.01);
        assertEquals(4.0, o.get("aggregatedPublishLatency99pct").getAsDouble(), 0.01);
        assertEquals(3.0, o.get("aggregatedPublishLatencyAvg").getAsDouble(), 0.01);
        assertEquals(7.0, o.get("aggregatedEndToEndLatencyMax").getAsDouble(), 0.01);
        assertEquals(50, o.get("aggregatedPublishDelayLatencyMax").getAsLong());
    }

    @Test
    void aProduceOnlyRunWithoutRateHasZerosNotGaps() {
        OmbIntervals intervals = new OmbIntervals("w", "d", 300, 1, 18, 1, 0, 0);
        intervals.second(1_000_000_000L, 500, 0, 0, micros(1_000), null, null, 500, 0);
        intervals.second(1_000_000_000L, 500, 0, 0, micros(1_000), null, null, 1000, 0);
        JsonObject o = JsonParser.parseString(Json.PRETTY.toJson(intervals.finish(micros(1_000), null))).getAsJsonObject();
        assertEquals(1, o.getAsJsonArray("publishRate").size());
        assertEquals(500.0, o.getAsJsonArray("publishRate").get(0).getAsDouble(), 1e-9);
        assertEquals(0, o.getAsJsonArray("backlog").get(0).getAsLong());
        assertEquals(0.0, o.getAsJsonArray("endToEndLatency99pct").get(0).getAsDouble());
        assertEquals(0.0, o.get("aggregatedEndToEndLatencyAvg").getAsDouble());
        assertTrue(!json(o).contains("NaN"), "no NaN, which OMB's JSON readers refuse");
    }

    private static String json(JsonObject o) {
        return o.toString();
    }
}
