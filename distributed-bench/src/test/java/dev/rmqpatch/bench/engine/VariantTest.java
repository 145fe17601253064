package dev.rmqpatch.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VariantTest {

    @Test
    void namedVariants() {
        Variant tuned = Variant.parse("4.9.0-tuned");
        assertFalse(tuned.patched());
        assertEquals("broker-tuned.conf", tuned.confName());
        assertEquals(List.of(), tuned.jvmOptions());
        Variant patched = Variant.parse("4.9.0-patched");
        assertTrue(patched.patched());
        assertEquals("rocketmq-4.9.0-patched", patched.distName());
        assertEquals("broker.conf", Variant.parse("4.9.1").confName());
    }

    @Test
    void stock498And533RunWithTheirOwnDefaultsOnly() {
        for (String v : new String[] {"4.9.8", "5.3.3"}) {
            Variant plain = Variant.parse(v + "@8#2");
            assertFalse(plain.patched());
            assertEquals("rocketmq-" + v + "-stock", plain.distName());
            assertEquals("broker.conf", plain.confName());
            assertEquals(Map.of(), plain.overrides(8), "their own defaults");
            assertEquals(8, plain.jdk());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse(v + "-tuned"));
            assertTrue(e.getMessage().contains(v + " runs only with its own defaults"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.8-tuned"));
        assertTrue(e.getMessage().contains("say 4.9.8 or 4.9.8-patched"), e.getMessage());
        for (String suffix : new String[] {"-patched", "-patched-without-P7"}) {
            e = assertThrows(IllegalArgumentException.class, () -> Variant.parse("5.3.3" + suffix));
            assertTrue(e.getMessage().contains("no patched 5.3.3"), e.getMessage());
        }
    }

    @Test
    void theLaterReleasesWithAPatchedVariantAreTheReleaseEnumsAfter490() {
        assertEquals(List.of("4.9.3", "4.9.4", "4.9.7", "4.9.8"), Variant.patchedReleases());
    }

    @Test
    void aLaterReleasesPatchedVariantIsItsStockDistributionPatchedWithItsOwnDefaults() {
        for (String release : Variant.patchedReleases()) {
            Variant v = Variant.parse(release + "-patched");
            assertTrue(v.patched());
            assertEquals(release, v.version());
            assertEquals("rocketmq-" + release + "-patched", v.distName());
            Variant stock = Variant.parse(release);
            assertEquals(stock.confName(), v.confName(), "the stock variant's conf");
            assertEquals("broker.conf", v.confName(), "the release's own defaults, not broker-tuned.conf");
            assertEquals(stock.overrides(2), v.overrides(2));
            assertEquals(Map.of(), v.overrides(2), "no tuned send thread pool");
            assertEquals(List.of(), v.jvmOptions());
            assertEquals("scripts/build.sh --rocketmq-version " + release, v.buildHint(), "build.sh patches the stock lib/");
            assertEquals("scripts/build.sh --rocketmq-version " + release + " --stock-only", stock.buildHint());
        }
        Variant v = Variant.parse("4.9.7-patched-with-P14-without-P7+P9@8#2");
        assertEquals("rocketmq-4.9.7-patched", v.distName());
        assertEquals(8, v.jdk());
        assertEquals(List.of("-Drmqpatch.enable=P14", "-Drmqpatch.disable=P7,P9"), v.jvmOptions());
        assertEquals("broker.conf", v.confName());
        assertEquals("broker-tuned.conf", Variant.parse("4.9.0-patched").confName(), "4.9.0's stays tuned");
    }

    @Test
    void aRunFolderGetsTheReportOfALaterReleasesPatchedLib(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("dists/rocketmq-4.9.7-patched/lib/rmqpatch/report.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, "P7 codec-on-io-thread applied\n");
        Files.createDirectories(dir.resolve("dists/rocketmq-4.9.7-stock/lib"));
        Path copy = Variant.parse("4.9.7-patched@8").copyPatchLibReport(dir.resolve("dists"), dir.resolve("out/brokers/x"));
        assertEquals(dir.resolve("out/brokers/x").resolve(Variant.RUN_REPORT), copy);
        assertEquals("P7 codec-on-io-thread applied\n", Files.readString(copy));
        assertNull(Variant.parse("4.9.7").copyPatchLibReport(dir.resolve("dists"), dir.resolve("out/stock")), "stock: none");
        assertFalse(Files.exists(dir.resolve("out/stock")), "nothing made for a variant without a report");
        assertNull(Variant.parse("4.9.0-patched").copyPatchLibReport(dir.resolve("dists"), dir.resolve("out/p")),
            "4.9.0-patched has no patch-lib report");
    }

    @Test
    void aReleaseThePatchesDoNotDeclareHasNoPatchedVariantAndTheMessageNamesThoseThatDo() {
        for (String bad : new String[] {"4.9.5-patched", "4.9.1-patched", "4.9.6-patched-without-P7@8", "5.3.3-patched"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse(bad), bad);
            String version = bad.substring(0, 5);
            assertTrue(e.getMessage().contains("no patched " + version), e.getMessage());
            assertTrue(e.getMessage().contains("4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8"), e.getMessage());
            assertTrue(e.getMessage().contains("say " + version + " for the stock one"), e.getMessage());
        }
        assertEquals("rocketmq-4.9.5-stock", Variant.parse("4.9.5").distName(), "the stock one is still there");
        assertEquals("rocketmq-4.9.3-stock", Variant.parse("4.9.3").distName());
        assertEquals("rocketmq-4.9.4-stock", Variant.parse("4.9.4@8").distName());
        assertEquals("rocketmq-4.9.7-stock", Variant.parse("4.9.7").distName());
    }

    @Test
    void patchedWithoutSomePatchesSwitchesThemOffAtStart() {
        Variant v = Variant.parse("4.9.0-patched-without-P7+P9");
        assertTrue(v.patched());
        assertEquals("rocketmq-4.9.0-patched", v.distName(), "same jars");
        assertEquals("broker-tuned.conf", v.confName(), "same parameters");
        assertEquals(List.of("P7", "P9"), v.disabledPatches());
        assertEquals(List.of("-Drmqpatch.disable=P7,P9"), v.jvmOptions());
    }

    @Test
    void patchedWithAPatchThatShipsOffTurnsItOnAtStart() {
        Variant v = Variant.parse("4.9.0-patched-with-P14@8");
        assertTrue(v.patched());
        assertEquals("rocketmq-4.9.0-patched", v.distName(), "same jars");
        assertEquals(List.of("P14"), v.enabledPatches());
        assertEquals(List.of("-Drmqpatch.enable=P14"), v.jvmOptions());
        Variant both = Variant.parse("4.9.0-patched-with-P14-without-P19+P24");
        assertEquals(List.of("-Drmqpatch.enable=P14", "-Drmqpatch.disable=P19,P24"), both.jvmOptions());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-patched-without-P19-with-P14"),
            "-with- comes first");
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-tuned-with-P14"));
    }

    @Test
    void badNamesAreRefusedWithTheForms() {
        for (String bad : new String[] {"4.9.0-tuned-without-P7", "4.9.0-patched-without-", "4.9.0-patched-without-p7", "latest"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse(bad), bad);
            assertTrue(e.getMessage().contains("-without-ID"), e.getMessage());
        }
    }

    @Test
    void aJdkSuffixChoosesTheServersJdkAndNothingElse() throws Exception {
        Variant v = Variant.parse("4.9.0-patched-without-P7@8");
        assertEquals(8, v.jdk());
        assertEquals("4.9.0-patched-without-P7@8", v.name());
        assertEquals("rocketmq-4.9.0-patched", v.distName());
        assertEquals(List.of("P7"), v.disabledPatches());
        assertEquals(null, Variant.parse("4.9.0-tuned").jdk());
        assertEquals(null, Variant.parse("4.9.0-tuned").javaHome(), "no suffix: the inherited JAVA_HOME");
        int own = Runtime.version().feature();
        assertEquals(java.nio.file.Path.of(System.getProperty("java.home")), Variant.parse("4.9.0-tuned@" + own).javaHome());
    }

    @Test
    void aCopySuffixNamesAnotherCopyOfTheSameVariant() {
        Variant a = Variant.parse("4.9.0-tuned");
        Variant b = Variant.parse("4.9.0-tuned#2");
        assertEquals("4.9.0-tuned#2", b.name());
        assertEquals(a.distName(), b.distName());
        assertEquals(a.confName(), b.confName());
        assertEquals(a.jvmOptions(), b.jvmOptions());
        Variant c = Variant.parse("4.9.0-patched-without-P7@8#3");
        assertEquals(8, c.jdk());
        assertEquals(List.of("P7"), c.disabledPatches());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-tuned#"));
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-tuned#x"));
    }

    @Test
    void anUnknownJdkIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-patched@7"));
        assertTrue(e.getMessage().contains("@8") && e.getMessage().contains("JDK 7"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-patched@"));
    }
}
