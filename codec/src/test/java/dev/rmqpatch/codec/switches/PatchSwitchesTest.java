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
            assertEquals(true, f.getBoolean(null), id + " is on: the test JVM sets no -Drmqpatch.disable");
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
        assertEquals(null, StartupHooks.brokerStarting(new String[0]), "a good value lets stock start-up go on");
        assertEquals(false, StartupHooks.brokerStarted(null), "the stock start() always runs");
    }
}
