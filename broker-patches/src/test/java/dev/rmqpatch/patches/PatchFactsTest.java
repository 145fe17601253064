package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * What the patch classes point at must be in the repository: every test and benchmark class their tests() and
 * benchmark() name, in the module that holds it, every script a benchmark() runs, and every document a why() cites
 * (by its path from the repository root), so neither PATCHES.md nor README's table points at nothing.
 */
class PatchFactsTest {

    /** A class name as tests() and benchmark() write them: FrameBoundsIT, HeaderDifferentialTest, PropertiesBenchmark. */
    private static final Pattern CLASS = Pattern.compile("\\b[A-Z][A-Za-z0-9]*(?:IT|Test|Benchmark)\\b");
    /** The module a part of tests() names first ("codec: ..."); without one, broker-patches. */
    private static final Pattern MODULE = Pattern.compile("^\\s*([a-z][a-z-]*):");
    private static final Pattern SCRIPT = Pattern.compile("\\bscripts/[\\w.-]+");
    /** A document cited in a why(): any word ending in .md, with its folders ("docs/baseline.md"). */
    private static final Pattern DOCUMENT = Pattern.compile("[\\w./-]*\\w\\.md\\b");

    private final Path root = RepoRoot.find();

    @Test
    void everyTestAndBenchmarkNamedExistsInItsModule() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Patch p : Patches.all()) {
            // "PatchedClassesIT, DropInIT; codec: HeaderDifferentialTest; stall-agent: StoreStallIT": broker-patches'
            // own, then another module's after its name.
            for (String part : p.tests().split(";")) {
                Matcher module = MODULE.matcher(part);
                String dir = module.find() ? module.group(1) : "broker-patches";
                for (String name : names(CLASS, part)) {
                    requireSource(dir + "/src/test/java", name, p, missing);
                }
            }
            for (String name : names(CLASS, p.benchmark())) {
                requireSource("jmh-benchmarks/src/main/java", name, p, missing);
            }
            for (String script : names(SCRIPT, p.benchmark())) {
                if (!Files.isRegularFile(root.resolve(script))) {
                    missing.add(p.id() + " benchmark(): " + script + " is not a file under " + root);
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void everyTestsListNamesATest() {
        for (Patch p : Patches.all()) {
            assertTrue(!names(CLASS, p.tests()).isEmpty(), p.id() + " names no test class: " + p.tests());
        }
    }

    /**
     * docs/send-path.md and docs/baseline.md are written beside this change (issue 26); until both are in the
     * repository this test fails naming them.
     */
    @Test
    void everyDocumentAWhyCitesExists() {
        Map<String, List<String>> citedBy = new TreeMap<>();
        for (Patch p : Patches.all()) {
            for (String doc : names(DOCUMENT, p.why())) {
                citedBy.computeIfAbsent(doc, d -> new ArrayList<>()).add(p.id());
            }
        }
        List<String> missing = new ArrayList<>();
        citedBy.forEach((doc, ids) -> {
            if (!Files.isRegularFile(root.resolve(doc))) {
                missing.add(doc + " (cited by " + String.join(", ", ids) + ")");
            }
        });
        assertEquals(List.of(), missing, "documents a why() cites must be files under " + root
            + ", cited by their path from there (docs/baseline.md)");
    }

    private void requireSource(String sourceRoot, String simpleName, Patch p, List<String> missing) throws IOException {
        Path dir = root.resolve(sourceRoot);
        try (Stream<Path> files = Files.walk(dir)) {
            if (files.noneMatch(f -> f.getFileName().toString().equals(simpleName + ".java"))) {
                missing.add(p.id() + " names " + simpleName + ", which is not in " + root.relativize(dir));
            }
        }
    }

    private static List<String> names(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }
}
