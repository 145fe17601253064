package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.rmqpatch.patches.cli.ListPatches;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rmqpatch-info --verify} on real distributions: a fresh one passes; one changed class, an altered codec
 * jar or a stock jar of another RocketMQ version dropped in is found and named.
 */
class VerifyInstallIT {

    private static final String BROKER_JAR = "rocketmq-broker-4.9.0.jar";

    @TempDir
    Path tmp;

    @Test
    void freshDistributionVerifiesThroughItsScript() throws Exception {
        Path dist = TestCluster.dist("patched");
        Process p = new ProcessBuilder(dist.resolve("bin/rmqpatch-info").toString(), "--verify")
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("OK   " + BROKER_JAR) && out.contains("verified:"), out);
    }

    @Test
    void stockLibHasNoRecord() {
        Result r = verify(TestCluster.dist("stock").resolve("lib"));
        assertEquals(1, r.exit, r.out);
    }

    @Test
    void aChangedPatchedClassIsNamed() throws Exception {
        Path lib = copyOfPatchedLib();
        String sendProcessor = "org/apache/rocketmq/broker/processor/SendMessageProcessor";
        flipAByte(lib.resolve(BROKER_JAR), sendProcessor + ".class");
        Result r = verify(lib);
        assertEquals(5, r.exit, r.out);
        // The ids of every patch that edits the class, from the patch classes (P3, P9, P15 when this was written).
        String ids = String.join(", ", PatchTargets.idsEditing(Patches.all(), sendProcessor));
        assertTrue(r.out.contains("DIFF " + BROKER_JAR + ": " + sendProcessor + ".class differs from the class this build "
            + "patched (" + ids + ")"), r.out);
    }

    @Test
    void aChangedUntouchedClassIsNamed() throws Exception {
        Path lib = copyOfPatchedLib();
        flipAByte(lib.resolve(BROKER_JAR), "org/apache/rocketmq/broker/BrokerPathConfigHelper.class");
        Result r = verify(lib);
        assertEquals(5, r.exit, r.out);
        assertTrue(r.out.contains("org/apache/rocketmq/broker/BrokerPathConfigHelper.class differs from stock " + BROKER_JAR),
            r.out);
        assertTrue(r.out.contains("1 difference(s)"), "only that class: " + r.out);
    }

    @Test
    void anAddedClassAndAnAlteredCodecAreFound() throws Exception {
        Path lib = copyOfPatchedLib();
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + lib.resolve(BROKER_JAR).toUri()), Map.of())) {
            Files.write(zip.getPath("org/apache/rocketmq/broker/Extra.class"), new byte[] {(byte) 0xca, (byte) 0xfe});
        }
        Path codec;
        try (Stream<Path> s = Files.list(lib)) {
            codec = s.filter(f -> f.getFileName().toString().startsWith("rmqpatch-codec")).findFirst().orElseThrow();
        }
        flipAByte(codec, "dev/rmqpatch/codec/security/ConfigUpdateGuard.class");
        Result r = verify(lib);
        assertEquals(5, r.exit, r.out);
        assertTrue(r.out.contains("org/apache/rocketmq/broker/Extra.class is not in the record"), r.out);
        assertTrue(r.out.contains(codec.getFileName() + ": differs from the codec jar of this build"), r.out);
    }

    @Test
    void aStockJarOfAnotherVersionDroppedInIsFound() throws Exception {
        Path lib = copyOfPatchedLib();
        Files.delete(lib.resolve("rocketmq-common-4.9.0.jar"));
        Path other = Path.of(System.getProperty("rmqpatch.other.version.dir"), "rocketmq-common-4.9.1.jar");
        Files.copy(other, lib.resolve(other.getFileName()));
        Result r = verify(lib);
        assertEquals(5, r.exit, r.out);
        assertTrue(r.out.contains("DIFF rocketmq-common-4.9.0.jar: missing; this build rewrote it"), r.out);
        assertTrue(r.out.contains("DIFF rocketmq-common-4.9.1.jar: a RocketMQ jar of another version"), r.out);
    }

    private Path copyOfPatchedLib() throws Exception {
        Path lib = tmp.resolve("lib");
        Files.createDirectories(lib);
        try (Stream<Path> s = Files.list(TestCluster.dist("patched").resolve("lib"))) {
            for (Path f : (Iterable<Path>) s::iterator) {
                Files.copy(f, lib.resolve(f.getFileName()));
            }
        }
        return lib;
    }

    private static void flipAByte(Path jar, String entry) throws Exception {
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + jar.toUri()), Map.of())) {
            Path p = zip.getPath(entry);
            byte[] b = Files.readAllBytes(p);
            b[b.length / 2] ^= 1;
            Files.write(p, b);
        }
    }

    private record Result(int exit, String out) {
    }

    private static Result verify(Path lib) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = ListPatches.run(new String[] {"--verify", lib.toString()}, ps, ps);
        return new Result(exit, out.toString(StandardCharsets.UTF_8));
    }
}
