package dev.rmqpatch.codec.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.rocketmq.common.message.MessageConst;
import org.junit.jupiter.api.Test;

/**
 * P2's 4.9.3+ variant on its own: the format and parser as read in 4.9.3's sources, and the reused buffer. Equality
 * with each release's stock methods is Properties493DifferentialTest's (broker-patches: this module's class path holds
 * 4.9.0's jars only).
 */
class MessageProperties493Test {

    private static final char NV = 1;
    private static final char PS = 2;

    @Test
    void encodeLeavesOutTheLastSeparator() {
        assertEquals("", MessageProperties493.encode(null));
        assertEquals("", MessageProperties493.encode(new HashMap<>()));
        assertEquals("", MessageProperties493.encode(map("a", null)));
        assertEquals("k" + NV + "v", MessageProperties493.encode(map("k", "v")));
        assertEquals("a" + NV + "1" + PS + "c" + NV + "3", MessageProperties493.encode(map("a", "1", "b", null, "c", "3")));
        assertEquals(String.valueOf(NV), MessageProperties493.encode(map("", "")), "an empty name and value");
        Map<String, String> nullName = new LinkedHashMap<>();
        nullName.put(null, "v");
        assertEquals("null" + NV + "v", MessageProperties493.encode(nullName), "StringBuilder.append(null)");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aNameOrValueOfAnotherClassFailsAsStocksCast() {
        Map raw = new LinkedHashMap();
        raw.put("a", "b");
        raw.put(1, null);
        assertThrows(ClassCastException.class, () -> MessageProperties493.encode(raw), "the name is cast before the null check");
        Map value = new LinkedHashMap();
        value.put("a", 2);
        assertThrows(ClassCastException.class, () -> MessageProperties493.encode(value));
    }

    @Test
    void decodeSplitsEachSegmentAtItsFirstNameValueSeparator() {
        assertEquals(Map.of(), MessageProperties493.decode(null));
        assertEquals(HashMap.class, MessageProperties493.decode(null).getClass());
        assertEquals(Map.of(), MessageProperties493.decode(""));
        assertEquals(Map.of("k", "v"), MessageProperties493.decode("k" + NV + "v"));
        assertEquals(Map.of("k", "v"), MessageProperties493.decode("k" + NV + "v" + PS), "4.9.0's string too");
        assertEquals(Map.of("k", "v" + NV + "w" + NV), MessageProperties493.decode("k" + NV + "v" + NV + "w" + NV),
            "the value keeps further separators");
        assertEquals(Map.of("k", String.valueOf(NV)), MessageProperties493.decode("k" + NV + NV));
        assertEquals(Map.of(), MessageProperties493.decode(NV + "v"), "an empty name: skipped");
        assertEquals(Map.of(), MessageProperties493.decode(NV + "a" + NV + "v"), "skipped, not split at the next one");
        assertEquals(Map.of(), MessageProperties493.decode("k" + NV), "an empty value: skipped");
        assertEquals(Map.of("b", "2"), MessageProperties493.decode("a" + NV + PS + "b" + NV + "2"));
        assertEquals(Map.of("a", "3"), MessageProperties493.decode("a" + NV + "1" + PS + "a" + NV + "3"), "the last wins");
        assertEquals(Map.of("c", "d"), MessageProperties493.decode("ab" + PS + "c" + NV + "d"),
            "a segment without a separator: the next segment's is not its own");
        assertEquals(Map.of("x", "y"), MessageProperties493.decode(PS + "" + PS + "x" + NV + "y" + PS + PS));
    }

    @Test
    void theMapIsStocksDefaultHashMapFilledInOrder() {
        // 20 names: a default HashMap resizes from 16 to 32 buckets on the 13th; the order is that map's.
        StringBuilder s = new StringBuilder();
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            s.append("name").append(i * 7919).append(NV).append(i).append(PS);
            expected.put("name" + (i * 7919), String.valueOf(i));
        }
        Map<String, String> m = MessageProperties493.decode(s.toString());
        assertEquals(new ArrayList<>(expected.entrySet()), new ArrayList<>(m.entrySet()));
        m.put("mutable", "yes");
    }

    @Test
    void knownNamesAreTheConstants() {
        Map<String, String> m = MessageProperties493.decode(MessageConst.PROPERTY_TAGS + NV + "t");
        assertSame(MessageConst.PROPERTY_TAGS, m.keySet().iterator().next());
    }

    @Test
    void theReusedBufferGrowsAndIsNotKeptHuge() {
        Map<String, String> small = map("a", "1", "b", "\u4e2d");
        String first = MessageProperties493.encode(small);
        Map<String, String> huge = map("big", "x".repeat(3 * MessageProperties493.MAX_KEPT_BUFFER), "TAGS", "t");
        assertEquals("big" + NV + "x".repeat(3 * MessageProperties493.MAX_KEPT_BUFFER) + PS + "TAGS" + NV + "t",
            MessageProperties493.encode(huge));
        assertEquals(first, MessageProperties493.encode(small));
        assertEquals("a" + NV + "1" + PS + "b" + NV + "\u4e2d", first);
    }

    /** A map whose iteration encodes another map on the same thread gets its own buffer, not the one in use. */
    @Test
    void aNestedEncodeDoesNotShareTheBuffer() {
        Map<String, String> inner = map("x", "y");
        Map<String, String> outer = new AbstractMap<String, String>() {
            @Override
            public Set<Map.Entry<String, String>> entrySet() {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("a", "1");
                m.put("nested", MessageProperties493.encode(inner));
                return m.entrySet();
            }
        };
        assertEquals("a" + NV + "1" + PS + "nested" + NV + "x" + NV + "y", MessageProperties493.encode(outer));
    }

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (List<String> pair : pairs(kv)) {
            m.put(pair.get(0), pair.get(1));
        }
        return m;
    }

    private static List<List<String>> pairs(String... kv) {
        List<List<String>> pairs = new ArrayList<>();
        for (int i = 0; i < kv.length; i += 2) {
            pairs.add(Arrays.asList(kv[i], kv[i + 1]));
        }
        return pairs;
    }
}
