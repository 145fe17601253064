package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import org.junit.jupiter.api.Test;

/** A patch's variant for a release ({@link ReleaseFit#variant}, {@link ReleaseVariant}): other edits, same patch. */
class ReleaseVariantTest {

    private static final List<MethodEdit> VARIANT_EDITS = Collections.<MethodEdit>singletonList(
        new EntryHook(Stock.MAKE_CUSTOM_HEADER_TO_NET, Codec.ENCODE_HEADER));

    /** P4 as a stand-in whose 4.9.7 declaration is a variant with other edits. */
    private static final Patch WITH_VARIANT = new Patch() {
        private final Patch p4 = Patches.all().stream().filter(p -> p.id().equals("P4")).findFirst().orElseThrow();

        @Override public String id() { return p4.id(); }
        @Override public String name() { return p4.name(); }
        @Override public String effect() { return p4.effect(); }
        @Override public String buys() { return p4.buys(); }
        @Override public String why() { return p4.why(); }
        @Override public String verification() { return p4.verification(); }
        @Override public String tests() { return p4.tests(); }
        @Override public String benchmark() { return p4.benchmark(); }
        @Override public List<MethodEdit> edits() { return Collections.emptyList(); }

        @Override
        public ReleaseFit on(Release release) {
            if (release == Release.V4_9_8) {
                return ReleaseFit.upstream("stand-in (read)");
            }
            return release.atLeast(Release.V4_9_7) ? ReleaseFit.variant("the 4.9.7 fields", VARIANT_EDITS) : ReleaseFit.APPLIES;
        }
    };

    @Test
    void appliesAsWrittenIsThePatchItself() {
        assertSame(WITH_VARIANT, ReleaseVariant.of(WITH_VARIANT, Release.V4_9_4));
    }

    @Test
    void theVariantHasItsOwnEditsAndThePatchsEverythingElse() {
        ReleaseFit fit = WITH_VARIANT.on(Release.V4_9_7);
        assertTrue(fit.applies());
        assertEquals(ReleaseFit.Kind.VARIANT, fit.kind());
        assertEquals("applies as variant: the 4.9.7 fields", fit.toString());
        Patch v = ReleaseVariant.of(WITH_VARIANT, Release.V4_9_7);
        assertEquals(VARIANT_EDITS, v.edits());
        assertEquals("P4", v.id());
        assertEquals(WITH_VARIANT.name(), v.name());
        assertEquals(WITH_VARIANT.onByDefault(), v.onByDefault());
        assertSame(WITH_VARIANT, ((ReleaseVariant) v).patch());
    }

    @Test
    void aPatchNotAppliedHasNoVariant() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ReleaseVariant.of(WITH_VARIANT, Release.V4_9_8));
        assertTrue(e.getMessage().contains("already upstream: stand-in"), e.getMessage());
    }

    @Test
    void aVariantSaysWhatDiffersAndHasEdits() {
        assertThrows(IllegalArgumentException.class, () -> ReleaseFit.variant(" ", VARIANT_EDITS));
        assertThrows(IllegalArgumentException.class, () -> ReleaseFit.variant("x", Collections.<MethodEdit>emptyList()));
    }
}
