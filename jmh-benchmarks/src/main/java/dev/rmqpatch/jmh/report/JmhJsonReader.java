package dev.rmqpatch.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

/** Reads a JMH JSON result file ({@code -rf json}) into {@link JmhResult}s, in file order. */
public final class JmhJsonReader {

    /** The {@code -prof gc} secondary metric: bytes allocated per benchmark operation. */
    static final String ALLOC_NORM = "gc.alloc.rate.norm";

    private JmhJsonReader() {
    }

    public static List<JmhResult> read(Path file) throws ReportInputException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ReportInputException("JMH result file not found: " + file);
        } catch (IOException e) {
            throw new ReportInputException("cannot read JMH result file " + file + ": " + e.getMessage(), e);
        }
        try {
            return parse(text);
        } catch (ReportInputException e) {
            throw new ReportInputException(file + ": " + e.getMessage(), e);
        }
    }

    static List<JmhResult> parse(String text) throws ReportInputException {
        if (text.isBlank()) {
            throw new ReportInputException("empty file; JMH writes it only when the run completes");
        }
        JsonElement root;
        try {
            root = JsonParser.parseString(text);
        } catch (JsonParseException e) {
            throw new ReportInputException("not valid JSON (" + e.getMessage() + ")", e);
        }
        return parse(root);
    }

    private static List<JmhResult> parse(JsonElement root) throws ReportInputException {
        if (!root.isJsonArray()) {
            throw new ReportInputException("not a JMH JSON result file (expected a JSON array of benchmark results)");
        }
        JsonArray array = root.getAsJsonArray();
        List<JmhResult> results = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonElement e = array.get(i);
            if (!e.isJsonObject()) {
                throw new ReportInputException("entry " + i + " is not a JSON object");
            }
            results.add(result(e.getAsJsonObject(), i));
        }
        return results;
    }

    private static JmhResult result(JsonObject o, int index) throws ReportInputException {
        String where = "entry " + index;
        String benchmark = string(o, "benchmark", where);
        where = where + " (" + benchmark + ")";
        Metric primary = metric(object(o, "primaryMetric", where), where + " primaryMetric");
        Metric alloc = null;
        JsonObject secondary = o.has("secondaryMetrics") && o.get("secondaryMetrics").isJsonObject()
            ? o.getAsJsonObject("secondaryMetrics") : new JsonObject();
        for (Map.Entry<String, JsonElement> m : secondary.entrySet()) {
            // JMH before 1.36 prefixed profiler metrics with a middle dot: "\u00b7gc.alloc.rate.norm".
            String name = m.getKey().startsWith("\u00b7") ? m.getKey().substring(1) : m.getKey();
            if (name.equals(ALLOC_NORM) && m.getValue().isJsonObject()) {
                alloc = metric(m.getValue().getAsJsonObject(), where + " " + ALLOC_NORM);
            }
        }
        Map<String, String> params = new LinkedHashMap<>();
        if (o.has("params") && o.get("params").isJsonObject()) {
            for (Map.Entry<String, JsonElement> p : o.getAsJsonObject("params").entrySet()) {
                params.put(p.getKey(), p.getValue().isJsonPrimitive() ? p.getValue().getAsString() : p.getValue().toString());
            }
        }
        List<String> jvmArgs = new ArrayList<>();
        if (o.has("jvmArgs") && o.get("jvmArgs").isJsonArray()) {
            for (JsonElement a : o.getAsJsonArray("jvmArgs")) {
                jvmArgs.add(a.getAsString());
            }
        }
        JmhResult.RunInfo run = new JmhResult.RunInfo(
            optString(o, "jmhVersion"), optString(o, "jdkVersion"), optString(o, "vmName"), optString(o, "vmVersion"),
            optString(o, "jvm"), Collections.unmodifiableList(jvmArgs), optInt(o, "forks"), optInt(o, "threads"),
            optInt(o, "warmupIterations"), optString(o, "warmupTime"),
            optInt(o, "measurementIterations"), optString(o, "measurementTime"));
        return new JmhResult(benchmark, string(o, "mode", where), Collections.unmodifiableMap(params), primary, alloc, run);
    }

    private static Metric metric(JsonObject m, String where) throws ReportInputException {
        double score = number(m, "score", where);
        if (Double.isNaN(score)) {
            throw new ReportInputException(where + " has no score (NaN)");
        }
        double error = m.has("scoreError") ? number(m, "scoreError", where) : Double.NaN;
        return new Metric(score, error, string(m, "scoreUnit", where));
    }

    private static JsonObject object(JsonObject o, String field, String where) throws ReportInputException {
        JsonElement e = o.get(field);
        if (e == null || !e.isJsonObject()) {
            throw new ReportInputException(where + " has no '" + field + "' object");
        }
        return e.getAsJsonObject();
    }

    private static String string(JsonObject o, String field, String where) throws ReportInputException {
        JsonElement e = o.get(field);
        if (e == null || !e.isJsonPrimitive() || e.getAsString().isEmpty()) {
            throw new ReportInputException(where + " has no '" + field + "'");
        }
        return e.getAsString();
    }

    /** A number; JMH writes NaN and infinities as strings ("NaN"). */
    private static double number(JsonObject o, String field, String where) throws ReportInputException {
        JsonElement e = o.get(field);
        if (e != null && e.isJsonPrimitive()) {
            JsonPrimitive p = e.getAsJsonPrimitive();
            if (p.isNumber()) {
                return p.getAsDouble();
            }
            if (p.isString()) {
                switch (p.getAsString()) {
                    case "NaN":
                        return Double.NaN;
                    case "Infinity":
                        return Double.POSITIVE_INFINITY;
                    case "-Infinity":
                        return Double.NEGATIVE_INFINITY;
                    default:
                        break;
                }
            }
        }
        throw new ReportInputException(where + " has no numeric '" + field + "'");
    }

    private static String optString(JsonObject o, String field) {
        JsonElement e = o.get(field);
        return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
    }

    private static int optInt(JsonObject o, String field) {
        JsonElement e = o.get(field);
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber() ? e.getAsInt() : 0;
    }
}
