package dev.rmqpatch.jmh.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CI smoke: the built benchmarks.jar runs through scripts/jmh.sh with one fork and one 200 ms warmup and
 * measurement iteration on two benchmarks (SendPath stock and patched, typical input), JMH writes JSON with GC
 * figures, and the report tool makes its table, results.json and chart.png. Proves the suite runs; asserts nothing
 * about timings.
 */
class JmhSmokeIT {

    private static final String[] EXPECTED_BENCHMARKS = {
        "dev.rmqpatch.jmh.BatchEncodeBenchmark.patched", "dev.rmqpatch.jmh.BatchEncodeBenchmark.stock",
        "dev.rmqpatch.jmh.ClientRoundTripBenchmark.patched", "dev.rmqpatch.jmh.ClientRoundTripBenchmark.stock",
        "dev.rmqpatch.jmh.ConsumeDecodeBenchmark.decodesPatched", "dev.rmqpatch.jmh.ConsumeDecodeBenchmark.decodesStock",
        "dev.rmqpatch.jmh.ConsumeDecodeBenchmark.pullResultPatched", "dev.rmqpatch.jmh.ConsumeDecodeBenchmark.pullResultStock",
        "dev.rmqpatch.jmh.ConsumeQueueAppendBenchmark.patched", "dev.rmqpatch.jmh.ConsumeQueueAppendBenchmark.stock",
        "dev.rmqpatch.jmh.EncodeOutsideLockBenchmark.beforeLock", "dev.rmqpatch.jmh.EncodeOutsideLockBenchmark.patched",
        "dev.rmqpatch.jmh.EncodeOutsideLockBenchmark.stock",
        "dev.rmqpatch.jmh.GroupCommitBenchmark.patched", "dev.rmqpatch.jmh.GroupCommitBenchmark.stock",
        "dev.rmqpatch.jmh.HaAckPerReadBenchmark.patched", "dev.rmqpatch.jmh.HaAckPerReadBenchmark.stock",
        "dev.rmqpatch.jmh.HaDrainedReadBenchmark.patched", "dev.rmqpatch.jmh.HaDrainedReadBenchmark.stock",
        "dev.rmqpatch.jmh.HaGatherWriteBenchmark.patched", "dev.rmqpatch.jmh.HaGatherWriteBenchmark.stock",
        "dev.rmqpatch.jmh.HaWakeupBenchmark.patched", "dev.rmqpatch.jmh.HaWakeupBenchmark.stock",
        "dev.rmqpatch.jmh.JsonHeaderDecodeBenchmark.patched", "dev.rmqpatch.jmh.JsonHeaderDecodeBenchmark.stock",
        "dev.rmqpatch.jmh.JsonHeaderDecodeFloorBenchmark.floor",
        "dev.rmqpatch.jmh.JsonHeaderEncodeBenchmark.patched", "dev.rmqpatch.jmh.JsonHeaderEncodeBenchmark.stock",
        "dev.rmqpatch.jmh.NameChecksBenchmark.namespacePatched", "dev.rmqpatch.jmh.NameChecksBenchmark.namespaceStock",
        "dev.rmqpatch.jmh.NameChecksBenchmark.topicPatched", "dev.rmqpatch.jmh.NameChecksBenchmark.topicStock",
        "dev.rmqpatch.jmh.Properties493Benchmark.encodePatched", "dev.rmqpatch.jmh.Properties493Benchmark.encodeStock",
        "dev.rmqpatch.jmh.Properties493Benchmark.parsePatched", "dev.rmqpatch.jmh.Properties493Benchmark.parseStock",
        "dev.rmqpatch.jmh.PropertiesBenchmark.encodePatched", "dev.rmqpatch.jmh.PropertiesBenchmark.encodeStock",
        "dev.rmqpatch.jmh.PropertiesBenchmark.parsePatched", "dev.rmqpatch.jmh.PropertiesBenchmark.parseStock",
        "dev.rmqpatch.jmh.PropertiesBenchmark.storeEncodePatched", "dev.rmqpatch.jmh.PropertiesBenchmark.storeEncodeStock",
        "dev.rmqpatch.jmh.PullHeaderDecodeBenchmark.patched", "dev.rmqpatch.jmh.PullHeaderDecodeBenchmark.stock",
        "dev.rmqpatch.jmh.PullHeaderEncodeBenchmark.patched", "dev.rmqpatch.jmh.PullHeaderEncodeBenchmark.stock",
        "dev.rmqpatch.jmh.ResponseHeaderEncodeBenchmark.patched", "dev.rmqpatch.jmh.ResponseHeaderEncodeBenchmark.stock",
        "dev.rmqpatch.jmh.SendHeaderDecodeBenchmark.patched", "dev.rmqpatch.jmh.SendHeaderDecodeBenchmark.stock",
        "dev.rmqpatch.jmh.SendPathBenchmark.patched", "dev.rmqpatch.jmh.SendPathBenchmark.stock",
        "dev.rmqpatch.jmh.SlaveCommitLogAppendBenchmark.patched", "dev.rmqpatch.jmh.SlaveCommitLogAppendBenchmark.stock",
        "dev.rmqpatch.jmh.SlaveReadInPlaceBenchmark.patched", "dev.rmqpatch.jmh.SlaveReadInPlaceBenchmark.stock",
        "dev.rmqpatch.jmh.StatsItemsBenchmark.patched", "dev.rmqpatch.jmh.StatsItemsBenchmark.stock",
        "dev.rmqpatch.jmh.TopicPutCountersBenchmark.patched", "dev.rmqpatch.jmh.TopicPutCountersBenchmark.stock",
        "dev.rmqpatch.jmh.UniqueKeyBenchmark.patched", "dev.rmqpatch.jmh.UniqueKeyBenchmark.stock",
    };

