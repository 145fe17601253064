package dev.rmqpatch.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FlagSetTest {
    private static final Flag<Integer> THREADS = Flag.whole("--threads", "N", 1, "sending threads").defaultingTo(32);
    private static final Flag<String> AGENT = Flag.text("--agent", "HOST:PORT", "a running agent").repeatable();
    private static final Flag<Double> RATE = Flag.number("--rate", "MSG_PER_S", 0, "total rate");
    private static final Flag<Boolean> SINK = Flag.toggle("--sink", "the no-op endpoint");
    private static final FlagSet SET = new FlagSet("Usage: x [options]", "Does x.").section("Options:", THREADS, AGENT, RATE, SINK);

    @Test
    void parsesBothFormsRepeatsSwitchesAndDefaults() throws Exception {
        Args a = SET.parse(new String[] {"--threads", "8", "--agent=h1:1", "--agent", "h2:2", "--sink", "--rate=2.5"});
        assertEquals(8, a.get(THREADS));
        assertEquals(List.of("h1:1", "h2:2"), a.all(AGENT));
        assertTrue(a.get(SINK));
        assertEquals(2.5, a.get(RATE));
        Args none = SET.parse(new String[0]);
        assertFalse(none.has(SINK));
        assertFalse(none.get(SINK));
        assertEquals(32, none.get(THREADS), "the declared default");
        assertNull(none.get(RATE));
        assertEquals(4, SET.parse(new String[0]).get(THREADS.defaultingTo(4)), "a command's own default, same declaration");
    }

    @Test
    void unknownAndMalformedOptionsAreErrorsNamingTheFlag() {
        assertEquals("unknown option '--thread'", assertThrows(UsageException.class, () -> SET.parse(new String[] {"--thread", "8"})).getMessage());
        assertEquals("--threads needs a value", assertThrows(UsageException.class, () -> SET.parse(new String[] {"--threads"})).getMessage());
        assertThrows(UsageException.class, () -> SET.parse(new String[] {"stray"}));
        assertEquals("--sink takes no value", assertThrows(UsageException.class, () -> SET.parse(new String[] {"--sink=yes"})).getMessage());
        assertEquals("--threads needs a whole number, not 'x'",
            assertThrows(UsageException.class, () -> SET.parse(new String[] {"--threads", "x"})).getMessage());
        assertEquals("--threads must be at least 1, not 0", assertThrows(UsageException.class, () -> SET.parse(new String[] {"--threads", "0"})).getMessage());
        assertThrows(UsageException.class, () -> SET.parse(new String[] {"--rate", "-1"}));
        assertThrows(UsageException.class, () -> SET.parse(new String[] {"--rate", "Infinity"}));
    }

    @Test
    void helpListsEveryFlagWithItsDefaultAndADuplicateIsRefused() {
        String help = SET.help();
        assertTrue(help.startsWith("Usage: x [options]\n\nDoes x.\n\nOptions:\n"), help);
        for (Flag<?> f : SET.all()) {
            assertTrue(help.contains("  " + f.name()), f.name() + " in\n" + help);
        }
        assertTrue(help.contains("sending threads (default 32)"), help);
        assertFalse(help.contains("the no-op endpoint (default"), "a switch shows no default");
        assertThrows(IllegalStateException.class, () -> new FlagSet("u", "").section("A", THREADS).section("B", THREADS.defaultingTo(1)));
    }
}
