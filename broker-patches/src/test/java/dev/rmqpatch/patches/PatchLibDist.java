package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.patches.cli.PlanRelease;

/**
 * The ITs' patched install of a later release, made as an operator would: a copy of a stock distribution's bin/ and
 * conf/, and its lib/ patched by patch-lib (with the codec jar the 4.9.0 patched distribution ships).
 */
final class PatchLibDist {

    private PatchLibDist() {
    }

    /** Writes the patched install into {@code into} (must not exist or be empty) and returns patch-lib's report. */
    static String make(Path stockDist, Path into) throws Exception {
        copyTree(stockDist.resolve("bin"), into.resolve("bin"));
        copyTree(stockDist.resolve("conf"), into.resolve("conf"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = PlanRelease.run(new String[] {"patch-lib", stockDist.resolve("lib").toString(), "--out",
            into.resolve("lib").toString(), "--codec-jar", codecJar().toString()},
            new PrintStream(out, true, "UTF-8"), new PrintStream(out, true, "UTF-8"));
        String report = out.toString("UTF-8");
        assertEquals(0, rc, report);
        return report;
    }

    /** The codec jar the 4.9.0 patched distribution ships (target/codec-lib). */
    static Path codecJar() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("rmqpatch.codec.lib", "target/codec-lib")))) {
            List<Path> jars = s.filter(p -> p.toString().endsWith(".jar")).collect(Collectors.toList());
            assertEquals(1, jars.size(), "one codec jar: " + jars);
            return jars.get(0);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
