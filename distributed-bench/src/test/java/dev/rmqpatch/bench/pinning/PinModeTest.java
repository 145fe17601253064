package dev.rmqpatch.bench.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** --pin: the named values keep their meaning, lists name placements in any order, and anything else is a clear error. */
class PinModeTest {

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> PinMode.parse(text)).getMessage();
    }

    @Test
    void namedValuesKeepTheirMeaning() {
        assertSame(PinMode.BOTH, PinMode.parse("both"));
        assertEquals(List.of(Placement.PINNED, Placement.UNPINNED), PinMode.BOTH.placements());
        assertEquals(List.of(Placement.PINNED, Placement.SPLIT, Placement.UNPINNED), PinMode.parse("all").placements());
        assertEquals(List.of(Placement.PINNED), PinMode.parse("on").placements());
        assertEquals(List.of(Placement.UNPINNED), PinMode.parse(" off ").placements());
        assertTrue(PinMode.OFF.neverPins());
        assertFalse(PinMode.SPLIT.neverPins());
        assertEquals(List.of(Placement.SPLIT), PinMode.parse("split").placements());
        assertTrue(PinMode.parse("auto").auto());
        assertFalse(PinMode.BOTH.auto());
    }

    @Test
    void listsNamePlacementsInAnyOrderAndAreTheNamedValueWhenThereIsOne() {
        PinMode m = PinMode.parse("off,split");
        assertEquals(List.of(Placement.SPLIT, Placement.UNPINNED), m.placements(), "table order, whatever the order given");
        assertEquals("split,off", m.label());
        assertEquals(m, PinMode.parse("split, off"));
        assertSame(PinMode.BOTH, PinMode.parse("off,on"));
        assertSame(PinMode.ALL, PinMode.parse("split,off,on"));
        assertEquals("on,split", PinMode.parse("on,split").label());
        assertEquals("split,off", String.valueOf(m), "the help and the run's description show the label");
    }

    @Test
    void wrongValuesSayWhatIsAllowed() {
        assertEquals("--pin must be both, all, auto, on, off, split or a comma list of on, off and split (e.g. split,off), not 'always'",
            error("always"));
        assertEquals("--pin must be both, all, auto, on, off, split or a comma list of on, off and split (e.g. split,off), not ''", error(""));
        assertEquals("--pin: a list names placements (on, off, split), not 'auto' in 'auto,on'; both, all and auto stand alone",
            error("auto,on"));
        assertEquals("--pin: a list names placements (on, off, split), not '' in 'on,'; both, all and auto stand alone", error("on,"));
        assertEquals("--pin names on twice in 'on,split,on'", error("on,split,on"));
    }
}
