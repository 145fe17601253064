package dev.rmqpatch.bench.workload;

import dev.rmqpatch.bench.lang.Jdk8;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads a workload file, YAML or JSON (through SnakeYAML, see {@link WorkloadYaml}), as OpenMessaging Benchmark workload
 * files are written. Every field of OMB's Workload class is read and honoured (see docs/harness/omb.md for how
 * each maps). Fields left out keep the defaults of {@link Workload#defaults()}, except in a file in OMB's form (one that
 * gives OMB's testDurationMinutes, as every OMB workload does), where OMB's own defaults apply wherever they make a run:
 * no warmupDurationMinutes is OMB's one-minute warm-up, no producerRate is OMB's 0 (the rate search), and no
 * consumerPerSubscription is OMB's 0 (no consumers). Where OMB's default makes no run (0 topics, partitions, producers or
 * bytes), this harness's default is used and {@link Workload#notes()} says so, as it says what other values OMB would
 * read otherwise. Unknown fields are errors, so a workload never silently measures something else than its file says.
 * {@code producerRate: 0} in a file is OMB's search for the maximum sustainable rate.
 */
public final class WorkloadParser {
    /** Every field of OMB's Workload class (main branch), in its order. */
    static final List<String> OMB_FIELDS = Jdk8.listOf(
        "name", "topics", "partitionsPerTopic", "keyDistributor", "messageSize", "useRandomizedPayloads", "randomBytesRatio",
        "randomizedPayloadPoolSize", "payloadFile", "subscriptionsPerTopic", "producersPerTopic", "consumerPerSubscription",
        "producerRate", "consumerBacklogSizeGB", "backlogDrainRatio", "testDurationMinutes", "warmupDurationMinutes");
    /** This harness's own fields. */
    static final List<String> OWN_FIELDS = Jdk8.listOf(
        "warmupDurationSeconds", "testDurationSeconds", "threadsPerAgent", "sendMode", "client", "messageTags", "messageKeys");
    /** OMB's warm-up when a file leaves warmupDurationMinutes out (Workload.warmupDurationMinutes = 1). */
    static final int OMB_DEFAULT_WARMUP_SECONDS = 60;
    /** OMB's fields that are whole numbers there (int or long): OMB truncates a fraction, this harness keeps it. */
    private static final List<String> OMB_WHOLE_NUMBER_FIELDS = Jdk8.listOf(
        "producerRate", "consumerBacklogSizeGB", "testDurationMinutes", "warmupDurationMinutes");
    /** OMB's fields whose OMB default (0) makes no run; a file in OMB's form without them gets this harness's default. */
    private static final List<String> OMB_ZERO_DEFAULTS_REPLACED = Jdk8.listOf("topics", "partitionsPerTopic", "messageSize", "producersPerTopic");

    private WorkloadParser() {
    }

    public static Workload parse(Path file) throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
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
        return fromFields(WorkloadYaml.fields(text), workloadDir);
    }

    /** The fields of a workload text, name to value text, in file order (see {@link WorkloadYaml}). */
    static Map<String, String> fields(String text) {
        return WorkloadYaml.fields(text);
    }

    static Workload fromFields(Map<String, String> fields) {
        return fromFields(fields, null);
    }

    static Workload fromFields(Map<String, String> fields, Path workloadDir) {
        for (String key : fields.keySet()) {
            if (!OMB_FIELDS.contains(key) && !OWN_FIELDS.contains(key)) {
                throw new IllegalArgumentException("unknown workload field '" + key + "' (OpenMessaging Benchmark's: "
                    + String.join(", ", OMB_FIELDS) + "; this harness's own: " + String.join(", ", OWN_FIELDS) + "). OMB skips fields "
                    + "it does not know; here they are refused, so that a misspelt field never runs something else than the file says");
            }
        }
        Workload d = Workload.defaults();
        // OMB's form: every OMB workload file gives testDurationMinutes (without it OMB runs until stopped).
        boolean ombForm = fields.containsKey("testDurationMinutes");
        boolean ombDurations = ombForm && !fields.containsKey("warmupDurationMinutes")
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
        boolean rateLeftOut = ombForm && !fields.containsKey("producerRate");
        if ((fields.containsKey("producerRate") || rateLeftOut) && w.producerRate() == 0) {
            if (w.consumerBacklogSizeGB() > 0) {
                // OMB's WorkloadGenerator refuses the same combination.
                throw new IllegalArgumentException((rateLeftOut ? "no producerRate (OMB's default: producerRate 0, " : "producerRate 0 (")
                    + "search for the maximum sustainable rate) cannot be combined with consumerBacklogSizeGB (building a backlog); "
                    + "OMB refuses it too");
            }
            w = w.withMaxRateSearch();
        }
        return withNotes(w, fields, ombForm, rateLeftOut);
    }

    /** The sentences of {@link Workload#notes()} that only the file's text tells: defaults taken and fractions OMB drops. */
    private static Workload withNotes(Workload w, Map<String, String> fields, boolean ombForm, boolean rateLeftOut) {
        if (ombForm) {
            Workload d = Workload.defaults();
            List<Integer> harness = Jdk8.listOf(d.topics(), d.partitionsPerTopic(), d.messageSize(), d.producersPerTopic());
            for (int i = 0; i < OMB_ZERO_DEFAULTS_REPLACED.size(); i++) {
                String field = OMB_ZERO_DEFAULTS_REPLACED.get(i);
                if (!fields.containsKey(field)) {
                    w = w.withNote(field, field + " not given: OMB's default of 0 makes no run; runs with this harness's default of "
                        + harness.get(i));
                }
            }
            if (!w.payload().isFile() && !w.payload().isRandomized()) {
                w = w.withNote("payloadFile", "neither payloadFile nor useRandomizedPayloads: OMB would fail to load a payload; "
                    + "sends one random body of messageSize bytes per agent (this harness's default)");
            }
            if (rateLeftOut) {
                w = w.withNote("producerRate", "producerRate not given: OMB's default of 0, its search for the maximum sustainable "
                    + "rate, as OMB runs it");
            }
        }
        for (String field : OMB_WHOLE_NUMBER_FIELDS) {
            if (fields.containsKey(field)) {
                double v = doubleValue(field, fields.get(field));
                long truncated = (long) v;
                if (v != truncated) {
                    String zero = truncated != 0 ? "" : field.equals("producerRate") ? ", the rate search"
                        : field.equals("consumerBacklogSizeGB") ? ", no backlog"
                        : field.equals("testDurationMinutes") ? ", which runs until stopped" : ", no warm-up";
                    w = w.withNote(field, field + " " + Jdk8.strip(fields.get(field)) + " is not a whole number: OMB's field is an integer, "
                        + "so OMB would read " + truncated + zero + "; runs with " + Jdk8.strip(fields.get(field)) + " here");
                }
            }
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
            return Double.parseDouble(Jdk8.strip(v).replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, not '" + v + "'");
        }
    }
}
