package dev.rmqpatch.bench.report;

import dev.rmqpatch.bench.protocol.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes a results object as pretty JSON, atomically, so a reader (or a crash) never sees half a file. */
public final class ResultsFile {
    private ResultsFile() {
    }

    public static void write(Path file, Object results) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, Json.PRETTY.toJson(results) + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
