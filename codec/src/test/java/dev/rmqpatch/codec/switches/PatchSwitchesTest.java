package dev.rmqpatch.codec.switches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PatchSwitchesTest {

    @Test
    void everyIdHasAConstantSwitchAndNothingElseDoes() throws Exception {
        for (String id : PatchSwitches.IDS) {
            Field f = PatchSwitches.class.getField(id);
            int m = f.getModifiers();
            assertTrue(Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == boolean.class, id);
            assertEquals(!PatchSwitches.OFF_BY_DEFAULT.contains(id), f.getBoolean(null),
                id + ": the test JVM sets neither -Drmqpatch.disable nor -Drmqpatch.enable");
        }
        long flags = java.util.Arrays.stream(PatchSwitches.class.getFields()).filter(f -> f.getType() == boolean.class).count();
        assertEquals(PatchSwitches.IDS.size(), flags, "one flag per id");
    }

    @Test
    void parsesCommaSeparatedIdsIgnoringBlanks() {
        assertEquals(Set.of(), PatchSwitches.parse(null));
        assertEquals(Set.of(), PatchSwitches.parse(" , "));
        assertEquals(List.of("P3", "S1"), List.copyOf(PatchSwitches.parse(" P3 ,S1,,P3")));
    }

    @Test
    void allTurnsEveryPatchOff() {
        assertEquals(PatchSwitches.IDS, List.copyOf(PatchSwitches.parse("all")));
        assertEquals(Set.copyOf(PatchSwitches.IDS), PatchSwitches.parse(" P3, all "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PatchSwitches.parse("ALL"));
        assertTrue(e.getMessage().contains("(or all)"), e.getMessage());
    }

    @Test
    void aPatchThatShipsOffRunsOnlyWhenEnabledAndDisablingWins() {
        assertEquals(List.of("P14", "P38"), PatchSwitches.OFF_BY_DEFAULT);
        assertEquals(Set.of("P14", "P38"), PatchSwitches.off(Set.of(), Set.of()));
        assertEquals(Set.of("P38"), PatchSwitches.off(Set.of(), Set.of("P14")));
        assertEquals(Set.of(), PatchSwitches.off(Set.of(), Set.of("P14", "P38")));
        assertEquals(Set.of("P3", "P14", "P38"), PatchSwitches.off(Set.of("P3"), Set.of()));
        assertEquals(Set.of("P14"), PatchSwitches.off(Set.of("P14"), Set.of("P14", "P38")));
        assertEquals(Set.of("P14", "P38"), PatchSwitches.off());
        assertEquals(Set.of(), PatchSwitches.enabled());
    }

    @Test
    void enableTakesOnlyThePatchesThatShipOff() {
        assertEquals(Set.of(), PatchSwitches.parseEnabled(null));
        assertEquals(Set.of(), PatchSwitches.parseEnabled(" , "));
        assertEquals(Set.of("P14"), PatchSwitches.parseEnabled(" P14 ,,P14"));
        for (String bad : new String[] {"P3", "all", "p14", "P99", "P14,S2"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PatchSwitches.parseEnabled(bad));
            assertTrue(e.getMessage().contains("-Drmqpatch.enable=" + bad) && e.getMessage().contains("only [P14, P38]"), e.getMessage());
        }
    }

    @Test
    void unknownIdsAreAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PatchSwitches.parse("P1,p2,P99"));
        assertTrue(e.getMessage().contains("[p2, P99]") && e.getMessage().contains("-Drmqpatch.disable=P1,p2,P99")
            && e.getMessage().contains("P1, P2"), e.getMessage());
    }

    @Test
    void startUpHookRejectsWhatTheSwitchesWouldReject() {
        String before = System.getProperty(PatchSwitches.SYSTEM_PROPERTY);
        System.setProperty(PatchSwitches.SYSTEM_PROPERTY, "S99");
        try {
            assertThrows(IllegalArgumentException.class, () -> StartupHooks.brokerStarting(new String[0]));
            assertThrows(IllegalArgumentException.class, () -> StartupHooks.namesrvStarting(new String[0]));
        } finally {
            if (before == null) {
                System.clearProperty(PatchSwitches.SYSTEM_PROPERTY);
            } else {
                System.setProperty(PatchSwitches.SYSTEM_PROPERTY, before);
            }
        }
        System.setProperty(PatchSwitches.ENABLE_PROPERTY, "P7");
        try {
            assertThrows(IllegalArgumentException.class, () -> StartupHooks.brokerStarting(new String[0]));
            assertThrows(IllegalArgumentException.class, () -> StartupHooks.namesrvStarting(new String[0]));
        } finally {
            System.clearProperty(PatchSwitches.ENABLE_PROPERTY);
        }
        assertEquals(null, StartupHooks.brokerStarting(new String[0]), "a good value lets stock start-up go on");
        assertEquals(false, StartupHooks.brokerStarted(null), "the stock start() always runs");
    }
}