    private static Path jar;
    private static Path script;
    private static Path workDir;

    @BeforeAll
    static void locate() throws IOException {
        jar = Paths.get(System.getProperty("rmqpatch.benchmarks.jar", "target/benchmarks.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), jar + " is missing; run mvn package first");
        script = jar.getParent().getParent().getParent().resolve("scripts/jmh.sh");
        assertTrue(Files.isRegularFile(script), script + " is missing");
        workDir = Paths.get(System.getProperty("rmqpatch.it.dir", "target/smoke-it")).toAbsolutePath();
        Files.createDirectories(workDir);
    }

    private record Result(int status, String output) {
    }

    private static Result exec(List<String> command) throws Exception {
        Path log = Files.createTempFile(workDir, "exec", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command + "\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @Test
    void jarListsEveryBenchmarkSoTheAnnotationProcessorRan() throws Exception {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Result r = exec(List.of(java.toString(), "-jar", jar.toString(), "-l"));
        assertEquals(0, r.status(), r.output());
        List<String> listed = new ArrayList<>();
        for (String line : r.output().split("\n")) {
            if (line.startsWith("dev.rmqpatch.jmh.")) {
                listed.add(line.trim());
            }
        }
        assertEquals(Arrays.asList(EXPECTED_BENCHMARKS), listed);
    }

    @Test
    void smokeRunProducesJsonTableResultsAndChart() throws Exception {
        Path out = workDir.resolve("run");
        Result r = exec(List.of("bash", script.toString(), "SendPathBenchmark", "--smoke", "--no-build",
            "--out", out.toString(), "--", "-p", "input=typical"));
        assertEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("-f 1 -wi 1 -w 200ms -i 1 -r 200ms -prof gc -rf json"), r.output());

        JsonArray jmh = JsonParser.parseString(Files.readString(out.resolve("jmh.json"))).getAsJsonArray();
        assertEquals(2, jmh.size(), "two benchmarks");
        for (JsonElement e : jmh) {
            JsonObject o = e.getAsJsonObject();
            assertTrue(o.get("benchmark").getAsString().startsWith("dev.rmqpatch.jmh.SendPathBenchmark."));
            assertEquals(1, o.get("forks").getAsInt());
            assertEquals(1, o.get("measurementIterations").getAsInt());
            assertTrue(o.getAsJsonObject("primaryMetric").get("score").getAsDouble() > 0);
            assertTrue(o.getAsJsonObject("secondaryMetrics").has("gc.alloc.rate.norm"), "-prof gc ran");
        }

        String table = Files.readString(out.resolve("table.txt"));
        assertTrue(table.startsWith("command: scripts/jmh.sh SendPathBenchmark --smoke"), table);
        assertTrue(table.contains("benchmarks ran on JDK " + System.getProperty("java.version")), table);
        assertTrue(table.contains("| operation          | stock ns/op | patched ns/op | speedup | stock B/op | patched B/op | B/op saved |"), table);
        assertTrue(table.contains("| SendPath [typical] |"), table);
        assertTrue(r.output().contains("| SendPath [typical] |"), "table printed: " + r.output());

        JsonObject results = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals(1, results.getAsJsonArray("comparisons").size());
        assertTrue(results.get("command").getAsString().contains("benchmarks.jar SendPathBenchmark"));
        assertTrue(results.getAsJsonObject("machine").get("processors").getAsInt() > 0);

        byte[] png = Files.readAllBytes(out.resolve("chart.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
        assertTrue(png.length > 10_000, png.length + " bytes");
    }

    /**
     * The benchmarks are Java 8 class files: {@code --jvm 8} forks them on the JDK 8 of scripts/jdk8.sh (in CI it must
     * be had; elsewhere, without one, the test is skipped), and the table and results.json say so.
     */
    @Test
    void forksRunOnJdk8WithJvm8() throws Exception {
        Result jdk8 = exec(List.of("bash", script.getParent().resolve("jdk8.sh").toString()));
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (jdk8.status() != 0) {
            assertFalse(ci, "JDK 8 is required in CI: " + jdk8.output());
            org.junit.jupiter.api.Assumptions.abort("skipped: no JDK 8 here: " + jdk8.output());
        }
        Path out = workDir.resolve("run-jdk8");
        Result r = exec(List.of("bash", script.toString(), "PropertiesBenchmark.parse", "--smoke", "--no-build", "--jvm", "8",
            "--out", out.toString(), "--", "-p", "input=typical"));
        assertEquals(0, r.status(), r.output());
        assertTrue(Files.readString(out.resolve("table.txt")).contains("benchmarks ran on JDK 1.8.0_"), r.output());
        JsonArray jmh = JsonParser.parseString(Files.readString(out.resolve("jmh.json"))).getAsJsonArray();
        assertEquals(2, jmh.size(), "stock and patched parse");
        for (JsonElement e : jmh) {
            assertTrue(e.getAsJsonObject().get("jdkVersion").getAsString().startsWith("1.8.0_"), e.toString());
        }
    }

    @Test
    void scriptHelpAndBadArguments() throws Exception {
        Result help = exec(List.of("bash", script.toString(), "--help"));
        assertEquals(0, help.status());
        assertTrue(help.output().startsWith("Usage: scripts/jmh.sh [REGEX] [--quick | --smoke] [--jvm JAVA | --jvm 8] [--out DIR]"),
            help.output());
        assertTrue(help.output().contains("--quick") && help.output().contains("about 11 minutes"), help.output());

        Result bad = exec(List.of("bash", script.toString(), "--fast"));
        assertEquals(2, bad.status(), bad.output());
        assertTrue(bad.output().contains("unknown option '--fast'"), bad.output());

        Result noOut = exec(List.of("bash", script.toString(), "--out"));
        assertEquals(2, noOut.status(), noOut.output());
        assertTrue(noOut.output().contains("--out needs a folder"), noOut.output());
    }
}
