package dev.rmqpatch.jmh.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The comparison table as a Markdown pipe table, padded so it also reads well in a terminal:
 * operation, stock and patched time (with JMH's error), speedup, stock and patched bytes per operation, and the
 * share of bytes saved.
 */
public final class TableFormatter {

    private TableFormatter() {
    }

    public static String format(List<Comparison> comparisons, List<JmhResult> unpaired) {
        String unit = commonUnit(comparisons);
        String timeHeader = unit == null ? "" : " " + unit;
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"operation", "stock" + timeHeader, "patched" + timeHeader, "speedup",
            "stock B/op", "patched B/op", "B/op saved"});
        for (Comparison c : comparisons) {
            rows.add(new String[] {
                c.operation(),
                time(c.stock().primary(), unit),
                time(c.patched().primary(), unit),
                String.format(Locale.ROOT, "%.2fx", c.speedup()),
                bytes(c.stock().allocation()),
                bytes(c.patched().allocation()),
                Double.isNaN(c.allocationSaved()) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * c.allocationSaved()),
            });
        }
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        appendRow(sb, rows.get(0), width);
        sb.append('|');
        for (int i = 0; i < width.length; i++) {
            // Text left, numbers right-aligned (Markdown alignment row).
            sb.append(i == 0 ? "-".repeat(width[i] + 2) : "-".repeat(width[i] + 1) + ":").append('|');
        }
        sb.append('\n');
        for (int r = 1; r < rows.size(); r++) {
            appendRow(sb, rows.get(r), width);
        }
        sb.append('\n')
            .append("speedup = stock time / patched time; ± = JMH's 99.9% confidence half-width; ")
            .append("B/op = gc.alloc.rate.norm from -prof gc.\n");
        for (JmhResult r : unpaired) {
            sb.append("not paired (no stock/patched counterpart): ").append(r.benchmark());
            if (!r.params().isEmpty()) {
                sb.append(' ').append(r.params());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static void appendRow(StringBuilder sb, String[] row, int[] width) {
        sb.append('|');
        for (int i = 0; i < row.length; i++) {
            String cell = row[i];
            String pad = " ".repeat(width[i] - cell.length());
            sb.append(' ').append(i == 0 ? cell + pad : pad + cell).append(" |");
        }
        sb.append('\n');
    }

    /** The unit every row's time shares, or null when they differ (each cell then names its own). */
    private static String commonUnit(List<Comparison> comparisons) {
        String unit = null;
        for (Comparison c : comparisons) {
            String u = c.stock().primary().unit();
            if (unit == null) {
                unit = u;
            } else if (!unit.equals(u)) {
                return null;
            }
        }
        return unit;
    }

    static String time(Metric m, String commonUnit) {
        String s = Double.isNaN(m.error())
            ? String.format(Locale.ROOT, "%.1f", m.score())
            : String.format(Locale.ROOT, "%.1f ± %.1f", m.score(), m.error());
        return commonUnit == null ? s + " " + m.unit() : s;
    }

    static String bytes(Metric m) {
        return m == null ? "n/a" : String.format(Locale.ROOT, "%.0f", m.score());
    }
}
