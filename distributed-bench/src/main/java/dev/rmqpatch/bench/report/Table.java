package dev.rmqpatch.bench.report;

import java.util.List;

/** Plain-text table: first column left-aligned, the others right-aligned, two spaces between columns. */
public final class Table {
    private Table() {
    }

    public static String render(List<String[]> rows) {
        int columns = 0;
        for (String[] r : rows) {
            columns = Math.max(columns, r.length);
        }
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int c = 0; c < r.length; c++) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        StringBuilder s = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < r.length; c++) {
                if (c > 0) {
                    line.append("  ");
                }
                String cell = r[c];
                String pad = " ".repeat(width[c] - cell.length());
                line.append(c == 0 ? cell + pad : pad + cell);
            }
            s.append(line.toString().stripTrailing()).append('\n');
        }
        return s.toString();
    }
}
