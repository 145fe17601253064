package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/** The legend below a panel: side by side while its entries fit the panel's width, else one per row. */
class EfficiencyChartTest {

    @Test
    void twoShortNamesStaySideBySide() {
        XYChart chart = chartWith("4.9.8@8", "4.9.8-patched@8");
        EfficiencyChart.fitLegend(chart);
        assertEquals(Styler.LegendLayout.Horizontal, chart.getStyler().getLegendLayout());
    }

    @Test
    void fourVariantsOfACurveRunGoOnePerRow() {
        // A 2026-11-30 curve run's bottom panels: these four names side by side ran past the 560 px panel.
        XYChart chart = chartWith("4.9.8@8", "4.9.8-patched@8", "4.9.8-patched-without-P30@8",
            "4.9.8-patched-without-P15@8");
        EfficiencyChart.fitLegend(chart);
        assertEquals(Styler.LegendLayout.Vertical, chart.getStyler().getLegendLayout());
    }

    @Test
    void seriesLeftOutOfTheLegendTakeNoRoom() {
        XYChart chart = chartWith("4.9.8@8", "4.9.8-patched@8");
        for (String hidden : List.of("4.9.8-patched-without-P30@8 pinned", "4.9.8-patched-without-P15@8 pinned",
            "4.9.8-patched@8 95% CI low", "4.9.8-patched@8 95% CI high")) {
            chart.addSeries(hidden, List.of(1, 2), List.of(1, 2)).setShowInLegend(false);
        }
        EfficiencyChart.fitLegend(chart);
        assertEquals(Styler.LegendLayout.Horizontal, chart.getStyler().getLegendLayout());
    }

    @Test
    void aLegendAlreadyOnePerRowIsLeftSo() {
        XYChart chart = chartWith("a", "b");
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        EfficiencyChart.fitLegend(chart);
        assertEquals(Styler.LegendLayout.Vertical, chart.getStyler().getLegendLayout());
    }

    private static XYChart chartWith(String... names) {
        XYChart chart = EfficiencyChart.chart("title", "msg/s", "us/msg");
        for (String name : names) {
            chart.addSeries(name, List.of(1, 2), List.of(1, 2));
        }
        return chart;
    }
}
