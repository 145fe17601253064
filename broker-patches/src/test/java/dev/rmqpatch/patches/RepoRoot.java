package dev.rmqpatch.patches;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root folder, found upwards from the module the tests run in (Maven runs them in broker-patches/). */
public final class RepoRoot {

    private RepoRoot() {
    }

    public static Path find() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("broker-patches"))
                && Files.isDirectory(dir.resolve("codec"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root (pom.xml beside broker-patches/ and codec/) above " + start);
    }
}
