package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The codec and the rewritten classes on a real JDK 8, checked by running, not only by {@code --release 8}: the probe
 * in src/jdk8-probe (compiled here by JDK 8's own javac) loads, verifies and initialises every codec class and every
 * class the patcher rewrote from the patched distribution's lib/, then compares stock and patched class loaders on
 * random frames, properties strings and headers inside that JDK 8 JVM (see {@code Jdk8Probe}).
 */
class Jdk8RuntimeIT {

    private static final int CASES = 400;

    @TempDir
    Path tmp;

    @Test
    void codecAndRewrittenClassesRunOnJdk8AndMatchStock() throws Exception {
        Path jdk8 = Jdk8.home();
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        List<String> javac = new ArrayList<>(List.of(jdk8.resolve("bin/javac").toString(), "-d", classes.toString()));
        try (Stream<Path> sources = Files.walk(Path.of("src", "jdk8-probe", "java"))) {
            javac.addAll(sources.filter(p -> p.toString().endsWith(".java")).map(Path::toString).collect(Collectors.toList()));
        }
        String compiled = run(javac, tmp.resolve("javac.out"));
        assertTrue(compiled.isEmpty(), "JDK 8's javac compiles the probe:\n" + compiled);

        long seed = new Random().nextLong();
        String out = run(List.of(jdk8.resolve("bin/java").toString(), "-Xverify:all", "-cp", classes.toString(),
            "dev.rmqpatch.probe.Jdk8Probe", TestCluster.dist("stock").resolve("lib").toString(),
            TestCluster.dist("patched").resolve("lib").toString(), Long.toString(seed), Integer.toString(CASES)),
            tmp.resolve("probe.out"));
        String summary = out.lines().filter(l -> l.startsWith("jdk8-probe:") || l.startsWith("FAILED")
            || l.matches("\\d+ passed, \\d+ failed")).collect(Collectors.joining("\n"));
        System.out.println(summary);
        assertTrue(out.contains("jdk8-probe: java.version=1.8.0_"), "the probe ran on JDK 8:\n" + summary);
        Matcher loaded = Pattern.compile("(\\d+) of (\\d+) codec and rewritten classes loaded").matcher(out);
        assertTrue(loaded.find(), summary);
        assertEquals(loaded.group(2), loaded.group(1), "every class initialised: " + summary);
        assertTrue(Integer.parseInt(loaded.group(2)) >= 40, "the codec and the rewritten classes were found: " + summary);
        assertTrue(out.contains("0 failed") && !out.contains("FAILED"), "seed " + seed + ":\n" + summary);
        Matcher passed = Pattern.compile("(\\d+) passed, 0 failed").matcher(out);
        assertTrue(passed.find() && Integer.parseInt(passed.group(1)) >= 7 * CASES, summary);
    }

    /** Runs a fixed command, its output into {@code file}; fails when it does not finish or exits non-zero. */
    private static String run(List<String> command, Path file) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(file.toFile()).start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(done && p.exitValue() == 0, String.join(" ", command.subList(0, 1)) + " failed:\n" + out);
        return out;
    }
}
