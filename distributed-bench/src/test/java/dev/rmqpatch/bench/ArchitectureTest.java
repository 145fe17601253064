package dev.rmqpatch.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape ARCHITECTURE.md describes, checked on the sources: the packages form layers (no package reaches, directly
 * or round about, a package that reaches it), no main class is over 600 lines, and every command-line flag is
 * declared in one place.
 */
class ArchitectureTest {
    /** The harness's sources: this module's and bench-agent's (the load agent and what the coordinator shares with it). */
    private static final List<Path> MAINS = List.of(Path.of("src/main/java/dev/rmqpatch/bench"),
        Path.of("../bench-agent/src/main/java/dev/rmqpatch/bench"));
    private static final Pattern REFERENCE = Pattern.compile("dev\\.rmqpatch\\.bench\\.(?:([a-z]+)\\.|[A-Z])");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\n]|\\\\.)*\"");
    private static final Pattern FLAG = Pattern.compile("Flag\\.(?:toggle|text|whole|number|path|pid|oneOf|parsed|of)\\(\\s*\"(--[a-z0-9-]+)\"");
    /**
     * Flags of different programs that share a name but not a meaning: the sink's and the agent's own listening port and
     * log folder, and the sink's event-loop threads (the workload's --threads are sending threads).
     */
    private static final Set<String> SAME_NAME_OTHER_PROGRAM = Set.of("--port", "--log-dir", "--threads");

    @Test
    void packagesFormLayersWithoutACircle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path file : sources()) {
            String own = packageOf(file);
            Set<String> targets = uses.computeIfAbsent(own, k -> new TreeSet<>());
            // Code only: a class named in a string (the main class a launched JVM runs) is not an import.
            Matcher m = REFERENCE.matcher(STRING.matcher(Files.readString(file)).replaceAll("\"\""));
            while (m.find()) {
                String target = m.group(1) == null ? "(root)" : m.group(1);
                if (!target.equals(own)) {
                    targets.add(target);
                }
            }
        }
        for (String start : uses.keySet()) {
            List<String> cycle = pathBack(start, start, uses, new ArrayList<>(List.of(start)), new TreeSet<>());
            assertEquals(null, cycle, "an import circle between packages: " + cycle + "\n" + uses);
        }
    }

    private static List<String> pathBack(String from, String to, Map<String, Set<String>> uses, List<String> path, Set<String> seen) {
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (next.equals(to)) {
                List<String> found = new ArrayList<>(path);
                found.add(next);
                return found;
            }
            if (seen.add(next)) {
                path.add(next);
                List<String> found = pathBack(next, to, uses, path, seen);
                if (found != null) {
                    return found;
                }
                path.remove(path.size() - 1);
            }
        }
        return null;
    }

    @Test
    void noMainClassIsOver600Lines() throws IOException {
        Map<String, Integer> long_ = new TreeMap<>();
        for (Path file : sources()) {
            int lines = Files.readAllLines(file).size();
            if (lines > 600) {
                long_.put(relative(file).toString(), lines);
            }
        }
        assertTrue(long_.isEmpty(), "classes over 600 lines: " + long_);
    }

    @Test
    void everyFlagIsDeclaredOnce() throws IOException {
        Map<String, List<String>> declared = new TreeMap<>();
        for (Path file : sources()) {
            Matcher m = FLAG.matcher(Files.readString(file));
            while (m.find()) {
                declared.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(file.getFileName().toString());
            }
        }
        assertTrue(declared.containsKey("--efficiency") && declared.containsKey("--workload"), "the scan finds declarations: " + declared);
        Map<String, List<String>> twice = new TreeMap<>();
        declared.forEach((name, where) -> {
            if (where.size() > 1 && !SAME_NAME_OTHER_PROGRAM.contains(name)) {
                twice.put(name, where);
            }
        });
        assertTrue(twice.isEmpty(), "flags declared more than once: " + twice);
    }

    private static List<Path> sources() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path main : MAINS) {
            try (Stream<Path> files = Files.walk(main)) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(all::add);
            }
        }
        return all;
    }

    private static Path relative(Path file) {
        for (Path main : MAINS) {
            if (file.startsWith(main)) {
                return main.relativize(file);
            }
        }
        throw new IllegalArgumentException(file.toString());
    }

    private static String packageOf(Path file) {
        Path rel = relative(file);
        return rel.getNameCount() == 1 ? "(root)" : rel.getName(0).toString();
    }
}
