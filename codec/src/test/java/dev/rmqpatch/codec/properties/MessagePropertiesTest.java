package dev.rmqpatch.codec.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/** The encoder's own contract, beyond equality with stock. */
class MessagePropertiesTest {

    @Test
    void separatorsAreStocks() {
        assertEquals(MessageDecoder.NAME_VALUE_SEPARATOR, MessageProperties.NAME_VALUE_SEPARATOR);
        assertEquals(MessageDecoder.PROPERTY_SEPARATOR, MessageProperties.PROPERTY_SEPARATOR);
    }

    @Test
    void encodeWritesStocksStringWithItsTrailingSeparator() {
        assertEquals("k\u0001v\u0002", MessageProperties.encode(map("k", "v")));
        assertEquals("a\u00011\u0002b\u00012\u0002c\u00013\u0002", MessageProperties.encode(map("a", "1", "b", "2", "c", "3")));
        assertEquals("a\u00011\u0002c\u00013\u0002", MessageProperties.encode(map("a", "1", "b", null, "c", "3")),
            "a skipped null value leaves no empty slot");
        assertEquals("a\u00011\u0002", MessageProperties.encode(map("a", "1", "b", null)),
            "a skipped last value leaves one trailing separator");
        assertEquals("b\u00012\u0002", MessageProperties.encode(map("a", null, "b", "2")),
            "a skipped first value leaves no leading separator");
        assertEquals("", MessageProperties.encode(map("a", null)), "only null values: empty, as stock");
    }

    @Test
    void storeEncodingWritesNoTrailingSeparator() {
        assertEquals("k\u0001v", MessageProperties.encodeForStore(map("k", "v")));
        assertEquals("a\u00011\u0002c\u00013", MessageProperties.encodeForStore(map("a", "1", "b", null, "c", "3")));
        assertEquals("a\u00011", MessageProperties.encodeForStore(map("a", "1", "b", null)),
            "a skipped last value leaves no trailing separator");
    }

    @Test
    void emptyInputsEncodeToEmptyString() {
        assertEquals("", MessageProperties.encode(null));
        assertEquals("", MessageProperties.encode(new HashMap<>()));
        assertEquals("", MessageProperties.encode(map("a", null, "b", null)));
        assertEquals("", MessageProperties.encodeForStore(null));
        assertEquals("", MessageProperties.encodeForStore(new HashMap<>()));
    }

    @Test
    void emptyValuesAreWrittenAsStockWritesThem() {
        // Stock writes "k\u0001" + separator and drops the pair on parse; the store encoding keeps the pair as well.
        assertEquals("k\u0001\u0002", MessageProperties.encode(map("k", "")));
        assertEquals("k\u0001", MessageProperties.encodeForStore(map("k", "")));
        assertEquals(Map.of(), MessageProperties.decode(MessageProperties.encode(map("k", ""))));
    }

    @Test
    void nullOrEmptyStringDecodesToEmptyMutableMap() {
        for (String s : new String[] {null, ""}) {
            Map<String, String> m = MessageProperties.decode(s);
            assertTrue(m.isEmpty());
            m.put("still", "mutable");
            assertEquals("mutable", m.get("still"));
        }
        Map<String, String> m = MessageProperties.decode("a\u0001b");
        m.put("c", "d");
        m.remove("a");
        assertEquals(Map.of("c", "d"), m, "the decoded map is mutable, as stock's HashMap is");
    }

    @Test
    void acceptsStrings490And491Style() {
        Map<String, String> expected = map("WAIT", "true", "KEYS", "k", "TAGS", "t");
        String withTrailing = "WAIT\u0001true\u0002KEYS\u0001k\u0002TAGS\u0001t\u0002";
        String without = "WAIT\u0001true\u0002KEYS\u0001k\u0002TAGS\u0001t";
        assertEquals(expected, MessageProperties.decode(withTrailing));
        assertEquals(expected, MessageProperties.decode(without));
        assertEquals(expected, MessageDecoder.string2messageProperties(without), "stock 4.9.0 reads our output too");
    }

    @Test
    void encodeForStoreDropsTransientKeysAndLeavesTheMapAlone() {
        Map<String, String> m = map(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, "true", "KEYS", "k", "TAGS", "t");
        for (String k : TransientProperties.keys()) {
            m.put(k, "transient " + k);
        }
        Map<String, String> before = new HashMap<>(m);

        String stored = MessageProperties.encodeForStore(m);

        assertEquals(before, m, "the broker still needs WAIT after the string is built");
        Map<String, String> expected = new HashMap<>(m);
        for (String k : TransientProperties.keys()) {
            expected.remove(k);
        }
        assertEquals(Map.of("KEYS", "k", "TAGS", "t"), expected, "fixture: only the two durable keys remain");
        assertEquals(expected, MessageDecoder.string2messageProperties(stored));
        assertFalse(stored.contains("WAIT"), stored);
        assertFalse(stored.endsWith("\u0002"), "no trailing separator after dropping keys either");
        assertFalse(stored.startsWith("\u0002"), "no leading separator after dropping keys either");
    }

