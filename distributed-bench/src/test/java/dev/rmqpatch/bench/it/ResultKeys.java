package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The field paths of a results.json ({@code variants[].tps.median}, ...) against a committed sample, so that a change to
 * the harness cannot add, drop or rename a documented field unnoticed. Names that are data, not fields, become
 * {@code <name>}: variant names (the test passes them) and the keys of the maps in {@link #MAPS} (jar names, profile
 * areas, error kinds), whose entries depend on what a run met.
 *
 * <p>A sample line ending in {@code " ?"} is a field that only some runs write (a window's note when it missed its rate,
 * errors by kind when sends failed): allowed, not required. After an intended change to the fields,
 * {@code -Drmqpatch.updateKeys=true} rewrites the sample, keeping those marks (commit it).
 */
final class ResultKeys {
    static final Set<String> MAPS = Set.of("jars", "areas", "errorsByKind", "groups", "groupCpuUsPerMsg", "groupSwitchesPerMsg",
        "groupReadCallsPerMsg", "groupWriteCallsPerMsg");

    private ResultKeys() {
    }

    static void assertSameAsSample(String sample, JsonObject results, Set<String> dataKeys) throws IOException {
        Set<String> paths = new TreeSet<>();
        collect("", results, dataKeys, paths);
        Path file = Dists.repoRoot().resolve("distributed-bench/src/test/resources/dev/rmqpatch/bench/it/" + sample);
        Set<String> optional = new TreeSet<>();
        Set<String> required = new TreeSet<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                if (line.endsWith(" ?")) {
                    optional.add(line.substring(0, line.length() - 2));
                } else if (!line.isBlank()) {
                    required.add(line);
                }
            }
        }
        if (Boolean.getBoolean("rmqpatch.updateKeys") || !Files.exists(file)) {
            Set<String> lines = new TreeSet<>();
            for (String p : paths) {
                lines.add(optional.contains(p) ? p + " ?" : p);
            }
            optional.stream().filter(p -> !paths.contains(p)).forEach(p -> lines.add(p + " ?"));
            Files.writeString(file, String.join("\n", lines) + "\n");
            return;
        }
        Set<String> missing = new TreeSet<>(required);
        missing.removeAll(paths);
        Set<String> added = new TreeSet<>(paths);
        added.removeAll(required);
        added.removeAll(optional);
        assertTrue(missing.isEmpty() && added.isEmpty(), "results.json fields differ from " + file + ": missing " + missing + ", new "
            + added + " (after an intended change: -Drmqpatch.updateKeys=true rewrites the sample)");
    }

    private static String last(String path) {
        String p = path.endsWith("[]") ? path.substring(0, path.length() - 2) : path;
        return p.substring(p.lastIndexOf('.') + 1);
    }

    private static void collect(String prefix, JsonElement e, Set<String> dataKeys, Set<String> out) {
        if (e.isJsonObject()) {
            for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().entrySet()) {
                String name = dataKeys.contains(f.getKey()) || MAPS.contains(last(prefix)) ? "<name>" : f.getKey();
                String path = prefix.isEmpty() ? name : prefix + "." + name;
                out.add(path);
                collect(path, f.getValue(), dataKeys, out);
            }
        } else if (e.isJsonArray()) {
            List<JsonElement> items = new ArrayList<>();
            e.getAsJsonArray().forEach(items::add);
            for (JsonElement item : items) {
                collect(prefix + "[]", item, dataKeys, out);
            }
        }
    }
}
