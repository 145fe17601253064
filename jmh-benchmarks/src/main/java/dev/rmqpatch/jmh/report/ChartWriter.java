package dev.rmqpatch.jmh.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * chart.png: stock and patched bars per operation, time per operation on top and bytes allocated per operation
 * below (when the run had -prof gc). The speedup is part of each operation's label. Both axes are logarithmic,
 * because operations range from tens of nanoseconds to tens of microseconds; an axis falls back to linear when a
 * value is zero. JMH's error intervals are in table.txt and results.json, not on the chart: XChart 3.8 draws
 * error bars on a logarithmic axis from the axis floor to far above the bar, which misleads more than it shows.
 */
public final class ChartWriter {

    static final int WIDTH = 1100;
    static final int HEIGHT = 600;
    private static final Color STOCK = new Color(0x9A, 0xA5, 0xB1);
    private static final Color PATCHED = new Color(0x1F, 0x77, 0xB4);

    private ChartWriter() {
    }

    public static void write(Path png, List<Comparison> comparisons, String subtitle) throws IOException {
        if (comparisons.isEmpty()) {
            throw new IllegalArgumentException("nothing to chart");
        }
        List<String> labels = new ArrayList<>();
        for (Comparison c : comparisons) {
            labels.add(c.operation() + String.format(Locale.ROOT, " (%.2fx)", c.speedup()));
        }
        String unit = comparisons.get(0).stock().primary().unit();
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(panel("Time per operation, " + unit + " (lower is better) - " + subtitle, unit, labels, comparisons,
            r -> r.primary()));
        boolean allocation = comparisons.stream().allMatch(Comparison::hasAllocation);
        if (allocation) {
            charts.add(panel("Allocation per operation, B/op (lower is better)", "B/op", labels, comparisons,
                r -> r.allocation()));
        }
        String file = png.toString();
        String base = file.endsWith(".png") ? file.substring(0, file.length() - 4) : file;
        BitmapEncoder.saveBitmap(charts, charts.size(), 1, base, BitmapEncoder.BitmapFormat.PNG);
    }

    private static CategoryChart panel(String title, String unit, List<String> labels, List<Comparison> comparisons,
                                       Function<JmhResult, Metric> metric) {
        List<Double> stock = new ArrayList<>();
        List<Double> patched = new ArrayList<>();
        boolean positive = true;
        double lowest = Double.POSITIVE_INFINITY;
        double highest = 0;
        for (Comparison c : comparisons) {
            for (JmhResult r : List.of(c.stock(), c.patched())) {
                double score = metric.apply(r).score();
                positive &= score > 0;
                lowest = Math.min(lowest, score);
                highest = Math.max(highest, score);
            }
            stock.add(metric.apply(c.stock()).score());
            patched.add(metric.apply(c.patched()).score());
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .yAxisTitle(unit + (positive ? " (log scale)" : "")).build();
        CategoryStyler s = chart.getStyler();
        s.setYAxisLogarithmic(positive);
        s.setYAxisDecimalPattern("#,##0");
        if (positive) {
            // Bar charts anchor the axis at 0 unless told otherwise, which a log axis cannot show.
            s.setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))));
            // XChart's own maximum can fall below the tallest bar on a log axis and cut it off.
            s.setYAxisMax(Math.pow(10, Math.ceil(Math.log10(highest * 1.05))));
        }
        // Vertical labels sit centred under their bars; slanted ones drift a category to the left.
        s.setXAxisLabelRotation(90);
        // Below the labels: inside the plot it hides the top of some bar, whatever corner it is in.
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setSeriesColors(new Color[] {STOCK, PATCHED});
        s.setChartTitleFont(s.getChartTitleFont().deriveFont(14f));
        s.setAxisTickLabelsFont(s.getAxisTickLabelsFont().deriveFont(11f));
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotGridVerticalLinesVisible(false);
        chart.addSeries("stock RocketMQ 4.9.0", labels, stock);
        chart.addSeries("patched (rmqpatch codec)", labels, patched);
        return chart;
    }
}
