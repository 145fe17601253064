package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.rocketmq.store.CommitLog;
import org.junit.jupiter.api.Test;

/**
 * Drop-in check of both distributions through their bin/ scripts (stock NamesrvStartup and BrokerStartup on the
 * distribution's lib/): a stock client in its own JVM, on the stock jars only, sends and reads back messages,
 * then the CommitLog is scanned. The stock run must contain WAIT=true (so the check can fail); the patched run
 * must not, and stores fewer bytes per message. Both runs use the same topic and keys, so the byte difference
 * is the properties string alone.
 */
class DropInIT {

    private static final int MESSAGES = 200;
    private static final String VERSION = System.getProperty("rmqpatch.rocketmq.version", "4.9.0");
    private static final byte[] WAIT = "WAIT\u0001true".getBytes(StandardCharsets.UTF_8);

    @Test
    void patchedBrokerStoresNoWaitAndOldClientsReadEverything() throws Exception {
        Scan stock = roundTripAndScan("stock", null);
        Scan patched = roundTripAndScan("patched", null);
        assertEveryMessageStoredWithoutWait(stock, patched);
        double saved = (stock.bytes - patched.bytes) / (double) MESSAGES;
        System.out.printf("[DropInIT] bytes per message: stock %.1f, patched %.1f, saved %.1f%n",
            stock.bytes / (double) MESSAGES, patched.bytes / (double) MESSAGES, saved);
        assertTrue(saved >= 10, "WAIT\\u0001true\\u0002 is 10 bytes; saved only " + saved);
    }

    /** The same on JDK 8, where most 4.9.0 brokers run: both distributions' servers on it (checked from /proc). */
    @Test
    void onJdk8TooPatchedBrokerStoresNoWaitAndOldClientsReadEverything() throws Exception {
        Path jdk8 = Jdk8.home();
        assertEveryMessageStoredWithoutWait(roundTripAndScan("stock", jdk8), roundTripAndScan("patched", jdk8));
    }

    private static void assertEveryMessageStoredWithoutWait(Scan stock, Scan patched) {
        assertEquals(MESSAGES, stock.messages, "stock messages stored");
        assertEquals(MESSAGES, patched.messages, "patched messages stored");
        assertEquals(MESSAGES, stock.matches, "stock broker stores WAIT with every message");
        assertEquals(0, patched.matches, "patched broker stores no WAIT");
    }

    @Test
    void listPatchesShowsWhatEachDistributionCarries() throws Exception {
        Result patched = run(TestCluster.dist("patched").resolve("bin/rmqpatch-info").toString());
        assertEquals(0, patched.exit, patched.out);
        // Every jar's line and every security patch's line, from the patch classes (PatchTargets).
        List<String> expected = new ArrayList<>();
        PatchTargets.labelsByJar(Patches.all()).forEach((artifact, labels) ->
            expected.add(artifact + "-" + VERSION + ".jar: " + String.join(", ", labels)));
        for (Patch p : Patches.all()) {
            for (String artifact : p.closes().isEmpty() ? List.<String>of() : PatchTargets.jars(p)) {
                expected.add("security: " + PatchTargets.label(p) + " closes " + p.closes() + " (" + artifact + "-" + VERSION
                    + ".jar)");
            }
        }
        for (String line : expected) {
            assertTrue(patched.out.lines().anyMatch(line::equals), "rmqpatch-info prints '" + line + "':\n" + patched.out);
        }
        assertTrue(patched.out.contains("rmqpatch-codec"), patched.out);
        Result stock = run(TestCluster.dist("stock").resolve("bin/rmqpatch-info").toString());
        assertEquals(1, stock.exit, "a stock lib/ has no patches:\n" + stock.out);
        assertTrue(stock.out.contains("MISSING S3 in rocketmq-namesrv-"), "and says the holes are open:\n" + stock.out);
    }

    private static Result run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + String.join(" ", cmd));
        return new Result(p.exitValue(), out);
    }

    private record Result(int exit, String out) {
    }

    /** With {@code javaHome} null, the servers run on the JDK the tests run on. */
    private Scan roundTripAndScan(String variant, Path javaHome) throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.dist(variant), "broker-tuned.conf").javaHome(javaHome).start()) {
            roundTrip(cluster, variant, MESSAGES);
            cluster.stopBroker();
            return scan(cluster.commitLogDir());
        }
    }

    /**
     * Sends and reads back {@code messages} with a stock 4.9.0 client in its own JVM, with extra JVM flags (TLS,
     * ACL credentials); fails with its summary.
     */
    static void roundTrip(TestCluster cluster, String label, int messages, String... jvmFlags) throws Exception {
        roundTrip(cluster, label, Path.of(System.getProperty("rmqpatch.stock.lib")), "RoundTrip", messages, jvmFlags);
    }

    /**
     * As above, with the client jars of {@code clientLib} (every jar in it, nothing else of RocketMQ) and its own topic;
     * returns the version the client reported (e.g. V4_9_1).
     */
    static String roundTrip(TestCluster cluster, String label, Path clientLib, String topic, int messages, String... jvmFlags)
        throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "-Duser.home=" + cluster.dir, "-Drocketmq.client.logUseSlf4j=false"));
        cmd.addAll(List.of(jvmFlags));
        cmd.addAll(List.of("-cp", clientLib + File.separator + "*" + File.pathSeparator
                + Path.of("target", "test-classes").toAbsolutePath(),
            StockClientRoundTrip.class.getName(), cluster.namesrvAddr(), topic, Integer.toString(messages)));
        Path out = cluster.dir.resolve("client-" + topic + ".out");
        Process client = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        boolean done = client.waitFor(3, TimeUnit.MINUTES);
        if (!done) {
            client.destroyForcibly().waitFor();
        }
        String text = Files.readString(out);
        String summary = text.lines().filter(l -> l.startsWith("ROUNDTRIP") || l.startsWith("MISMATCH"))
            .reduce("", (a, b) -> a + b + "\n");
        assertTrue(done && client.exitValue() == 0, label + ": stock client round trip failed:\n"
            + (summary.isEmpty() ? text : summary));
        return text.lines().filter(l -> l.startsWith("CLIENT_VERSION ")).map(l -> l.substring("CLIENT_VERSION ".length()))
            .findFirst().orElse("unknown");
    }

    /** Walks the CommitLog message by message (4-byte total size first) and counts WAIT occurrences. */
    static Scan scan(Path commitLogDir) throws Exception {
        return scan(commitLogDir, WAIT);
    }

    /** Walks the CommitLog message by message (4-byte total size first) and counts the occurrences of {@code needle}. */
    static Scan scan(Path commitLogDir, byte[] needle) throws Exception {
        Scan s = new Scan();
        try (Stream<Path> files = Files.list(commitLogDir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(f));
                while (buf.remaining() >= 8) {
                    int size = buf.getInt(buf.position());
                    int magic = buf.getInt(buf.position() + 4);
                    if (size <= 0 || magic != CommitLog.MESSAGE_MAGIC_CODE) {
                        break; // the blank filler at the end of a file, or no more messages
                    }
                    byte[] msg = new byte[size];
                    buf.get(msg);
                    s.messages++;
                    s.bytes += size;
                    s.matches += count(msg, needle);
                }
            }
        }
        return s;
    }

    private static int count(byte[] hay, byte[] needle) {
        int n = 0;
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            n++;
        }
        return n;
    }

    static final class Scan {
        int messages;
        long bytes;
        int matches;
    }
}
