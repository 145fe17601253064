package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * chart.png of compare --efficiency --runs N: each run's ratio to the baseline with its own 95% interval (runs 1..N), and
 * at N + 1 the ratio across runs with the t interval over runs; grey line at 1.0.
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
        if (a.cells.size() < 2) {
            BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
            return;
        }
        BitmapEncoder.saveBitmap(List.<Chart<?, ?>>of(chart, cells(a, main)), 1, 2, base, BitmapEncoder.BitmapFormat.PNG);
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
                    p.setMarker(where == Placement.PINNED ? SeriesMarkers.CIRCLE : where == Placement.SPLIT ? SeriesMarkers.PLUS
                        : SeriesMarkers.CROSS);
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