    @Test
    void encodeForStoreOfOnlyTransientKeysIsEmpty() {
        Map<String, String> m = map(TransientProperties.WAIT, "true");
        assertEquals("", MessageProperties.encodeForStore(m));
        assertEquals("WAIT\u0001true\u0002", MessageProperties.encode(m), "plain encode keeps WAIT");
    }

    /**
     * The surefire configuration sets {@code rmqpatch.transientProperties}, so the configured-key path runs in
     * the build; without it (an IDE run) this still checks that WAIT alone is in force.
     */
    @Test
    void configuredKeysAreInForce() {
        String configured = System.getProperty(TransientProperties.SYSTEM_PROPERTY, "");
        Set<String> expected = new HashSet<>(Arrays.asList(TransientProperties.parse(configured)));
        assertEquals(expected, new HashSet<>(Arrays.asList(TransientProperties.keys())));
        for (String k : expected) {
            Map<String, String> m = map(k, "x", "durable", "y");
            assertEquals("durable\u0001y", MessageProperties.encodeForStore(m), k);
        }
    }

    @Test
    void theReusedEncodeBufferGrowsShrinksAndMixesCharsetsLikeFreshEncodes() {
        // One thread, in this order: small, past the initial buffer, past the kept maximum, non-Latin-1, small again.
        Map<String, String> small = map("TAGS", "t", "KEYS", "k");
        Map<String, String> medium = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            medium.put("key" + i, "value-" + i);
        }
        Map<String, String> huge = map("big", "x".repeat(3 * MessageProperties.MAX_KEPT_BUFFER), "TAGS", "t");
        Map<String, String> chinese = map("TAGS", "\u8ba2\u5355\u521b\u5efa", "KEYS", "\u5ba2\u6237-42", "WAIT", "true");
        for (Map<String, String> m : List.of(small, medium, huge, chinese, small, medium, chinese)) {
            String stock = MessageDecoder.messageProperties2String(m);
            assertEquals(stock, MessageProperties.encode(m));
            String stockWithoutWait = MessageDecoder.messageProperties2String(withoutWait(m));
            assertEquals(stockWithoutWait.substring(0, stockWithoutWait.length() - 1), MessageProperties.encodeForStore(m));
            Map<String, String> stored = new HashMap<>(m);
            stored.remove("WAIT");
            assertEquals(stored, MessageDecoder.string2messageProperties(MessageProperties.encodeForStore(m)));
        }
    }

    @Test
    void segmentsPastThePresizeCapAreStillParsedAsStockDoes() {
        // The decoder keeps the first MAX_PRESIZE separator positions and searches for the rest as it goes:
        // inputs around that boundary, with and without a trailing separator, must all parse like stock.
        int cap = MessageProperties.MAX_PRESIZE;
        for (int pairs : new int[] {cap - 1, cap, cap + 1, cap + 2, 3 * cap + 5}) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < pairs; i++) {
                sb.append(i % 7 == 0 ? MessageConst.PROPERTY_KEYS + i : "k" + i).append('\u0001').append("v").append(i);
                if (i < pairs - 1) {
                    sb.append('\u0002');
                }
            }
            for (String s : new String[] {sb.toString(), sb + "\u0002", sb + "\u0002\u0002", "\u0002" + sb}) {
                Map<String, String> decoded = MessageProperties.decode(s);
                assertEquals(MessageDecoder.string2messageProperties(s), decoded, pairs + " pairs");
                assertEquals(pairs, decoded.size());
            }
        }
        String crafted = "\u0002".repeat(1_000_000) + "k\u0001v";
        assertEquals(Map.of("k", "v"), MessageProperties.decode(crafted));
        assertEquals(Map.of("k", "v"), MessageProperties.decode("k\u0001v" + "\u0002".repeat(1_000_000)));
    }

    @Test
    void knownNamesAreTheConstantsAndOtherNamesAreCopies() {
        Map<String, String> decoded = MessageProperties.decode("WAIT\u0001true\u0002WAITS\u0001x\u0002TAG\u0001y\u0002"
            + "UNIQ_KEY\u0001u\u0002\u0001e\u0002KEYS\u0001k");
        assertEquals(Map.of("WAIT", "true", "WAITS", "x", "TAG", "y", "UNIQ_KEY", "u", "", "e", "KEYS", "k"), decoded);
        for (String key : decoded.keySet()) {
            boolean known = MessageConst.STRING_HASH_SET.contains(key);
            boolean constant = key == MessageConst.PROPERTY_WAIT_STORE_MSG_OK || key == MessageConst.PROPERTY_KEYS
                || key == MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX;
            assertEquals(known, constant, "'" + key + "' is the shared constant exactly when it is a RocketMQ name");
        }
        // Every RocketMQ name the 4.9.0 client knows decodes to an equal key, whatever the table holds.
        for (String name : MessageConst.STRING_HASH_SET) {
            assertEquals(Map.of(name, "v"), MessageProperties.decode(name + "\u0001v"));
            assertEquals(name, KnownKeys.name("x" + name + "y", 1, name.length() + 1));
        }
    }

    private static Map<String, String> withoutWait(Map<String, String> m) {
        Map<String, String> copy = new LinkedHashMap<>(m);
        copy.remove("WAIT");
        return copy;
    }

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
