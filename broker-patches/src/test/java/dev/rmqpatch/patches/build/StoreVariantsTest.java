package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.cli.PlanRelease;
import dev.rmqpatch.patches.transform.MethodEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P13 (replica-ack) and P15 (direct-response) as their 4.9.3+ variants, and P2 (properties-codec, rocketmq-common) as
 * its own: applied by the declarations and the witnesses on 4.9.3, 4.9.4 and 4.9.7 (and 4.9.8 when its lib/ is
 * cached), and refused by the witnesses on code of another shape. (P2's results against each release's stock:
 * Properties493DifferentialTest.)
 */
class StoreVariantsTest {

    private static final List<String> IDS = List.of("P2", "P13", "P15");

    @TempDir
    Path tmp;

    private static Map<Release, Path> libs() {
        Map<Release, Path> libs = new LinkedHashMap<>();
        libs.put(Release.V4_9_3, ReleaseLibs.release493());
        libs.put(Release.V4_9_4, ReleaseLibs.release494());
        libs.put(Release.V4_9_7, ReleaseLibs.release497());
        // scripts/stock-lib.sh's cache of 4.9.8's jars: $RMQPATCH_ROCKETMQ_BUILD_CACHE, else its default.
        String cache = System.getenv("RMQPATCH_ROCKETMQ_BUILD_CACHE");
        Path lib498 = (cache != null && !cache.isEmpty() ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache/rmqpatch/rocketmq-4.9.8-build")).resolve("lib");
        if (Files.isDirectory(lib498)) {
            libs.put(Release.V4_9_8, lib498);
        }
        return libs;
    }

    private static Patch byId(String id) {
        return Patches.all().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<String> described(List<MethodEdit> edits) {
        return edits.stream().map(MethodEdit::describe).collect(Collectors.toList());
    }

    @Test
    void bothAreAppliedAsTheirVariantsOnEveryLaterRelease() throws Exception {
        for (Map.Entry<Release, Path> e : libs().entrySet()) {
            Release release = e.getKey();
            ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(e.getValue().toFile()), Patches.all(),
                StartupReport.edits());
            assertEquals(release, s.release());
            String text = ReleaseReport.text(s);
            for (String id : IDS) {
                ReleaseFit fit = byId(id).on(release);
                assertEquals(ReleaseFit.Kind.VARIANT, fit.kind(), id + " on " + release.version());
                ReleaseSelection.Row row = s.rows().stream().filter(r -> r.id.equals(id)).findFirst().orElseThrow();
                assertEquals(ReleaseSelection.Outcome.APPLIED, row.outcome, id + " on " + release.version() + ": "
                    + row.witnessKind + ": " + row.reason);
                Patch applied = s.applied().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
                assertTrue(applied instanceof ReleaseVariant, applied.toString());
                assertEquals(described(fit.variantEdits()), described(applied.edits()));
                assertTrue(text.lines().anyMatch(l -> l.startsWith(id + " ") && l.contains("as variant")), text);
            }
            // As written (4.9.0's edits): P15 is refused by its call count there; P13's and P2's edits fit, only the
            // declarations keep them out (docs/releases.md: "dangerous").
            ReleaseSelection.Row p15 = s.rows().stream().filter(r -> r.id.equals("P15")).findFirst().orElseThrow();
            assertEquals(ReleasePlan.WITNESS_COUNT, p15.asWritten.kind, release.version());
            ReleaseSelection.Row p2 = s.rows().stream().filter(r -> r.id.equals("P2")).findFirst().orElseThrow();
            assertTrue(p2.asWritten.applies(), release.version());
        }
    }

    /** patch-lib on 4.9.3's jars: written, no witness refusal, the variants in the broker's and store's manifests. */
    @Test
    void patchLibWritesTheVariantsInto493() throws Exception {
        Path in = ReleaseLibs.release493();
        Path dest = tmp.resolve("out");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = PlanRelease.run(new String[] {"patch-lib", in.toString(), "--out", dest.toString(), "--codec-jar",
            TestJars.codecJar(tmp).toString()}, new PrintStream(out, true, "UTF-8"), new PrintStream(out, true, "UTF-8"));
        String text = out.toString("UTF-8");
        assertEquals(0, rc, text);
        assertTrue(manifestPatches(dest.resolve("rocketmq-store-4.9.3.jar")).contains("P13 replica-ack"),
            manifestPatches(dest.resolve("rocketmq-store-4.9.3.jar")));
        assertTrue(manifestPatches(dest.resolve("rocketmq-broker-4.9.3.jar")).contains("P15 direct-response"),
            manifestPatches(dest.resolve("rocketmq-broker-4.9.3.jar")));
        assertTrue(manifestPatches(dest.resolve("rocketmq-common-4.9.3.jar")).contains("P2 properties-codec"),
            manifestPatches(dest.resolve("rocketmq-common-4.9.3.jar")));
        String report = Files.readString(dest.resolve("rmqpatch/report.txt"), StandardCharsets.UTF_8);
        for (String id : IDS) {
            assertTrue(report.lines().anyMatch(l -> l.startsWith(id + " ") && l.contains("as variant")), report);
        }
    }

    /**
     * The variants' witnesses refuse code of another shape: declared (by a stand-in) on 4.9.0, whose asyncProcessRequest
     * calls getSendMessageExecutor() (0 calls of getPutMessageFutureExecutor(), the variant wants exactly 1), whose
     * doWaitTransfer reads no getDeadLine() (4.9.0's requests have none) and whose messageProperties2String keeps its
     * last separator (no deleteCharAt).
     */
    @Test
    void theVariantsWitnessesRefuseAnotherShape() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "needs 4.9.0's jars");
        List<Patch> standIns = new ArrayList<>();
        for (String id : IDS) {
            Patch real = byId(id);
            ReleaseFit variant = real.on(Release.V4_9_7);
            standIns.add((Patch) java.lang.reflect.Proxy.newProxyInstance(Patch.class.getClassLoader(),
                new Class<?>[] {Patch.class}, (proxy, m, args) -> m.getName().equals("on") ? variant : m.invoke(real, args)));
        }
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile()), standIns,
            StartupReport.edits());
        assertEquals(Release.V4_9_0, s.release());
        assertTrue(s.applied().isEmpty(), s.applied().toString());
        Map<String, ReleaseSelection.Row> rows = s.rows().stream().collect(Collectors.toMap(r -> r.id, r -> r));
        assertEquals(ReleaseSelection.Outcome.REFUSED, rows.get("P15").outcome);
        assertEquals(ReleasePlan.WITNESS_COUNT, rows.get("P15").witnessKind, rows.get("P15").reason);
        assertTrue(rows.get("P15").reason.contains("getPutMessageFutureExecutor"), rows.get("P15").reason);
        assertEquals(ReleaseSelection.Outcome.REFUSED, rows.get("P13").outcome);
        assertEquals(ReleasePlan.MIRRORED_MEMBER, rows.get("P13").witnessKind, rows.get("P13").reason);
        assertTrue(rows.get("P13").reason.contains("getDeadLine"), rows.get("P13").reason);
        assertEquals(ReleaseSelection.Outcome.REFUSED, rows.get("P2").outcome);
        assertEquals(ReleasePlan.MIRRORED_MEMBER, rows.get("P2").witnessKind, rows.get("P2").reason);
        assertTrue(rows.get("P2").reason.contains("deleteCharAt"), rows.get("P2").reason);
    }

    private static String manifestPatches(Path jar) throws Exception {
        try (JarFile jf = new JarFile(jar.toFile())) {
            String v = jf.getManifest().getMainAttributes().getValue(JarPatcher.MANIFEST_ATTRIBUTE);
            return v == null ? "" : v;
        }
    }
}
