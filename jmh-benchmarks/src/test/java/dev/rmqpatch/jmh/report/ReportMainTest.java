package dev.rmqpatch.jmh.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report tool on small checked-in JMH result files whose figures are round numbers. */
class ReportMainTest {

    @TempDir
    Path tmp;

    private Path sample(String name) throws IOException {
        Path file = tmp.resolve(name);
        try (InputStream in = getClass().getResourceAsStream(name)) {
            Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
    }

    /** Exit status, standard output and standard error of one run. */
    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ReportMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void readsScoresErrorsAndAllocationIncludingOldMetricNames() throws Exception {
        List<JmhResult> results = JmhJsonReader.read(sample("sample-jmh.json"));
        assertEquals(7, results.size());
        JmhResult parsePatched = results.get(0);
        assertEquals("dev.rmqpatch.jmh.PropertiesBenchmark.parsePatched", parsePatched.benchmark());
        assertEquals("dev.rmqpatch.jmh.PropertiesBenchmark", parsePatched.className());
        assertEquals("parsePatched", parsePatched.methodName());
        assertEquals(Map.of("input", "typical"), parsePatched.params());
        assertEquals(new Metric(200.0, 10.0, "ns/op"), parsePatched.primary());
        assertEquals(1240.0, parsePatched.allocation().score());
        assertEquals("B/op", parsePatched.allocation().unit());
        assertEquals("17.0.15", parsePatched.run().jdkVersion());
        assertEquals(List.of("-Xms1g", "-Xmx1g"), parsePatched.run().jvmArgs());
        // JMH before 1.36 named it "\u00b7gc.alloc.rate.norm".
        assertEquals(288.0, results.get(3).allocation().score());
        assertTrue(Double.isNaN(results.get(5).primary().error()), "\"NaN\" error is read as NaN");
        assertTrue(results.get(3).params().isEmpty());
    }

    @Test
    void pairsStockWithPatchedBySameClassMethodStemAndParams() throws Exception {
        Pairing.Pairs pairs = Pairing.pair(JmhJsonReader.read(sample("sample-jmh.json")));
        List<String> ops = pairs.comparisons().stream().map(Comparison::operation).toList();
        assertEquals(List.of("Properties.parse [typical]", "ResponseHeaderEncode", "SendHeaderDecode [typical]"), ops);
        assertEquals(1, pairs.unpaired().size());
        assertEquals(Map.of("input", "large"), pairs.unpaired().get(0).params());

        Comparison parse = pairs.comparisons().get(0);
        assertEquals("dev.rmqpatch.jmh.PropertiesBenchmark.parse", parse.benchmark());
        assertEquals("dev.rmqpatch.jmh.PropertiesBenchmark.parseStock", parse.stock().benchmark());
        assertEquals("dev.rmqpatch.jmh.PropertiesBenchmark.parsePatched", parse.patched().benchmark());
        assertEquals(2.5, parse.speedup(), 1e-9);
        assertEquals(480.0 / 210.0, parse.speedupLow(), 1e-9);
        assertEquals(520.0 / 190.0, parse.speedupHigh(), 1e-9);
        assertEquals(0.6, parse.allocationSaved(), 1e-9);

        Comparison response = pairs.comparisons().get(1);
        assertEquals("dev.rmqpatch.jmh.ResponseHeaderEncodeBenchmark", response.benchmark());
        assertEquals(2.0, response.speedup(), 1e-9);
        assertEquals(0.1, response.allocationSaved(), 1e-9);

        Comparison header = pairs.comparisons().get(2);
        assertEquals(3.0, header.speedup(), 1e-9);
        assertEquals(270.0 / 100.0, header.speedupLow(), 1e-9, "no error on one side: its score is both ends");
        assertEquals(0.0, header.allocationSaved(), 1e-9);
    }

    @Test
    void labelsNameOneParameterByValueAndSeveralByName() {
        assertEquals("SendPath", Pairing.label("a.b.SendPathBenchmark", "", Map.of()));
        assertEquals("Properties.parse [large]", Pairing.label("a.PropertiesBenchmark", "parse", Map.of("input", "large")));
        Map<String, String> two = new java.util.LinkedHashMap<>();
        two.put("input", "typical");
        two.put("n", "3");
        assertEquals("X.op [input=typical, n=3]", Pairing.label("X", "op", two));
    }

    @Test
    void aBenchmarkTwiceInOneFileIsAnError() throws Exception {
        List<JmhResult> results = JmhJsonReader.read(sample("sample-jmh.json"));
        List<JmhResult> doubled = new java.util.ArrayList<>(results);
        doubled.add(results.get(0));
        ReportInputException e = assertThrows(ReportInputException.class, () -> Pairing.pair(doubled));
        assertTrue(e.getMessage().contains("parsePatched") && e.getMessage().contains("twice"), e.getMessage());
    }

    @Test
    void printsTheTableAndWritesTableJsonAndChart() throws Exception {
        Path out = tmp.resolve("out");
        Run r = run("--in", sample("sample-jmh.json").toString(), "--out", out.toString(), "--command", "scripts/jmh.sh --quick");
        assertEquals(0, r.status(), r.err());
        String expectedTable = String.join("\n",
            "benchmarks ran on JDK 17.0.15 (OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1)",
            "",
            "| operation                  |  stock ns/op | patched ns/op | speedup | stock B/op | patched B/op | B/op saved |",
            "|----------------------------|-------------:|--------------:|--------:|-----------:|-------------:|-----------:|",
            "| Properties.parse [typical] | 500.0 ± 20.0 |  200.0 ± 10.0 |   2.50x |       3100 |         1240 |        60% |",
            "| ResponseHeaderEncode       |  100.0 ± 5.0 |    50.0 ± 5.0 |   2.00x |        320 |          288 |        10% |",
            "| SendHeaderDecode [typical] | 300.0 ± 30.0 |         100.0 |   3.00x |         88 |           88 |         0% |",
            "");
        assertTrue(r.out().startsWith(expectedTable), r.out());
        assertTrue(r.out().contains("not paired (no stock/patched counterpart): dev.rmqpatch.jmh.PropertiesBenchmark.parseStock {input=large}"), r.out());

        String tableFile = Files.readString(out.resolve("table.txt"));
        assertTrue(tableFile.startsWith("command: scripts/jmh.sh --quick\n\n" + expectedTable), tableFile);

        JsonObject json = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertEquals("scripts/jmh.sh --quick", json.get("command").getAsString());
        assertEquals("17.0.15", json.getAsJsonObject("jdk").get("jdkVersion").getAsString());
        assertEquals("5 x 1 s", json.getAsJsonObject("jmh").get("measurement").getAsString());
        assertTrue(json.getAsJsonObject("machine").get("processors").getAsInt() > 0);
        JsonArray rows = json.getAsJsonArray("comparisons");
        assertEquals(3, rows.size());
        JsonObject parse = rows.get(0).getAsJsonObject();
        assertEquals("Properties.parse [typical]", parse.get("operation").getAsString());
        assertEquals(2.5, parse.get("speedup").getAsDouble(), 1e-9);
        assertEquals(0.6, parse.get("allocationSaved").getAsDouble(), 1e-9);
        assertEquals(500.0, parse.getAsJsonObject("stock").get("score").getAsDouble());
        assertEquals(3100.0, parse.getAsJsonObject("stock").get("bytesPerOp").getAsDouble());
        assertEquals("typical", parse.getAsJsonObject("params").get("input").getAsString());
        assertTrue(rows.get(2).getAsJsonObject().getAsJsonObject("patched").get("error").isJsonNull(), "NaN is null");
        assertEquals(1, json.getAsJsonArray("unpaired").size());

        byte[] png = Files.readAllBytes(out.resolve("chart.png"));
        assertTrue(png.length > 10_000, "chart.png has " + png.length + " bytes");
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
    }

    @Test
    void withoutGcProfilerTheByteColumnsSayNotAvailable() throws Exception {
        Path out = tmp.resolve("nogc");
        Run r = run("--in", sample("sample-no-gc.json").toString(), "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("| SendPath [typical] | 2000.0 ± 50.0 |  800.0 ± 40.0 |   2.50x |        n/a |          n/a |        n/a |"), r.out());
        assertTrue(Files.size(out.resolve("chart.png")) > 0);
        JsonObject json = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject();
        assertTrue(json.get("command").isJsonNull());
        assertTrue(json.getAsJsonArray("comparisons").get(0).getAsJsonObject().get("allocationSaved").isJsonNull());
    }

    @Test
    void helpExitsZeroWithUsage() {
        Run r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: java -cp benchmarks.jar dev.rmqpatch.jmh.report.ReportMain"), r.out());
        assertEquals(0, run("-h").status());
    }

    @Test
    void badArgumentsExitTwoNamingTheProblem() {
        assertUsage(run("--bogus"), "unknown option '--bogus'");
        assertUsage(run("stray"), "unexpected argument 'stray'");
        assertUsage(run("--out", "x"), "--in FILE");
        assertUsage(run("--in", "x"), "--out DIR");
        assertUsage(run("--in"), "--in needs a value");
        assertUsage(run("--in=", "--out", "x"), "--in needs a non-empty value");
    }

    private static void assertUsage(Run r, String message) {
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("--help"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void unusableInputExitsOneWithAClearMessage() throws Exception {
        Path out = tmp.resolve("o");
        Path missing = tmp.resolve("nope.json");
        assertInput(run("--in", missing.toString(), "--out", out.toString()), "JMH result file not found: " + missing);

        Path empty = Files.writeString(tmp.resolve("empty.json"), "");
        assertInput(run("--in=" + empty, "--out=" + out), "empty file");

        Path garbage = Files.writeString(tmp.resolve("garbage.json"), "{ not json");
        assertInput(run("--in", garbage.toString(), "--out", out.toString()), "not valid JSON");

        Path object = Files.writeString(tmp.resolve("object.json"), "{\"benchmark\": \"x\"}");
        assertInput(run("--in", object.toString(), "--out", out.toString()), "expected a JSON array");

        Path none = Files.writeString(tmp.resolve("none.json"), "[]");
        assertInput(run("--in", none.toString(), "--out", out.toString()), "holds no benchmark results");

        Path noScore = Files.writeString(tmp.resolve("noscore.json"), "[{\"benchmark\": \"a.B.stock\", \"mode\": \"avgt\"}]");
        assertInput(run("--in", noScore.toString(), "--out", out.toString()), "a.B.stock) has no 'primaryMetric'");

        String onlyStock = Files.readString(sample("sample-jmh.json")).replace("Patched\"", "Other\"").replace("patched\"", "other\"");
        Path unpaired = Files.writeString(tmp.resolve("unpaired.json"), onlyStock);
        assertInput(run("--in", unpaired.toString(), "--out", out.toString()), "has no stock/patched pair");
        assertFalse(Files.exists(out.resolve("chart.png")), "nothing written for unusable input");

        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertInput(run("--in", sample("sample-jmh.json").toString(), "--out", file.toString()), "cannot create output folder");
    }

    private static void assertInput(Run r, String message) {
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().startsWith("report: ") && r.err().contains(message), r.err());
    }

    @Test
    void machineInfoReadsProcFilesAndSurvivesMissingOnes() throws Exception {
        Path cpu = Files.writeString(tmp.resolve("cpuinfo"),
            "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\n");
        Path mem = Files.writeString(tmp.resolve("meminfo"), "MemTotal:       25165824 kB\nMemFree:  1 kB\n");
        MachineInfo m = MachineInfo.read(cpu, mem, 2, "Linux");
        assertEquals(new MachineInfo(2, "Intel(R) Xeon(R) CPU @ 2.20GHz", "24.0 GiB", "Linux"), m);
        MachineInfo none = MachineInfo.read(tmp.resolve("x"), tmp.resolve("y"), 1, "Linux");
        assertEquals("unknown", none.cpuModel());
        assertEquals("unknown", none.memory());
    }
}
