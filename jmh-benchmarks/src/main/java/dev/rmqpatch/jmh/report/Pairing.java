package dev.rmqpatch.jmh.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs stock and patched results by naming convention: in one benchmark class, a method named {@code stock} or
 * {@code <op>Stock} goes with {@code patched} or {@code <op>Patched}, for the same parameters and mode.
 * Pairs keep the order in which their first result appears in the file.
 */
public final class Pairing {

    static final String STOCK = "stock";
    static final String PATCHED = "patched";

    /** The pairs, and the results that have no counterpart or do not follow the convention. */
    public record Pairs(List<Comparison> comparisons, List<JmhResult> unpaired) {
    }

    private Pairing() {
    }

    public static Pairs pair(List<JmhResult> results) throws ReportInputException {
        Map<String, JmhResult[]> byKey = new LinkedHashMap<>();
        List<JmhResult> unpaired = new ArrayList<>();
        for (JmhResult r : results) {
            String method = r.methodName();
            int side;
            String stem;
            if (endsWith(method, STOCK)) {
                side = 0;
                stem = method.substring(0, method.length() - STOCK.length());
            } else if (endsWith(method, PATCHED)) {
                side = 1;
                stem = method.substring(0, method.length() - PATCHED.length());
            } else {
                unpaired.add(r);
                continue;
            }
            String key = r.className() + "." + stem + " " + r.mode() + " " + r.params();
            JmhResult[] pair = byKey.computeIfAbsent(key, k -> new JmhResult[2]);
            if (pair[side] != null) {
                throw new ReportInputException("benchmark " + r.benchmark() + " " + r.params()
                    + " appears twice; give the report one run's results");
            }
            pair[side] = r;
        }
        List<Comparison> comparisons = new ArrayList<>();
        for (JmhResult[] pair : byKey.values()) {
            if (pair[0] == null || pair[1] == null) {
                unpaired.add(pair[0] != null ? pair[0] : pair[1]);
                continue;
            }
            JmhResult stock = pair[0];
            JmhResult patched = pair[1];
            if (!stock.primary().unit().equals(patched.primary().unit())) {
                throw new ReportInputException(stock.benchmark() + " is in " + stock.primary().unit() + " but "
                    + patched.benchmark() + " is in " + patched.primary().unit() + "; run both in the same mode");
            }
            String stem = stemOf(stock.methodName(), STOCK);
            comparisons.add(new Comparison(label(stock.className(), stem, stock.params()),
                stock.className() + (stem.isEmpty() ? "" : "." + stem), stock.params(), stock, patched));
        }
        return new Pairs(comparisons, unpaired);
    }

    /** {@code stock}, or a camel-case name ending in {@code Stock}; likewise for patched. */
    private static boolean endsWith(String method, String side) {
        if (method.equals(side)) {
            return true;
        }
        String suffix = Character.toUpperCase(side.charAt(0)) + side.substring(1);
        return method.length() > suffix.length() && method.endsWith(suffix);
    }

    private static String stemOf(String method, String side) {
        return method.equals(side) ? "" : method.substring(0, method.length() - side.length());
    }

    /** {@code PropertiesBenchmark}, {@code parse}, {input=typical} gives {@code Properties.parse [typical]}. */
    static String label(String className, String stem, Map<String, String> params) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        if (simple.endsWith("Benchmark") && simple.length() > "Benchmark".length()) {
            simple = simple.substring(0, simple.length() - "Benchmark".length());
        }
        StringBuilder sb = new StringBuilder(simple);
        if (!stem.isEmpty()) {
            sb.append('.').append(stem);
        }
        if (!params.isEmpty()) {
            sb.append(" [");
            boolean first = true;
            for (Map.Entry<String, String> p : params.entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                // One parameter reads best as its value alone; several need their names.
                sb.append(params.size() == 1 ? p.getValue() : p.getKey() + "=" + p.getValue());
            }
            sb.append(']');
        }
        return sb.toString();
    }
}
