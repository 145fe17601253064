package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.report.Format;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * chart.png of an efficiency run, three panels: the main CPU figure ({@link CpuMeasure}: the broker's, or in ms-sync the
 * master + slave pair's) per message of every window in the interval over the run
 * (drift and pairing visible), every pair's ratio to the baseline with the estimate and its 95% interval, and p99
 * latency per window (the rate was below saturation if it stayed flat), its legend each variant's merged p50/p99/p99.9.
 * With several cells three more: CPU per message, p99 and p99.9 latency of every cell against the rate, per placement.
 */
public final class EfficiencyChart {
    static final Color[] COLORS = {new Color(0x1F, 0x77, 0xB4), new Color(0xD6, 0x27, 0x28), new Color(0x2C, 0xA0, 0x2C),
        new Color(0xFF, 0x7F, 0x0E), new Color(0x94, 0x67, 0xBD), new Color(0x8C, 0x56, 0x4B)};

    /** Room per legend entry beside its text: the marker or line sample and the padding around it, in px. */
    static final int LEGEND_ENTRY_EXTRA = 50;

    private EfficiencyChart() {
    }

    public static void write(EfficiencyResults r, Path png) throws IOException {
        List<Chart<?, ?>> charts = new ArrayList<>();
        CpuMeasure main = CpuMeasure.main(r);
        String windows = r.cells.size() > 1 ? "headline cell's windows" : "windows in the interval";
        charts.add(perWindow(r, (main == CpuMeasure.PAIR ? "Master + slave" : main == CpuMeasure.CLIENT ? "Client" : "Broker") + " CPU/msg, " + windows, "us/msg",
            main::of, v -> v.name));
        charts.add(ratios(r, main));
        // The legend carries each variant's merged p50/p99/p99.9 of the same windows: the latency the CPU figure was paid with.
        XYChart latency = perWindow(r, "p99 send latency per window (legend: " + Format.LATENCY_HEADER + ", merged)", "ms",
            w -> w.latencyMs == null ? null : w.latencyMs.p99, v -> v.name + " " + Format.latency(v.latencyMs));
        // Names that long do not fit side by side below the chart (the third was cut off): one per row.
        latency.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        charts.add(latency);
        if (r.cells.size() > 1) {
            charts.add(rateCurve(r, (main == CpuMeasure.PAIR ? "Pair " : "") + "CPU per message against rate (dashed: pinned, dotted: split)",
                "us/msg", v -> main.of(v) == null ? null : main.of(v).median));
            charts.add(rateCurve(r, "p99 send latency against rate (dashed: pinned, dotted: split)", "ms",
                v -> v.latencyMs == null ? null : v.latencyMs.p99));
            // Its own panel: a p99.9 of tens of ms would flatten the p99 lines to the axis. Six panels also fill the grid.
            charts.add(rateCurve(r, "p99.9 send latency against rate (dashed: pinned, dotted: split)", "ms",
                v -> v.latencyMs == null ? null : v.latencyMs.p999));
        }
        charts.forEach(c -> fitLegend((XYChart) c));
        String file = png.toString();
        String base = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        int rows = charts.size() > 3 ? 2 : 1;
        BitmapEncoder.saveBitmap(charts, rows, (charts.size() + rows - 1) / rows, base, BitmapEncoder.BitmapFormat.PNG);
    }

    static XYChart chart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(560).height(420).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setSeriesColors(COLORS);
        return chart;
    }

    private static XYChart perWindow(EfficiencyResults r, String title, String unit, Function<Window, Double> figure,
                                     Function<EfficiencyResults.VariantResult, String> series) {
        XYChart chart = chart(title, "window", unit);
        Predicate<Window> headline = EfficiencySummary.headline(r);
        for (EfficiencyResults.VariantResult v : r.variants) {
            List<Number> x = new ArrayList<>();
            List<Number> y = new ArrayList<>();
            for (Window w : r.windows) {
                Double value = figure.apply(w);
                if (w.inInterval && headline.test(w) && w.variant.equals(v.name) && value != null) {
                    x.add(w.index);
                    y.add(value);
                }
            }
            if (!x.isEmpty()) {
                XYSeries s = chart.addSeries(series.apply(v), x, y);
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                s.setMarker(SeriesMarkers.CIRCLE);
            }
        }
        placeholderIfEmpty(chart);
        return chart;
    }

    private static XYChart ratios(EfficiencyResults r, CpuMeasure measure) {
        XYChart chart = chart((measure == CpuMeasure.PAIR ? "Pair " : "") + "CPU/msg ratio to " + r.baseline + " per pair (grey: 1.0)", "pair",
            "ratio");
        var pairs = EfficiencySummary.measuredPairs(r.windows, EfficiencySummary.headline(r));
        // Two or more lines' labels do not fit side by side below the chart: one per row then, and the points (the
        // colour of their line) left out of the legend.
        boolean several = r.variants.stream().filter(v -> !v.name.equals(r.baseline) && measure.of(v) != null
            && measure.of(v).ratio != null).count() > 1;
        if (several) {
            chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        }
        int color = 1;
        for (EfficiencyResults.VariantResult v : r.variants) {
            EfficiencyResults.CpuFigure f = measure.of(v);
            if (v.name.equals(r.baseline) || f == null || f.ratio == null) {
                continue;
            }
            List<Number> x = new ArrayList<>();
            List<Number> y = new ArrayList<>();
            pairs.forEach((pair, windows) -> {
                Window a = windows.get(v.name);
                Window b = windows.get(r.baseline);
                if (a != null && b != null && a.inInterval && b.inInterval && measure.of(a) != null && measure.of(b) != null) {
                    x.add(pair);
                    y.add(measure.of(a) / measure.of(b));
                }
            });
            if (x.isEmpty()) {
                continue;
            }
            Color c = COLORS[color++ % COLORS.length];
            XYSeries points = chart.addSeries(v.name + " pairs", x, y);
            points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            points.setMarker(SeriesMarkers.CIRCLE);
            points.setMarkerColor(c);
            points.setShowInLegend(!several);
            List<Number> ends = List.of(x.get(0), x.get(x.size() - 1));
            double[] ci = f.ratioCi95;
            line(chart, v.name + " " + String.format(java.util.Locale.ROOT, "%.3f", f.ratio)
                + (ci == null ? "" : String.format(java.util.Locale.ROOT, ", CI %.3f-%.3f (dashed)", ci[0], ci[1])), ends,
                f.ratio, c, false).setShowInLegend(true);
            if (ci != null) {
                line(chart, v.name + " 95% CI low", ends, ci[0], c, true);
                line(chart, v.name + " 95% CI high", ends, ci[1], c, true);
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            List<Number> all = new ArrayList<>();
            for (XYSeries s : chart.getSeriesMap().values()) {
                for (double d : s.getXData()) {
                    all.add(d);
                }
            }
            double min = all.stream().mapToDouble(Number::doubleValue).min().orElse(0);
            double max = all.stream().mapToDouble(Number::doubleValue).max().orElse(1);
            line(chart, "1.0", List.of(min, max), 1.0, Color.GRAY, true);
        }
        placeholderIfEmpty(chart);
        return chart;
    }

    /** One figure of each cell (over its interval windows) against the rate, per variant and placement. */
    private static XYChart rateCurve(EfficiencyResults r, String title, String unit, Function<EfficiencyResults.VariantResult, Double> figure) {
        XYChart chart = chart(title, "msg/s", unit);
        for (int i = 0; i < r.variants.size(); i++) {
            Color c = COLORS[i % COLORS.length];
            boolean named = false;
            for (Placement placement : List.of(Placement.UNPINNED, Placement.PINNED, Placement.SPLIT)) {
                List<Number> x = new ArrayList<>();
                List<Number> y = new ArrayList<>();
                for (EfficiencyResults.CellResult cell : r.cells) {
                    Double value = placement.label.equals(cell.placement) ? figure.apply(cell.variants.get(i)) : null;
                    if (value != null) {
                        x.add(cell.rateMsgPerS);
                        y.add(value);
                    }
                }
                if (x.isEmpty()) {
                    continue;
                }
                // The legend names each variant once (its colour); the title says which line style is which
                // placement. One entry per variant and placement did not fit beside each other (cut off at the edge).
                XYSeries s = chart.addSeries(named ? r.variants.get(i).name + " " + placement.label : r.variants.get(i).name, x, y);
                s.setShowInLegend(!named);
                named = true;
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                s.setMarker(SeriesMarkers.CIRCLE);
                s.setMarkerColor(c);
                s.setLineColor(c);
                if (placement != Placement.UNPINNED) {
                    float[] dashes = placement == Placement.PINNED ? new float[] {6f, 4f} : new float[] {2f, 3f};
                    s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dashes, 0f));
                }
            }
        }
        placeholderIfEmpty(chart);
        return chart;
    }

    /** A horizontal line; only solid ones are named in the legend, which has room for a few entries only. */
    static XYSeries line(XYChart chart, String name, List<Number> x, double y, Color color, boolean dashed) {
        XYSeries s = chart.addSeries(name, x, List.of(y, y));
        s.setShowInLegend(!dashed);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(dashed ? new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f)
            : new BasicStroke(2f));
        return s;
    }

    /**
     * A legend laid out side by side below the panel is cut off at its edge when its entries are wider than the panel
     * (four variants' names in a curve run): then one entry per row. Measured with the legend's own font; each entry
     * also takes its marker or line sample and padding ({@link #LEGEND_ENTRY_EXTRA} px).
     */
    static void fitLegend(XYChart chart) {
        Styler styler = chart.getStyler();
        if (styler.getLegendLayout() != Styler.LegendLayout.Horizontal) {
            return;
        }
        Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        int width = LEGEND_ENTRY_EXTRA;
        try {
            FontMetrics metrics = g.getFontMetrics(styler.getLegendFont());
            for (XYSeries s : chart.getSeriesMap().values()) {
                if (s.isShowInLegend()) {
                    width += metrics.stringWidth(s.getName()) + LEGEND_ENTRY_EXTRA;
                }
            }
        } finally {
            g.dispose();
        }
        if (width > chart.getWidth()) {
            styler.setLegendLayout(Styler.LegendLayout.Vertical);
        }
    }

    static void placeholderIfEmpty(XYChart chart) {
        if (chart.getSeriesMap().isEmpty()) {
            XYSeries s = chart.addSeries("no data", List.of(0), List.of(0));
            s.setMarker(SeriesMarkers.NONE);
        }
    }
}
