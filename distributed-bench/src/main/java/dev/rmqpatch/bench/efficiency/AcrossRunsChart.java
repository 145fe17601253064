package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.stats.LatencySummary;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * chart.png of compare --efficiency --runs N: each run's ratio to the baseline with its own 95% interval (runs 1..N), and
 * at N + 1 the ratio across runs with the t interval over runs; grey line at 1.0. Beside it every variant's p99 per run
 * (the legend: p50/p99/p99.9, each the highest run's), and with several cells the same two for every cell.
 */
final class AcrossRunsChart {

    private AcrossRunsChart() {
    }

    static void write(AcrossRunsResults a, Path png) throws IOException {
        CpuMeasure main = a.mainFigure == null ? CpuMeasure.BROKER : CpuMeasure.valueOf(a.mainFigure);
        XYChart chart = EfficiencyChart.chart((main == CpuMeasure.PAIR ? "Pair " : "") + "CPU/msg ratio to " + a.baseline
            + ": runs 1-" + a.runsPlanned + ", across runs at " + (a.runsPlanned + 1), "run", "ratio");
        // One legend entry per variant, each carrying its across-run interval: stacked, a row would cut the second off.
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        int color = 1;
        double offset = 0;
        for (AcrossRunsResults.VariantAcrossRuns v : a.variants) {
            AcrossRunsResults.AcrossFigure across = v.figures.get(main.field);
            if (v.name.equals(a.baseline) || across == null || across.ratio == null) {
                continue;
            }
            Color c = EfficiencyChart.COLORS[color++ % EfficiencyChart.COLORS.length];
            for (AcrossRunsResults.RunEntry e : a.runs) {
                var byFigure = e.ratios.get(v.name);
                AcrossRunsResults.RunRatio r = byFigure == null ? null : byFigure.get(main.field);
                if (r != null && r.ratio != null) {
                    point(chart, v.name + " run " + e.run, e.run + offset, r.ratio, r.ratioCi95, c, false);
                }
            }
            point(chart, String.format(Locale.ROOT, "%s across runs %.3f%s", v.name, across.ratio, across.ratioCi95 == null ? ""
                : String.format(Locale.ROOT, " [%.3f, %.3f]", across.ratioCi95[0], across.ratioCi95[1])), a.runsPlanned + 1 + offset,
                across.ratio, across.ratioCi95, c, true);
            offset += 0.1;
        }
        if (!chart.getSeriesMap().isEmpty()) {
            EfficiencyChart.line(chart, "1.0", List.of(0.5, a.runsPlanned + 1.5), 1.0, Color.GRAY, true);
        }
        EfficiencyChart.placeholderIfEmpty(chart);
        String file = png.toString();
        String base = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        List<XYChart> charts = a.cells.size() < 2 ? List.of(chart, latency(a))
            : List.of(chart, cells(a, main), latency(a), cellsLatency(a));
        charts.forEach(EfficiencyChart::fitLegend);
        BitmapEncoder.saveBitmap(new ArrayList<Chart<?, ?>>(charts), charts.size() / 2, 2, base, BitmapEncoder.BitmapFormat.PNG);
    }

    /** Every variant's p99 in each run's headline, the legend naming its p50/p99/p99.9 across runs (each the highest run's). */
    private static XYChart latency(AcrossRunsResults a) {
        XYChart chart = EfficiencyChart.chart("p99 send latency per run (legend: " + AcrossRunsTable.HIGHEST_LATENCY + ")", "run", "ms");
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        int color = 0;
        for (AcrossRunsResults.VariantAcrossRuns v : a.variants) {
            List<Number> x = new ArrayList<>();
            List<Number> y = new ArrayList<>();
            for (AcrossRunsResults.RunEntry e : a.runs) {
                LatencySummary l = e.latencyMs.get(v.name);
                if (l != null && l.p99 != null) {
                    x.add(e.run);
                    y.add(l.p99);
                }
            }
            if (x.isEmpty()) {
                continue;
            }
            XYSeries s = chart.addSeries(v.name + " " + AcrossRunsTable.latency(v.highestLatencyMs), x, y);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.CIRCLE);
            Color c = EfficiencyChart.COLORS[color++ % EfficiencyChart.COLORS.length];
            s.setMarkerColor(c);
            s.setLineColor(c);
        }
        EfficiencyChart.placeholderIfEmpty(chart);
        return chart;
    }

    /** Every cell's p99 across runs (its highest run), at x = the cell's place in the rate curve; placements side by side. */
    private static XYChart cellsLatency(AcrossRunsResults a) {
        XYChart chart = EfficiencyChart.chart("p99 per cell, highest run (o pinned, + split, x unpinned)",
            "rate of the curve (1 = each run's lowest)", "ms");
        int color = 0;
        double offset = 0;
        for (AcrossRunsResults.VariantAcrossRuns named : a.variants) {
            Color c = EfficiencyChart.COLORS[color++ % EfficiencyChart.COLORS.length];
            // Each variant a little to the right of the one before, as in the ratio panel, so equal values stay apart.
            offset += 0.03;
            boolean first = true;
            for (AcrossRunsResults.CellAcrossRuns cell : a.cells) {
                for (AcrossRunsResults.VariantAcrossRuns v : cell.variants) {
                    if (!v.name.equals(named.name) || v.highestLatencyMs == null || v.highestLatencyMs.p99 == null) {
                        continue;
                    }
                    Placement where = Placement.ofLabel(cell.placement);
                    int slot = where == null ? 1 : where.ordinal();
                    String series = first ? v.name : v.name + " rate " + cell.rateRank + " " + cell.placement;
                    XYSeries p = chart.addSeries(series, List.of(cell.rateRank + offset + 0.1 * (slot - 1)),
                        List.of(v.highestLatencyMs.p99));
                    p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                    p.setMarker(marker(where));
                    p.setMarkerColor(c);
                    p.setShowInLegend(first);
                    first = false;
                }
            }
        }
        EfficiencyChart.placeholderIfEmpty(chart);
        return chart;
    }

    private static Marker marker(Placement where) {
        return where == Placement.PINNED ? SeriesMarkers.CIRCLE : where == Placement.SPLIT ? SeriesMarkers.PLUS : SeriesMarkers.CROSS;
    }

    /** Every cell's across-run ratio with its t interval, at x = the cell's place in the rate curve; placements side by side. */
    private static XYChart cells(AcrossRunsResults a, CpuMeasure main) {
        XYChart chart = EfficiencyChart.chart("Cells across runs (o pinned, + split, x unpinned)",
            "rate of the curve (1 = each run's lowest)", "ratio");
        int color = 1;
        double offset = 0;
        int maxRank = 1;
        for (String name : a.variants.stream().map(v -> v.name).filter(n -> !n.equals(a.baseline)).toList()) {
            Color c = EfficiencyChart.COLORS[color++ % EfficiencyChart.COLORS.length];
            boolean named = false;
            for (AcrossRunsResults.CellAcrossRuns cell : a.cells) {
                maxRank = Math.max(maxRank, cell.rateRank);
                for (AcrossRunsResults.VariantAcrossRuns v : cell.variants) {
                    AcrossRunsResults.AcrossFigure f = v.name.equals(name) ? v.figures.get(main.field) : null;
                    if (f == null || f.ratio == null) {
                        continue;
                    }
                    Placement where = Placement.ofLabel(cell.placement);
                    int slot = where == null ? 1 : where.ordinal();
                    // The first point of a variant carries its name into the legend.
                    String series = named ? name + " rate " + cell.rateRank + " " + cell.placement : name;
                    point(chart, series, cell.rateRank + offset + 0.1 * (slot - 1), f.ratio, f.ratioCi95, c, false);
                    XYSeries p = chart.getSeriesMap().get(series);
                    p.setMarker(marker(where));
                    p.setShowInLegend(!named);
                    named = true;
                }
            }
            offset += 0.03;
        }
        if (!chart.getSeriesMap().isEmpty()) {
            EfficiencyChart.line(chart, "1.0", List.of(0.5, maxRank + 0.5), 1.0, Color.GRAY, true);
        }
        EfficiencyChart.placeholderIfEmpty(chart);
        return chart;
    }

    /** A marker at (x, ratio) with a vertical segment over the interval; only the across-run point is in the legend. */
    private static void point(XYChart chart, String name, double x, double ratio, double[] ci, Color c, boolean legend) {
        XYSeries p = chart.addSeries(name, List.of(x), List.of(ratio));
        p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        p.setMarker(legend ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
        p.setMarkerColor(c);
        p.setShowInLegend(legend);
        if (ci != null) {
            XYSeries s = chart.addSeries(name + " CI", List.of(x, x), List.of(ci[0], ci[1]));
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(c);
            s.setLineStyle(new BasicStroke(legend ? 2.5f : 1.5f));
            s.setShowInLegend(false);
        }
    }
}
