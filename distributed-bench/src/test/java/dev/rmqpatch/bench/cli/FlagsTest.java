package dev.rmqpatch.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FlagsTest {
    private static final Set<String> VALUED = Set.of("--threads", "--agent", "--rate");
    private static final Set<String> BOOLEANS = Set.of("--sink");

    @Test
    void parsesBothFormsRepeatsAndSwitches() throws Exception {
        Flags f = Flags.parse(new String[] {"--threads", "8", "--agent=h1:1", "--agent", "h2:2", "--sink", "--rate=2.5"}, VALUED, BOOLEANS);
        assertEquals(8, f.intValue("--threads", 1, 1));
        assertEquals(List.of("h1:1", "h2:2"), f.all("--agent"));
        assertTrue(f.has("--sink"));
        assertEquals(2.5, f.doubleValue("--rate", 0, 0));
        assertFalse(Flags.parse(new String[0], VALUED, BOOLEANS).has("--sink"));
    }

    @Test
    void unknownAndMalformedOptionsAreErrors() {
        UsageException unknown = assertThrows(UsageException.class, () -> Flags.parse(new String[] {"--thread", "8"}, VALUED, BOOLEANS));
        assertTrue(unknown.getMessage().contains("--thread"));
        assertThrows(UsageException.class, () -> Flags.parse(new String[] {"--threads"}, VALUED, BOOLEANS));
        assertThrows(UsageException.class, () -> Flags.parse(new String[] {"stray"}, VALUED, BOOLEANS));
        assertThrows(UsageException.class, () -> Flags.parse(new String[] {"--sink=yes"}, VALUED, BOOLEANS));
        assertThrows(UsageException.class, () -> Flags.parse(new String[] {"--threads", "x"}, VALUED, BOOLEANS).intValue("--threads", 1, 1));
        assertThrows(UsageException.class, () -> Flags.parse(new String[] {"--threads", "0"}, VALUED, BOOLEANS).intValue("--threads", 1, 1));
        assertThrows(UsageException.class, () -> Flags.parse(new String[] {"--rate", "-1"}, VALUED, BOOLEANS).doubleValue("--rate", 0, 0));
    }
}
