package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.codec.switches.PatchSwitches;
import dev.rmqpatch.patches.build.PatchRecord;
import dev.rmqpatch.patches.cli.PlanRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * patch-lib on a whole stock 4.9.7 install: the distribution's lib/ (rocketmq-4.9.7-stock, 4.9.7's jars with bin/ and
 * conf/ as every distribution's) patched into a new lib/ of a copy of it, which starts from its bin/ scripts through
 * local-cluster (loopback, free ports, a temp store, stopped in any case); a stock 4.9.0 client's messages come back
 * whole (body, keys, tags, user properties), and the broker's start-up log lists the patches the report applied and
 * none of those it left out; 4.9.3 and 4.9.4 (on JDK 8) too, and 4.9.8 when its stock distribution was built. And on 4.9.0, patch-lib's jars are the
 * patched distribution's.
 */
class PatchLibIT {

    /**
     * A stock install of each later release patched by patch-lib, started by its own bin/ scripts on JDK 8 (where most
     * 4.9.x brokers run; checked from /proc) and on the test JDK: 4.9.3 (where most of the codec patches still apply:
     * P1, P4-P6, P10, P11, P28, S6) on 8; 4.9.4 (a common stopping point), 4.9.7 and 4.9.8 on both. 4.9.8's broker,
     * name server and filter are built from the source release by scripts/stock-lib.sh, the distribution that
     * -Drmqpatch.stock498.skip=false makes (as in CI); without it its cases are skipped.
     */
    @ParameterizedTest(name = "{0} on JDK {1}")
    @CsvSource({"4.9.3, 8", "4.9.4, 8", "4.9.4, 17", "4.9.7, 8", "4.9.7, 17", "4.9.8, 8", "4.9.8, 17"})
    void aLaterInstallPatchedByPatchLibServesAStockClientAndLogsItsPatches(String release, int jdk) throws Exception {
        patchStartAndRoundTrip(ReleaseInstalls.stock(release), jdk == 8 ? Jdk8.home() : null);
    }

    /** On 4.9.0 patch-lib gives exactly the jars of the patched distribution (and its report beside them). */
    @Test
    void on490TheJarsOfThePatchedDistribution() throws Exception {
        Path out = Files.createTempDirectory("rmqpatch-patch-lib-490-").resolve("lib");
        try {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            int rc = PlanRelease.run(new String[] {"patch-lib", TestCluster.dist("stock").resolve("lib").toString(), "--out",
                out.toString(), "--codec-jar", PatchLibDist.codecJar().toString()}, new PrintStream(text, true, "UTF-8"),
                new PrintStream(text, true, "UTF-8"));
            assertEquals(0, rc, text.toString("UTF-8"));
            Map<String, String> made = hashes(out);
            made.keySet().removeIf(n -> n.startsWith("rmqpatch/"));
            assertEquals(hashes(TestCluster.dist("patched").resolve("lib")), made);
        } finally {
            LocalCluster.deleteTree(out.getParent());
        }
    }

    /** With {@code javaHome} null, the servers run on the JDK the tests run on. */
    private static void patchStartAndRoundTrip(Path stock, Path javaHome) throws Exception {
        Path dist = Files.createTempDirectory("rmqpatch-patch-lib-");
        try {
            String report = PatchLibDist.make(stock, dist);
            List<String> applied = labels(report, "applied");
            List<String> leftOut = labels(report, "already upstream");
            leftOut.addAll(labels(report, "needs variant"));
            assertTrue(applied.contains("P7 codec-on-io-thread") && applied.contains("S1 broker-config-guard"), report);
            assertTrue(report.contains("RocketMQ " + stock.getFileName().toString().split("-")[1] + " (MQVersion"), report);
            assertTrue(leftOut.contains("P8 remote-address-cache") && applied.contains("P2 properties-codec"), report);

            try (TestCluster cluster = new TestCluster(dist, "broker-tuned.conf").javaHome(javaHome).start()) {
                DropInIT.roundTrip(cluster, stock.getFileName() + " patched by patch-lib", 100);
                // P40 (its 4.9.3+ variant): the 18 delay levels' pool rests while no delayed message is stored (stock
                // 4.9.8's switches about 430 times a second idle: docs/results/idle-timers-2026-11-30/), then the
                // schedule service still delivers delayed messages when due (once per release: on JDK 8).
                long before = ThreadSwitches.of(cluster.cluster().brokerPid(), "ScheduleMessage");
                Thread.sleep(1_000);
                long idle = ThreadSwitches.of(cluster.cluster().brokerPid(), "ScheduleMessage") - before;
                System.out.println("[PatchLibIT] " + stock.getFileName() + ": the schedule service's switches in 1 s "
                    + "with no delayed message: " + idle);
                assertTrue(idle < 40, "schedule service's switches in 1 s with no delayed message: " + idle);
                if (javaHome != null) {
                    DropInIT.roundTrip(cluster, stock.getFileName() + " patched by patch-lib, delayed messages",
                        Path.of(System.getProperty("rmqpatch.stock.lib")), "RoundTripDelayed", 20, "-Drt.delayLevel=1");
                }
                String line = Files.readAllLines(cluster.brokerLog(), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains("rmqpatch: patches in the jars: ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no rmqpatch start-up line in " + cluster.brokerLog()));
                System.out.println("[PatchLibIT] " + (javaHome == null ? "test JDK" : javaHome) + ": " + line);
                // S5 where the release ships fastjson 1.2.76 (4.9.3); upstream where it ships 1.2.69_noneautotype (4.9.4+).
                assertEquals(applied.contains("S5 fastjson-safe-mode"), Files.readString(cluster.brokerLog(),
                    StandardCharsets.UTF_8).contains("rmqpatch: fastjson safe mode (S5): on"), "S5's line in "
                    + cluster.brokerLog() + ", S5 applied: " + applied.contains("S5 fastjson-safe-mode"));
                // The patches that ship off and apply here are offered to -Drmqpatch.enable (P38; not P14, upstream on
                // 4.9.3+), and only they.
                List<String> offered = PatchSwitches.OFF_BY_DEFAULT.stream()
                    .filter(id -> applied.stream().anyMatch(label -> label.startsWith(id + " "))).collect(Collectors.toList());
                assertTrue(offered.contains("P38"), "P38 ships off and applies on every release: " + applied);
                assertTrue(line.endsWith("(-Drmqpatch.enable turns on): " + offered), line);
                String carried = line.substring(line.indexOf("patches in the jars: ")).split(";")[0];
                for (String label : applied) {
                    assertTrue(carried.contains(label), label + " not in: " + line);
                }
                for (String label : leftOut) {
                    assertFalse(carried.contains(label + ",") || carried.contains(label + "]"), label + " in: " + line);
                }
            }
        } finally {
            LocalCluster.deleteTree(dist);
        }
    }

    /** The labels of the report's rows with this outcome ("P7 codec-on-io-thread"). */
    private static List<String> labels(String report, String outcome) {
        return report.lines().filter(l -> l.matches("[PS][0-9]+ \\S+ +" + outcome + "\\b.*"))
            .map(l -> l.substring(0, l.indexOf(' ', l.indexOf(' ') + 1))).collect(Collectors.toList());
    }

    private static Map<String, String> hashes(Path root) throws Exception {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                m.put(root.relativize(f).toString(), PatchRecord.sha256(f.toFile()));
            }
        }
        return m;
    }
}
