package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The per-release declarations of the patches ({@link Patch#on(Release)}): 4.9.0 gets every patch, every patch left
 * out of a release says why and how that was found, and the releases without declarations are not guessed.
 */
class ReleaseDeclarationsTest {

    /** How a reason says it was found: the release's source read, its class files (javap), a test, or the witnesses. */
    private static final Pattern EVIDENCE = Pattern.compile("\\(read|, read\\b|read [0-9]|\\(javap|javap\\b|witness only|tests");

    @Test
    void everyPatchAppliesOn490() {
        for (Patch p : Patches.all()) {
            assertTrue(p.on(Release.V4_9_0).applies(), p.id() + ": " + p.on(Release.V4_9_0));
        }
    }

    @Test
    void everyPatchLeftOutSaysWhyAndHowItWasFound() {
        List<String> bad = new ArrayList<>();
        for (Patch p : Patches.all()) {
            for (Release r : Release.values()) {
                ReleaseFit fit = p.on(r);
                if (!fit.applies() && !EVIDENCE.matcher(fit.reason()).find()) {
                    bad.add(p.id() + " on " + r.version() + ": " + fit.reason());
                }
            }
        }
        assertEquals(List.of(), bad, "a reason says how it was found: (read ...), javap, tests or (witness only)");
    }

    /** What docs/releases.md read: a sample of each kind, so a slip in a declaration's release shows. */
    @Test
    void theReadingOfTheLaterReleases() {
        Patch p8 = byId("P8");
        assertTrue(p8.on(Release.V4_9_0).applies());
        assertEquals(ReleaseFit.Kind.UPSTREAM, p8.on(Release.V4_9_3).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, byId("P1").on(Release.V4_9_3).kind());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("P1").on(Release.V4_9_4).kind());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("P10").on(Release.V4_9_4).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, byId("P4").on(Release.V4_9_4).kind());
        // P4 and P11 on 4.9.7+: variants, whose hooks write 4.9.7's fields in 4.9.7's order (RpcHeaderHooks).
        for (String id : new String[] {"P4", "P11"}) {
            assertEquals(ReleaseFit.Kind.APPLIES, byId(id).on(Release.V4_9_4).kind(), id);
            for (Release r : new Release[] {Release.V4_9_7, Release.V4_9_8}) {
                ReleaseFit fit = byId(id).on(r);
                assertEquals(ReleaseFit.Kind.VARIANT, fit.kind(), id + " on " + r.version());
                assertEquals(1, fit.variantEdits().size(), id);
                assertNotEquals(byId(id).edits().get(0).describe(), fit.variantEdits().get(0).describe(), id);
                assertTrue(fit.variantEdits().get(0).describe().contains("RpcHeaderHooks"), fit.variantEdits().get(0).describe());
            }
        }
        // P2, P13 and P15: their 4.9.3+ variants (4.9.3's properties format and parser; the request's own deadline;
        // getPutMessageFutureExecutor()).
        for (Release r : Release.values()) {
            ReleaseFit.Kind want = r.atLeast(Release.V4_9_3) ? ReleaseFit.Kind.VARIANT : ReleaseFit.Kind.APPLIES;
            assertEquals(want, byId("P2").on(r).kind(), "P2 on " + r.version());
            assertEquals(want, byId("P13").on(r).kind(), "P13 on " + r.version());
            assertEquals(want, byId("P15").on(r).kind(), "P15 on " + r.version());
        }
        // P28: 4.9.3's variant (the release's properties parser), 4.9.4+'s (also the compressor by type).
        assertEquals(ReleaseFit.Kind.APPLIES, byId("P28").on(Release.V4_9_0).kind());
        assertTrue(byId("P28").on(Release.V4_9_3).variantEdits().stream()
            .anyMatch(e -> e.describe().contains("MessageDecodes493")));
        for (Release r : new Release[] {Release.V4_9_4, Release.V4_9_7, Release.V4_9_8}) {
            assertTrue(byId("P28").on(r).variantEdits().stream().anyMatch(e -> e.describe().contains("MessageDecodes494")),
                r.version());
        }
        // P36: upstream from 4.9.3 (MessageExtEncoder's needAppendLastPropertySeparator; BatchEncoderReleasesTest).
        assertEquals(ReleaseFit.Kind.APPLIES, byId("P36").on(Release.V4_9_0).kind());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("P36").on(Release.V4_9_3).kind());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("P36").on(Release.V4_9_4).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, byId("S2").on(Release.V4_9_4).kind());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("S2").on(Release.V4_9_7).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, byId("S7").on(Release.V4_9_7).kind());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("S7").on(Release.V4_9_8).kind());
        // S5: 4.9.4+ ship fastjson 1.2.69_noneautotype, which refuses every @type (FastjsonReleasesTest).
        assertTrue(byId("S5").on(Release.V4_9_3).applies());
        assertEquals(ReleaseFit.Kind.UPSTREAM, byId("S5").on(Release.V4_9_4).kind());
        for (Release r : Release.values()) {
            assertTrue(byId("P7").on(r).applies(), r.version());
        }
        // P6: as written up to 4.9.3; from 4.9.4 its variant, the same call replaced in headerEncode and in
        // fastEncodeHeader, NettyEncoder's way (JsonHeaderEncodeReleasesTest).
        assertEquals(ReleaseFit.Kind.APPLIES, byId("P6").on(Release.V4_9_0).kind());
        assertEquals(ReleaseFit.Kind.APPLIES, byId("P6").on(Release.V4_9_3).kind());
        for (Release r : new Release[] {Release.V4_9_4, Release.V4_9_7, Release.V4_9_8}) {
            ReleaseFit fit = byId("P6").on(r);
            assertEquals(ReleaseFit.Kind.VARIANT, fit.kind(), r.version());
            assertEquals(2, fit.variantEdits().size(), r.version());
            assertEquals(byId("P6").edits().get(0).describe(), fit.variantEdits().get(0).describe());
            assertTrue(fit.variantEdits().get(1).describe().contains("fastEncodeHeader"), fit.variantEdits().get(1).describe());
        }
    }

    @Test
    void releasesWithoutDeclarationsAreNotGuessed() {
        for (String v : new String[] {"4.9.1", "4.9.2", "4.9.5", "4.9.6", "5.3.3"}) {
            assertNull(Release.of(v), v);
        }
        assertEquals(Release.V4_9_7, Release.of("4.9.7"));
        assertEquals("4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8", Release.supported());
    }

    private static Patch byId(String id) {
        return Patches.all().stream().filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    }
}
