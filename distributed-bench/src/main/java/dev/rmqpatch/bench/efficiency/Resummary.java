package dev.rmqpatch.bench.efficiency;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.protocol.Json;
import dev.rmqpatch.bench.report.OutputFolder;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench summarize DIR}: rebuilds the results.json, table.txt and chart.png of an efficiency output folder (one run,
 * or {@code --runs N} with its {@code run-<k>/}) from the windows it recorded, with this build's statistics. The windows,
 * the probe, the pinning record and the metadata stay as they were; {@code metadata.resummarized} says when it happened.
 */
public final class Resummary {

    private Resummary() {
    }

    /** Rewrites {@code dir}; throws IllegalArgumentException (nothing written) when it is not an efficiency output folder. */
    public static void rewrite(Path dir, PrintStream out) throws IOException {
        long started = System.nanoTime();
        JsonObject top = read(dir);
        if (!top.has("mode") || !"efficiency".equals(top.get("mode").getAsString())) {
            throw new IllegalArgumentException(dir.resolve("results.json") + " is not the result of compare --efficiency");
        }
        if (!top.has("runsPlanned")) {
            EfficiencyResults r = one(dir, top);
            write(dir, r, out, started);
            return;
        }
        AcrossRunsResults a = Json.GSON.fromJson(top, AcrossRunsResults.class);
        List<EfficiencyResults> runs = new ArrayList<>();
        List<AcrossRunsResults.RunEntry> entries = new ArrayList<>();
        for (AcrossRunsResults.RunEntry e : a.runs) {
            Path runDir = dir.resolve(e.folder).normalize();
            if (!runDir.startsWith(dir.normalize())) {
                throw new IllegalArgumentException("run folder " + e.folder + " is outside " + dir);
            }
            EfficiencyResults r = one(runDir, read(runDir));
            runs.add(r);
            entries.add(AcrossRuns.entry(e.run, e.folder, e.order, r));
        }
        for (int i = 0; i < runs.size(); i++) {
            write(dir.resolve(a.runs.get(i).folder), runs.get(i), out, started);
        }
        a.runs = entries;
        List<String> names = new ArrayList<>();
        a.variants.forEach(v -> names.add(v.name));
        AcrossRuns.summarize(a, names, runs);
        mark(a.metadata);
        OutputFolder.write(out, dir, a, AcrossRunsTable.render(a), png -> AcrossRunsChart.write(a, png), a.error, false,
            seconds(started));
    }

    private static JsonObject read(Path dir) throws IOException {
        Path file = dir.resolve("results.json");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no results.json in " + dir);
        }
        return JsonParser.parseString(Files.readString(file)).getAsJsonObject();
    }

    /** One run's results, summarised anew from its windows (its old summary's warnings replaced by the new one's). */
    private static EfficiencyResults one(Path dir, JsonObject json) {
        EfficiencyResults r = Json.GSON.fromJson(json, EfficiencyResults.class);
        // Written before placements had names: a window's placement is its pinned flag.
        var windows = json.has("windows") ? json.getAsJsonArray("windows") : new com.google.gson.JsonArray();
        for (int i = 0; i < windows.size() && i < r.windows.size(); i++) {
            if (!windows.get(i).getAsJsonObject().has("placement")) {
                Window w = r.windows.get(i);
                w.placement = (w.pinned ? Placement.PINNED : Placement.UNPINNED).label;
            }
        }
        if (r.profile != null) {
            throw new IllegalArgumentException(dir + " was profiled: its table's profile section is built from the profiles, which "
                + "summarize does not read; nothing was rewritten");
        }
        r.warnings.removeAll(EfficiencyWarnings.of(r));
        // results.json keeps each cell's merged latency, not the windows' histograms: carry the cells' over.
        Map<String, LatencySummary> latency = new LinkedHashMap<>();
        for (EfficiencyResults.CellResult c : r.cells) {
            c.variants.forEach(v -> latency.put(key(c, v.name), v.latencyMs));
        }
        Map<String, LatencySummary> top = new LinkedHashMap<>();
        r.variants.forEach(v -> top.put(v.name, v.latencyMs));
        boolean hadCells = !r.cells.isEmpty();
        EfficiencySummary.summarize(r, !"auto".equals(r.pinning.mode) ? null : r.pinning.applied ? Placement.PINNED : Placement.UNPINNED);
        if (!hadCells) {
            // Written before runs had cells: one interval, whose latency stays.
            r.variants.forEach(v -> v.latencyMs = top.get(v.name));
        }
        for (EfficiencyResults.CellResult c : hadCells ? r.cells : List.<EfficiencyResults.CellResult>of()) {
            for (int i = 0; i < c.variants.size(); i++) {
                EfficiencyResults.VariantResult v = c.variants.get(i);
                v.latencyMs = latency.getOrDefault(key(c, v.name), v.latencyMs);
                if (c.headline) {
                    r.variants.get(i).latencyMs = v.latencyMs;
                }
            }
        }
        for (String w : EfficiencyWarnings.of(r)) {
            if (!r.warnings.contains(w)) {
                r.warnings.add(w);
            }
        }
        mark(r.metadata);
        return r;
    }

    private static String key(EfficiencyResults.CellResult c, String variant) {
        return c.rateMsgPerS + "/" + AcrossRuns.placement(c) + "/" + variant;
    }

    private static void write(Path dir, EfficiencyResults r, PrintStream out, long started) {
        OutputFolder.write(out, dir, r, EfficiencyTable.render(r), png -> EfficiencyChart.write(r, png), r.error, false, seconds(started));
    }

    private static String seconds(long started) {
        return String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9);
    }

    private static void mark(Map<String, Object> metadata) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", Instant.now().toString());
        m.put("how", "bench summarize: every figure recomputed from the recorded windows by this build's statistics; the windows, "
            + "probe and pinning record are the run's own");
        metadata.put("resummarized", m);
    }
}
