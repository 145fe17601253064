package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.cli.PlanRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The declarations and the witnesses together (what patch-lib applies), and the plan's report of it. */
class ReleaseSelectionTest {

    @TempDir
    Path tmp;

    /** The declarations and the plan agree on 4.9.7: no patch declared to apply there is refused by a witness. */
    @Test
    void nothingDeclaredForRelease497IsRefusedByAWitness() throws Exception {
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(ReleaseLibs.release497().toFile()), Patches.all(),
            StartupReport.edits());
        assertEquals(Release.V4_9_7, s.release());
        List<String> refused = new ArrayList<>();
        for (ReleaseSelection.Row r : s.rows()) {
            if (r.outcome == ReleaseSelection.Outcome.REFUSED) {
                refused.add(r.label + ": " + r.witnessKind + ": " + r.reason);
            }
        }
        assertEquals(List.of(), refused);
        List<String> declared = Patches.all().stream().filter(p -> p.on(Release.V4_9_7).applies()).map(Patch::id)
            .collect(Collectors.toList());
        assertEquals(declared, s.applied().stream().map(Patch::id).collect(Collectors.toList()));
        assertTrue(s.startupReport().applies(), s.startupReport().reason);
        assertEquals(Patches.all().size(), s.count(ReleaseSelection.Outcome.APPLIED) + s.count(ReleaseSelection.Outcome.UPSTREAM)
            + s.count(ReleaseSelection.Outcome.NEEDS_VARIANT));
    }

    /**
     * Each row left out also carries what the witnesses say of the patch as written: P8 fits 4.9.7's code, so only its
     * declaration keeps it out; P3's witnesses refuse it as well. No patch needs a variant on 4.9.7 today, so that
     * outcome is shown with a stand-in: P6 declared to need one (its edit as written, headerEncode's call, fits 4.9.7).
     */
    @Test
    void rowsLeftOutCarryTheWitnessesSecondOpinion() throws Exception {
        Patch real = Patches.all().stream().filter(p -> p.id().equals("P6")).findFirst().orElseThrow();
        Patch waiting = (Patch) java.lang.reflect.Proxy.newProxyInstance(Patch.class.getClassLoader(),
            new Class<?>[] {Patch.class}, (proxy, m, args) -> m.getName().equals("on")
                ? ReleaseFit.needsVariant("a stand-in: its variant is not written") : m.invoke(real, args));
        List<Patch> patches = new ArrayList<>(Patches.all());
        patches.set(patches.indexOf(real), waiting);
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(ReleaseLibs.release497().toFile()), patches,
            StartupReport.edits());
        Map<String, ReleaseSelection.Row> rows = s.rows().stream().collect(Collectors.toMap(r -> r.id, Function.identity()));
        assertEquals(ReleaseSelection.Outcome.UPSTREAM, rows.get("P8").outcome);
        assertTrue(rows.get("P8").asWritten.applies());
        assertEquals(ReleaseSelection.Outcome.NEEDS_VARIANT, rows.get("P6").outcome);
        assertEquals("a stand-in: its variant is not written", rows.get("P6").reason);
        assertTrue(rows.get("P6").asWritten.applies());
        assertEquals(1, s.count(ReleaseSelection.Outcome.NEEDS_VARIANT));
        assertFalse(s.applied().stream().anyMatch(p -> p.id().equals("P6")));
        assertEquals(ReleaseSelection.Outcome.UPSTREAM, rows.get("P3").outcome);
        assertEquals(ReleasePlan.WITNESS_COUNT, rows.get("P3").asWritten.kind);
        String text = ReleaseReport.text(s);
        assertTrue(text.contains("P8 remote-address-cache") && text.contains("[as written: its edits fit]"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("P6 json-header-encode") && l.contains("needs variant")), text);
        for (Patch p : Patches.all()) {
            assertEquals(1, text.lines().filter(l -> l.startsWith(p.id() + " ")).count(), p.id() + "\n" + text);
        }
    }

    /** The real declarations: no patch needs a variant on any supported release (P6's 4.9.4+ variant was the last). */
    @Test
    void noPatchWaitsForAVariant() {
        for (Release r : Release.values()) {
            for (Patch p : Patches.all()) {
                assertNotEquals(ReleaseFit.Kind.NEEDS_VARIANT, p.on(r).kind(), p.id() + " on " + r.version());
            }
        }
    }

    /** A patch declared to apply whose witnesses refuse it is a visible refusal, and plan's exit status says so. */
    @Test
    void aDeclaredPatchRefusedByItsWitnessesIsShownAndCounted() throws Exception {
        Path lib = ReleaseLibs.copyOf497(tmp.resolve("lib"));
        // Without the broker's jar, every patch of a broker class has nothing to fit.
        Files.delete(lib.resolve("rocketmq-broker-4.9.7.jar"));
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(lib.toFile()), Patches.all(), StartupReport.edits());
        ReleaseSelection.Row s1 = s.rows().stream().filter(r -> r.id.equals("S1")).findFirst().orElseThrow();
        assertEquals(ReleaseSelection.Outcome.REFUSED, s1.outcome);
        assertEquals(ReleasePlan.CLASS_MISSING, s1.witnessKind);
        assertFalse(s.applied().stream().anyMatch(p -> p.id().equals("S1")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = PlanRelease.run(new String[] {"plan", lib.toString()}, new PrintStream(out, true, "UTF-8"),
            new PrintStream(new ByteArrayOutputStream()));
        String table = out.toString("UTF-8");
        assertEquals(1, rc, table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("S1 broker-config-guard") && l.contains("refused by witness")
            && l.contains("class missing")), table);
    }

    @Test
    void everyPatchIsAppliedOn490() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "the patches are written for 4.9.0's jars");
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile()),
            Patches.all(), StartupReport.edits());
        assertEquals(Patches.all(), s.applied());
    }

    /** 4.9.5 has no declarations: the plan still shows the patches as written, and says so with exit status 4. */
    @Test
    void aReleaseWithoutDeclarationsIsNamedAndRefused() throws Exception {
        Path lib = ReleaseLibs.fakeRelease(tmp.resolve("lib"), "4.9.5");
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(lib.toFile()), Patches.all(), StartupReport.edits());
        assertFalse(s.supported());
        assertTrue(s.applied().isEmpty());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = PlanRelease.run(new String[] {"plan", lib.toString()}, new PrintStream(out, true, "UTF-8"),
            new PrintStream(err, true, "UTF-8"));
        assertEquals(4, rc, out.toString("UTF-8"));
        assertTrue(err.toString("UTF-8").contains("RocketMQ 4.9.5 is not a release the patches declare themselves for "
            + "(supported: 4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8)"), err.toString("UTF-8"));
        assertTrue(out.toString("UTF-8").contains("no declaration"), out.toString("UTF-8"));
    }

    /**
     * A patch declared as a variant on a release is applied there with the variant's edits under its own id, and the
     * report says it is a variant (a stand-in: P7, declared a variant on 4.9.7 whose edits are its own).
     */
    @Test
    void aVariantIsAppliedWithItsOwnEditsAndReportedAsSuch() throws Exception {
        Patch p7 = Patches.all().stream().filter(p -> p.id().equals("P7")).findFirst().orElseThrow();
        ReleaseFit variant = ReleaseFit.variant("stand-in: P7's own edits", p7.edits());
        Patch standIn = (Patch) java.lang.reflect.Proxy.newProxyInstance(Patch.class.getClassLoader(),
            new Class<?>[] {Patch.class}, (proxy, m, args) -> m.getName().equals("on")
                ? (args[0] == Release.V4_9_7 ? variant : ReleaseFit.APPLIES)
                : m.getName().equals("edits") ? List.of() : m.invoke(p7, args));
        ReleaseSelection s = ReleaseSelection.of(ReleaseLib.of(ReleaseLibs.release497().toFile()), List.of(standIn),
            StartupReport.edits());
        assertEquals(1, s.applied().size());
        Patch applied = s.applied().get(0);
        assertTrue(applied instanceof ReleaseVariant, applied.toString());
        assertEquals("P7", applied.id());
        assertEquals(variant.variantEdits(), applied.edits());
        ReleaseSelection.Row row = s.rows().get(0);
        assertEquals(ReleaseSelection.Outcome.APPLIED, row.outcome);
        assertEquals("stand-in: P7's own edits", row.reason);
        assertTrue(ReleaseReport.text(s).contains("as variant: stand-in: P7's own edits"), ReleaseReport.text(s));
        assertEquals("**variant**", PatchesDoc.releaseCell(variant));
    }
}
