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
 * Every field of OMB's Workload class is read and honoured (see distributed-bench/README.md for how each maps); fields left
 * out keep the defaults of {@link Workload#defaults()}, except that a file with OMB's testDurationMinutes and no warm-up
 * gets OMB's one-minute warm-up. Unknown fields are errors, so a workload never silently measures something else than
 * its file says. {@code producerRate: 0} in a file is OMB's search for the maximum sustainable rate.
 */
public final class WorkloadParser {
    /** Every field of OMB's Workload class (main branch), in its order. */
    static final List<String> OMB_FIELDS = List.of(
        "name", "topics", "partitionsPerTopic", "keyDistributor", "messageSize", "useRandomizedPayloads", "randomBytesRatio",
        "randomizedPayloadPoolSize", "payloadFile", "subscriptionsPerTopic", "producersPerTopic", "consumerPerSubscription",
        "producerRate", "consumerBacklogSizeGB", "backlogDrainRatio", "testDurationMinutes", "warmupDurationMinutes");
    /** This harness's own fields. */
    static final List<String> OWN_FIELDS = List.of(
        "warmupDurationSeconds", "testDurationSeconds", "threadsPerAgent", "sendMode", "client", "messageTags", "messageKeys");
    /** OMB's warm-up when a file leaves warmupDurationMinutes out (Workload.warmupDurationMinutes = 1). */
    static final int OMB_DEFAULT_WARMUP_SECONDS = 60;

    private WorkloadParser() {
    }

    public static Workload parse(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            return parse(text, file.toAbsolutePath().getParent());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    public static Workload parse(String text) {
        return parse(text, null);
    }

    /** {@code workloadDir}: where a relative payloadFile is looked for first (null: only --payload-dir). */
    public static Workload parse(String text, Path workloadDir) {
        String trimmed = text.strip();
        Map<String, String> fields = trimmed.startsWith("{") ? jsonFields(trimmed) : yamlFields(text);
        return fromFields(fields, workloadDir);
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
        return fromFields(fields, null);
    }

    static Workload fromFields(Map<String, String> fields, Path workloadDir) {
        for (String key : fields.keySet()) {
            if (!OMB_FIELDS.contains(key) && !OWN_FIELDS.contains(key)) {
                throw new IllegalArgumentException("unknown workload field '" + key + "' (OpenMessaging Benchmark's: "
                    + String.join(", ", OMB_FIELDS) + "; this harness's own: " + String.join(", ", OWN_FIELDS) + ")");
            }
        }
        Workload d = Workload.defaults();
        boolean ombDurations = fields.containsKey("testDurationMinutes") && !fields.containsKey("warmupDurationMinutes")
            && !fields.containsKey("warmupDurationSeconds");
        Workload w = new Workload(
            fields.getOrDefault("name", d.name()),
            intField(fields, "topics", d.topics()),
            intField(fields, "partitionsPerTopic", d.partitionsPerTopic()),
            intField(fields, "messageSize", d.messageSize()),
            intField(fields, "producersPerTopic", d.producersPerTopic()),
            doubleField(fields, "producerRate", d.producerRate()),
            ombDurations ? OMB_DEFAULT_WARMUP_SECONDS : seconds(fields, "warmupDurationSeconds", "warmupDurationMinutes", d.warmupDurationSeconds()),
            seconds(fields, "testDurationSeconds", "testDurationMinutes", d.testDurationSeconds()),
            intField(fields, "threadsPerAgent", d.threadsPerAgent()),
            fields.containsKey("sendMode") ? SendMode.parse(fields.get("sendMode")) : d.sendMode())
            .withClient(ClientMode.parse(fields.getOrDefault("client", d.client().label())))
            .withMessageTagsAndKeys(fields.get("messageTags"), fields.get("messageKeys"))
            .withConsumers(intField(fields, "subscriptionsPerTopic", 0), intField(fields, "consumerPerSubscription", 0),
                doubleField(fields, "consumerBacklogSizeGB", 0));
        if (fields.containsKey("keyDistributor")) {
            w = w.withKeyDistributor(KeyDistributor.parse(fields.get("keyDistributor")));
        }
        boolean randomized = booleanField(fields, "useRandomizedPayloads", false);
        if (randomized) {
            // As in OMB, randomized payloads win over a payloadFile given in the same file.
            w = w.withPayload(Payload.randomized(doubleField(fields, "randomBytesRatio", 0), intField(fields, "randomizedPayloadPoolSize", 0)));
        } else if (fields.containsKey("payloadFile")) {
            w = w.withPayload(Payload.file(fields.get("payloadFile"), workloadDir));
        }
        if (fields.containsKey("backlogDrainRatio")) {
            w = w.withBacklogDrainRatio(doubleField(fields, "backlogDrainRatio", 1.0));
        }
        if (fields.containsKey("producerRate") && w.producerRate() == 0) {
            if (w.consumerBacklogSizeGB() > 0) {
                // OMB's WorkloadGenerator refuses the same combination.
                throw new IllegalArgumentException("producerRate 0 (search for the maximum sustainable rate) cannot be combined with "
                    + "consumerBacklogSizeGB (building a backlog); OMB refuses it too");
            }
            w = w.withMaxRateSearch();
        }
        return w;
    }

    private static boolean booleanField(Map<String, String> fields, String key, boolean fallback) {
        String v = fields.get(key);
        if (v == null) {
            return fallback;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(key + " must be true or false, not '" + v + "'");
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
