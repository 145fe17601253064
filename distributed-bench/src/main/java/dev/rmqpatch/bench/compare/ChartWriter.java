package dev.rmqpatch.bench.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * chart.png: three panels (msg/s, broker CPU per message, p99 latency per round; with consumers two more, consume msg/s
 * and end-to-end p99 per round), each a bar per variant for the
 * median with every round drawn as a dot on it, so the spread is as visible as the difference.
 */
public final class ChartWriter {
    private ChartWriter() {
    }

    public static void write(CompareResults results, Path png) throws IOException {
        List<CompareResults.VariantResult> shown = new ArrayList<>();
        for (CompareResults.VariantResult v : results.variants) {
            if (v.tps != null && v.tps.median != null) {
                shown.add(v);
            }
        }
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(panel("Throughput (higher is better)", "msg/s", shown, v -> v.tps));
        charts.add(panel("Broker CPU per message (lower is better)", "us/msg", shown, v -> v.brokerCpuUsPerMsg));
        charts.add(panel("p99 send latency per round (lower is better)", "ms", shown, v -> p99Spread(v)));
        if (shown.stream().anyMatch(v -> v.consumeTps != null)) {
            charts.add(panel("Consume throughput (higher is better)", "msg/s", shown, v -> v.consumeTps));
            charts.add(panel("p99 end-to-end latency per round (lower is better)", "ms", shown, v -> endToEndP99Spread(v)));
        }
        save(charts, png);
    }

    /** Saves {@code charts} side by side as one PNG file. */
    public static void save(List<Chart<?, ?>> charts, Path png) throws IOException {
        String file = png.toString();
        String base = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        BitmapEncoder.saveBitmap(charts, 1, charts.size(), base, BitmapEncoder.BitmapFormat.PNG);
    }

    private static Spread endToEndP99Spread(CompareResults.VariantResult v) {
        List<Double> values = new ArrayList<>();
        for (CompareResults.RoundResult r : v.rounds) {
            values.add(r.endToEndLatencyMs == null ? null : r.endToEndLatencyMs.p99);
        }
        return Spread.of(values);
    }

    private static Spread p99Spread(CompareResults.VariantResult v) {
        List<Double> values = new ArrayList<>();
        for (CompareResults.RoundResult r : v.rounds) {
            values.add(r.latencyMs == null ? null : r.latencyMs.p99);
        }
        return Spread.of(values);
    }

    private static CategoryChart panel(String title, String unit, List<CompareResults.VariantResult> variants,
                                       Function<CompareResults.VariantResult, Spread> figure) {
        List<String> names = new ArrayList<>();
        List<Spread> spreads = new ArrayList<>();
        for (CompareResults.VariantResult v : variants) {
            names.add(v.name);
            spreads.add(figure.apply(v));
        }
        return panel(title, unit, names, spreads);
    }

    /**
     * One panel: a bar per name for the median of its spread, every round drawn as a dot on it ({@code spreads} in the
     * order of {@code names}; a null spread draws nothing).
     */
    public static CategoryChart panel(String title, String unit, List<String> categories, List<Spread> spreads) {
        List<String> names = new ArrayList<>(categories);
        List<Number> medians = new ArrayList<>();
        int rounds = 0;
        for (Spread s : spreads) {
            medians.add(s == null || s.median == null ? 0 : s.median);
            rounds = Math.max(rounds, s == null ? 0 : s.rounds.size());
        }
        if (names.isEmpty()) {
            names.add("no data");
            medians.add(0);
        }
        // The horizontal legend below holds "median" and one entry per round; widen the panel so none is cut off, and
        // so that every variant's name fits under its bar (the chart leaves out labels that would overlap).
        int longest = names.stream().mapToInt(String::length).max().orElse(0);
        int width = Math.max(Math.max(520, 140 + 80 * (rounds + 1)), 140 + names.size() * (8 * longest + 24));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(420).title(title).yAxisTitle(unit).build();
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(9);
        chart.getStyler().setSeriesColors(new java.awt.Color[] {new java.awt.Color(0xB8, 0xCC, 0xE4), new java.awt.Color(0xD6, 0x27, 0x28),
            new java.awt.Color(0x2C, 0x2C, 0x2C), new java.awt.Color(0xFF, 0x7F, 0x0E), new java.awt.Color(0x2C, 0xA0, 0x2C),
            new java.awt.Color(0x94, 0x67, 0xBD), new java.awt.Color(0x8C, 0x56, 0x4B), new java.awt.Color(0x17, 0xBE, 0xCF)});
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        chart.getStyler().setYAxisMin(0.0);
        chart.addSeries("median", names, medians);
        for (int r = 0; r < rounds; r++) {
            List<String> x = new ArrayList<>();
            List<Number> y = new ArrayList<>();
            for (int i = 0; i < spreads.size(); i++) {
                Spread s = spreads.get(i);
                if (s != null && r < s.rounds.size() && s.rounds.get(r) != null) {
                    x.add(categories.get(i));
                    y.add(s.rounds.get(r));
                }
            }
            if (!x.isEmpty()) {
                CategorySeries series = chart.addSeries("round " + (r + 1), x, y);
                series.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
            }
        }
        return chart;
    }
}
