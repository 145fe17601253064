package dev.rmqpatch.codec.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * P27 against stock 4.9.0's {@code MessageClientIDSetter.createUniqID}: stock's private statics are set by reflection
 * (counter, start time, next start time), stock makes a key, and the codec makes one from the same state, with the
 * counter put back to the value stock started from. Stock reads the clock itself, so each case is bracketed by two
 * clock readings and the codec's key must equal stock's for one of the milliseconds in between (almost always one).
 * Counters and times are random plus every boundary of the int and short truncations; the month's roll-over is
 * stock's own code in the patched class, so here the codec must decline it without drawing a counter value.
 */
class UniqueKeysTest {

    private static Field fixField;
    private static Field counterField;
    private static Field startField;
    private static Field nextField;
    private static long savedStart;
    private static long savedNext;
    private static int savedCounter;

    @BeforeAll
    static void open() throws Exception {
        MessageClientIDSetter.createUniqID(); // initialises the class: its statics are set
        fixField = field("FIX_STRING");
        counterField = field("COUNTER");
        startField = field("startTime");
        nextField = field("nextStartTime");
        savedStart = startField.getLong(null);
        savedNext = nextField.getLong(null);
        savedCounter = counter().get();
    }

    @AfterAll
    static void restore() throws Exception {
        startField.setLong(null, savedStart);
        nextField.setLong(null, savedNext);
        counter().set(savedCounter);
    }

    private static Field field(String name) throws NoSuchFieldException {
        Field f = MessageClientIDSetter.class.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    private static AtomicInteger counter() throws IllegalAccessException {
        return (AtomicInteger) counterField.get(null);
    }

    private static String fix() throws IllegalAccessException {
        return (String) fixField.get(null);
    }

    /** Stock's key for the state (counter, now - sinceStart as start time); the codec's for the same; compared. */
    private static void compare(int count, long sinceStart, String what) throws Exception {
        AtomicInteger counter = counter();
        String stock = null;
        long t0 = 0;
        long t1 = 0;
        long start = 0;
        for (int attempt = 0; attempt < 5; attempt++) {
            t0 = System.currentTimeMillis();
            start = t0 - sinceStart;
            startField.setLong(null, start);
            nextField.setLong(null, Long.MAX_VALUE);
            counter.set(count);
            stock = MessageClientIDSetter.createUniqID();
            t1 = System.currentTimeMillis();
            if (t1 - t0 <= 1) {
                break;
            }
        }
        assertEquals(count + 1, counter.get(), "stock draws one counter value: " + what);
        assertEquals(startField.getLong(null), start, "no roll-over: " + what);
        List<String> candidates = new ArrayList<>();
        for (long now = t0; now <= t1; now++) {
            counter.set(count);
            String patched = UniqueKeys.createUniqID(fix(), counter, start, Long.MAX_VALUE, now);
            assertEquals(count + 1, counter.get(), "the codec draws one counter value: " + what);
            if (stock.equals(patched)) {
                return;
            }
            candidates.add(patched);
        }
        throw new AssertionError(what + ": stock " + stock + ", codec " + candidates + " (clock " + t0 + ".." + t1 + ")");
    }

    @Test
    void sameKeyAsStockAtEveryBoundary() throws Exception {
        int[] counts = {0, 1, 15, 16, 255, 256, 4095, 4096, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x12345, -1, -2,
            Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1};
        long[] spans = {0, 1, 15, 16, 0xFFFF, 0x10000, 31L * 24 * 3600 * 1000, 0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL,
            0x100000000L, 0x100000001L, -1, -0x80000000L, -0x80000001L, Long.MAX_VALUE / 4, -(Long.MAX_VALUE / 4)};
        for (int c : counts) {
            for (long s : spans) {
                compare(c, s, "counter " + c + ", " + s + " ms since start");
            }
        }
    }

    @Test
    void sameKeyAsStockForRandomState() throws Exception {
        long seed = Seeds.seed();
        Random rnd = new Random(seed);
        for (int i = 0; i < 3000; i++) {
            int c = rnd.nextInt();
            long s;
            switch (i % 3) {
                case 0:
                    s = (long) (rnd.nextDouble() * 31L * 24 * 3600 * 1000); // within a month: what stock meets
                    break;
                case 1:
                    s = rnd.nextLong() >> rnd.nextInt(64);
                    break;
                default:
                    s = rnd.nextInt();
                    break;
            }
            compare(c, s, Seeds.replay(seed, i) + ": counter " + c + ", " + s + " ms since start");
        }
    }

    @Test
    void successiveKeysCountUpAndWrapAsStocksDo() throws Exception {
        AtomicInteger counter = counter();
        counter.set(0xFFFE);
        long now = System.currentTimeMillis();
        String fix = fix();
        String a = UniqueKeys.createUniqID(fix, counter, now - 5, Long.MAX_VALUE, now);
        String b = UniqueKeys.createUniqID(fix, counter, now - 5, Long.MAX_VALUE, now);
        String c = UniqueKeys.createUniqID(fix, counter, now - 5, Long.MAX_VALUE, now);
        assertEquals(fix + "00000005FFFE", a);
        assertEquals(fix + "00000005FFFF", b);
        assertEquals(fix + "000000050000", c, "the short wraps");
        assertTrue(fix.length() == 20 || fix.length() == 44, "an IPv4 or IPv6 prefix: " + fix);
    }

    @Test
    void declinesTheMonthsRollOverWithoutDrawingACounterValue() throws Exception {
        AtomicInteger counter = new AtomicInteger(41);
        long next = 1_700_000_000_000L;
        assertNull(UniqueKeys.createUniqID("AB", counter, next - 10, next, next));
        assertNull(UniqueKeys.createUniqID("AB", counter, next - 10, next, next + 1));
        assertNull(UniqueKeys.createUniqID("AB", counter, next - 10, next, Long.MAX_VALUE));
        assertEquals(41, counter.get(), "stock's body draws it when it rolls over");
        String last = UniqueKeys.createUniqID("AB", counter, next - 10, next, next - 1);
        assertNotNull(last);
        assertEquals("AB000000090029", last);
        assertEquals(42, counter.get());
    }

    @Test
    void anyPrefixLengthAsForAnIpv6Address() throws Exception {
        String ipv6Fix = "20010DB8000000000000000000000001" + "1F90" + "0A0B0C0D";
        assertEquals(44, ipv6Fix.length());
        AtomicInteger counter = new AtomicInteger(0x1234);
        String key = UniqueKeys.createUniqID(ipv6Fix, counter, 0, Long.MAX_VALUE, 0xCAFEBABEL);
        assertEquals(ipv6Fix + "CAFEBABE1234", key);
        // Stock reads its own prefix back from such a key the same way (28 bytes: a 16-byte address).
        assertEquals(28, org.apache.rocketmq.common.UtilAll.string2bytes(key).length);
        assertTrue(MessageClientIDSetter.getIPStrFromID(key).startsWith("2001:0db8:"), MessageClientIDSetter.getIPStrFromID(key));
    }
}
