package dev.rmqpatch.bench.workload;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a workload file: JSON, or the flat {@code key: value} YAML that OpenMessaging Benchmark workload files use.
 * Fields left out keep the defaults of {@link Workload#defaults()}. Unknown fields are errors, and OMB features this
 * harness does not implement (payload files, key distributors, randomized payloads) are refused instead of being ignored, so a
 * workload never silently measures something else than its file says.
 */
public final class WorkloadParser {
    private static final List<String> KNOWN = List.of(
        "name", "topics", "partitionsPerTopic", "messageSize", "producersPerTopic", "producerRate",
        "warmupDurationSeconds", "testDurationSeconds", "warmupDurationMinutes", "testDurationMinutes",
        "threadsPerAgent", "sendMode", "client", "messageTags", "messageKeys",
        "subscriptionsPerTopic", "consumerPerSubscription", "consumerBacklogSizeGB", "payloadFile", "keyDistributor",
        "useRandomizedPayloads");

    private WorkloadParser() {
    }

    public static Workload parse(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    public static Workload parse(String text) {
        String trimmed = text.strip();
        Map<String, String> fields = trimmed.startsWith("{") ? jsonFields(trimmed) : yamlFields(text);
        return fromFields(fields);
    }

    static Map<String, String> jsonFields(String text) {
        JsonElement root;
        try {
            root = JsonParser.parseString(text);
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage());
        }
        if (!root.isJsonObject()) {
            throw new IllegalArgumentException("a workload must be a JSON object");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        JsonObject object = root.getAsJsonObject();
        for (Map.Entry<String, JsonElement> e : object.entrySet()) {
            JsonElement v = e.getValue();
            if (!v.isJsonPrimitive()) {
                throw new IllegalArgumentException("field '" + e.getKey() + "' must be a number, string or boolean");
            }
            fields.put(e.getKey(), v.getAsString());
        }
        return fields;
    }

    static Map<String, String> yamlFields(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]);
            if (line.isBlank() || line.strip().equals("---")) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0)) || line.strip().startsWith("-")) {
                throw new IllegalArgumentException("line " + (i + 1) + ": nested YAML is not supported; workload files are flat 'key: value' lines");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("line " + (i + 1) + ": expected 'key: value', got '" + line.strip() + "'");
            }
            String key = line.substring(0, colon).strip();
            String value = unquote(line.substring(colon + 1).strip());
            if (fields.put(key, value) != null) {
                throw new IllegalArgumentException("line " + (i + 1) + ": field '" + key + "' given twice");
            }
        }
        return fields;
    }

    private static String stripComment(String line) {
        boolean single = false;
        boolean dbl = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' && !dbl) {
                single = !single;
            } else if (c == '"' && !single) {
                dbl = !dbl;
            } else if (c == '#' && !single && !dbl && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && ((v.startsWith("\"") && v.endsWith("\"")) || (v.startsWith("'") && v.endsWith("'")))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    static Workload fromFields(Map<String, String> fields) {
        for (String key : fields.keySet()) {
            if (!KNOWN.contains(key)) {
                throw new IllegalArgumentException("unknown workload field '" + key + "' (known: " + String.join(", ", KNOWN) + ")");
            }
        }
        if (fields.containsKey("payloadFile")) {
            throw new IllegalArgumentException("payloadFile is not supported; the agents send random bodies of messageSize bytes");
        }
        String keys = fields.get("keyDistributor");
        if (keys != null && !keys.equals("NO_KEY")) {
            throw new IllegalArgumentException("keyDistributor " + keys + " is not supported; every message carries the same "
                + "messageKeys (none by default), i.e. NO_KEY");
        }
        String randomized = fields.get("useRandomizedPayloads");
        if (randomized != null && !randomized.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("useRandomizedPayloads is not supported; every agent sends one random body");
        }

        Workload d = Workload.defaults();
        return new Workload(
            fields.getOrDefault("name", d.name()),
            intField(fields, "topics", d.topics()),
            intField(fields, "partitionsPerTopic", d.partitionsPerTopic()),
            intField(fields, "messageSize", d.messageSize()),
            intField(fields, "producersPerTopic", d.producersPerTopic()),
            doubleField(fields, "producerRate", d.producerRate()),
            seconds(fields, "warmupDurationSeconds", "warmupDurationMinutes", d.warmupDurationSeconds()),
            seconds(fields, "testDurationSeconds", "testDurationMinutes", d.testDurationSeconds()),
            intField(fields, "threadsPerAgent", d.threadsPerAgent()),
            fields.containsKey("sendMode") ? SendMode.parse(fields.get("sendMode")) : d.sendMode())
            .withClient(ClientMode.parse(fields.getOrDefault("client", d.client().label())))
            .withMessageTagsAndKeys(fields.get("messageTags"), fields.get("messageKeys"))
            .withConsumers(intField(fields, "subscriptionsPerTopic", 0), intField(fields, "consumerPerSubscription", 0),
                doubleField(fields, "consumerBacklogSizeGB", 0));
    }

    private static int seconds(Map<String, String> fields, String secondsKey, String minutesKey, int fallback) {
        if (fields.containsKey(secondsKey) && fields.containsKey(minutesKey)) {
            throw new IllegalArgumentException("give either " + secondsKey + " or " + minutesKey + ", not both");
        }
        if (fields.containsKey(minutesKey)) {
            double minutes = doubleValue(minutesKey, fields.get(minutesKey));
            return (int) Math.round(minutes * 60);
        }
        return intField(fields, secondsKey, fallback);
    }

    private static int intField(Map<String, String> fields, String key, int fallback) {
        String v = fields.get(key);
        if (v == null) {
            return fallback;
        }
        double d = doubleValue(key, v);
        if (d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be a whole number, not " + v);
        }
        return (int) d;
    }

    private static double doubleField(Map<String, String> fields, String key, double fallback) {
        String v = fields.get(key);
        return v == null ? fallback : doubleValue(key, v);
    }

    private static double doubleValue(String key, String v) {
        try {
            return Double.parseDouble(v.strip().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, not '" + v + "'");
        }
    }
}
