package dev.rmqpatch.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.rocketmq.store.MappedFile;

/** Two real mapped store files of one size in a temp folder, one for the stock append and one for the patched. */
final class MappedFilePair {
    private static final String FIRST = "00000000000000000000";
    private final Path dir;
    final MappedFile stock;
    final MappedFile patched;

    MappedFilePair(String prefix, int size) throws IOException {
        dir = Files.createTempDirectory(prefix);
        stock = new MappedFile(dir.resolve("stock").resolve(FIRST).toString(), size);
        patched = new MappedFile(dir.resolve("patched").resolve(FIRST).toString(), size);
    }

    /** Unmaps both files and deletes them and the folder. */
    void close() throws IOException {
        stock.destroy(0);
        patched.destroy(0);
        for (String side : new String[] {"stock", "patched"}) {
            Files.deleteIfExists(dir.resolve(side).resolve(FIRST));
            Files.deleteIfExists(dir.resolve(side));
        }
        Files.deleteIfExists(dir);
    }
}
