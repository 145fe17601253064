package dev.rmqpatch.bench.agent.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.junit.jupiter.api.Test;

/** UNIQ_KEY as the 4.9.0 client writes it: its fixed prefix, the time since the month's start, a 16-bit counter. */
class UniqueKeysTest {

    @Test
    void hexDigitsAreTheClientsUppercaseHex() {
        for (int v : new int[] {0, 1, 0xF, 0xABCDEF, 0x7FFFFFFF, -1, 0x12345678, 0xFFFF}) {
            long packed = UniqueKeys.hex8(v);
            StringBuilder s = new StringBuilder();
            for (int shift = 56; shift >= 0; shift -= 8) {
                s.append((char) ((packed >>> shift) & 0xFF));
            }
            assertEquals(String.format(Locale.ROOT, "%08X", v), s.toString());
        }
    }

    @Test
    void keysCarryTheBornTimeAndACounterAfterTheStockPrefix() {
        UniqueKeys keys = new UniqueKeys();
        String stock = MessageClientIDSetter.createUniqID();
        long now = System.currentTimeMillis() - 5_000;
        String first = keys.next(now);
        String second = keys.next(now);
        assertEquals(stock.length(), first.length());
        assertEquals(stock.substring(0, stock.length() - 12), first.substring(0, first.length() - 12), "the client's fixed prefix");
        assertTrue(first.matches("[0-9A-F]+"), first);
        // Stock's own reader of the time part gives the born time back.
        assertEquals(now, MessageClientIDSetter.getNearlyTimeFromID(first).getTime());
        int c1 = Integer.parseInt(first.substring(first.length() - 4), 16);
        int c2 = Integer.parseInt(second.substring(second.length() - 4), 16);
        assertEquals((c1 + 1) & 0xFFFF, c2, "the counter counts");
    }
}
