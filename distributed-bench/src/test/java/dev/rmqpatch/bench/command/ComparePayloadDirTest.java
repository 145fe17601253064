package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.cli.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare --payload-dir: the workload's payloadFile is looked for next to the workload file, then under --payload-dir,
 * exactly as bench run looks (the same code), and a file found nowhere stops compare before any cluster starts.
 */
class ComparePayloadDirTest {
    @TempDir
    Path dir;
    private Path workload;
    private Path payloads;

    @BeforeEach
    void files() throws Exception {
        Path workloads = Files.createDirectories(dir.resolve("workloads"));
        workload = workloads.resolve("w.yaml");
        Files.writeString(workload, "name: w\nmessageSize: 32\npayloadFile: \"payload/payload-32b.data\"\n");
        payloads = Files.createDirectories(dir.resolve("omb"));
        Files.createDirectories(payloads.resolve("payload"));
        Files.write(payloads.resolve("payload/payload-32b.data"), new byte[32]);
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> CompareCommand.parse(args)).getMessage();
    }

    @Test
    void payloadFileOnlyUnderThePayloadDirIsFound() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--workload", workload.toString(), "--payload-dir", payloads.toString()});
        assertEquals(payloads.toAbsolutePath(), o.payloadDir);
        assertArrayEquals(new byte[32], o.workload.payload().readFile(32, o.payloadDir));
        assertEquals(payloads.resolve("payload/payload-32b.data").toAbsolutePath().normalize(), o.workload.payload().resolve(o.payloadDir));
    }

    @Test
    void theWorkloadFilesFolderComesFirst() throws Exception {
        Files.createDirectories(workload.getParent().resolve("payload"));
        byte[] local = new byte[32];
        local[0] = 9;
        Files.write(workload.getParent().resolve("payload/payload-32b.data"), local);
        RunOptions o = CompareCommand.parse(new String[] {"--workload=" + workload, "--payload-dir=" + payloads});
        assertEquals(9, o.workload.payload().readFile(32, o.payloadDir)[0]);
    }

    @Test
    void aMissingPayloadFileNamesEveryPathTriedBeforeAnythingStarts() {
        String e = error("--workload", workload.toString());
        assertTrue(e.contains(workload.getParent().resolve("payload/payload-32b.data").toString()), e);
        assertTrue(e.contains("--payload-dir"), "says how to look elsewhere: " + e);

        Path empty = dir.resolve("empty");
        e = assertThrows(UsageException.class, () -> {
            Files.createDirectories(empty);
            CompareCommand.parse(new String[] {"--workload", workload.toString(), "--payload-dir", empty.toString()});
        }).getMessage();
        assertTrue(e.contains(workload.getParent().resolve("payload/payload-32b.data").toString())
            && e.contains(empty.resolve("payload/payload-32b.data").toString()), "both places named: " + e);
    }

    @Test
    void aPayloadDirThatIsNoFolderIsAnError() {
        String e = error("--workload", workload.toString(), "--payload-dir", dir.resolve("nope").toString());
        assertTrue(e.contains("--payload-dir") && e.contains("is not a folder"), e);
        assertTrue(error("--payload-dir").contains("--payload-dir needs a value"));
    }

    @Test
    void theEfficiencyModeTakesItToo() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--efficiency", "--workload", workload.toString(), "--payload-dir",
            payloads.toString()});
        assertEquals(payloads.toAbsolutePath(), o.payloadDir);
    }

    @Test
    void withoutAPayloadFileThePayloadDirIsOnlyChecked() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--payload-dir", payloads.toString()});
        assertEquals(payloads.toAbsolutePath(), o.payloadDir);
        assertNull(CompareCommand.parse(new String[0]).payloadDir);
    }
}
