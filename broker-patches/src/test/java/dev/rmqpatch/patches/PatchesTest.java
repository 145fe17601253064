package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;

import dev.rmqpatch.codec.switches.PatchSwitches;
import org.junit.jupiter.api.Test;

/** The patch list and the codec's switches must name the same patches, or a patch would ship without a switch. */
class PatchesTest {

    @Test
    void everyPatchHasItsSwitchAndEverySwitchAPatch() {
        assertEquals(PatchSwitches.IDS, Patches.all().stream().map(Patch::id).collect(Collectors.toList()));
    }

    @Test
    void thePatchesThatShipOffAreTheSwitchesOffByDefault() {
        assertEquals(PatchSwitches.OFF_BY_DEFAULT, Patches.all().stream().filter(p -> !p.onByDefault()).map(Patch::id)
            .collect(Collectors.toList()));
        for (Patch p : Patches.all()) {
            // A security patch never ships off: the hole it closes would be open on every default install.
            assertTrue(p.onByDefault() || !p.id().startsWith("S"), p.id());
        }
    }

    @Test
    void securityPatchesNameTheHolesTheyClose() {
        for (Patch p : Patches.all()) {
            if (!p.closes().isEmpty()) {
                // A CVE id where there is one (well formed), else the hole named in words; and where upstream fixed it.
                assertTrue(p.id().startsWith("S") && (p.closes().matches("CVE-\\d{4}-\\d+(, CVE-\\d{4}-\\d+)*")
                    || !p.closes().startsWith("CVE")) && !p.fixedUpstream().isEmpty(), p.id() + ": " + p.closes());
            }
            assertTrue(!p.name().contains(",") && !p.name().contains(" "), "manifest labels are comma-separated: " + p.name());
        }
        assertEquals(List.of("S1", "S2", "S3", "S5", "S6", "S7", "S8", "S9"), Patches.all().stream().filter(p -> !p.closes().isEmpty())
            .map(Patch::id).collect(Collectors.toList()));
    }
}
