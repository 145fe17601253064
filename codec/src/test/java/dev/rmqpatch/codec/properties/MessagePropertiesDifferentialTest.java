package dev.rmqpatch.codec.properties;

import static dev.rmqpatch.codec.RandomText.NV;
import static dev.rmqpatch.codec.RandomText.PS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.rmqpatch.codec.Brief;
import dev.rmqpatch.codec.RandomText;
import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/**
 * {@link MessageProperties} against stock 4.9.0 {@code MessageDecoder.messageProperties2String} /
 * {@code string2messageProperties}: encode gives stock's very string.
 */
class MessagePropertiesDifferentialTest {

    private static final int CASES = 20_000;

    /** Keys a real producer sets, so random maps also look like real traffic. */
    private static final String[] REAL_KEYS = {
        MessageConst.PROPERTY_WAIT_STORE_MSG_OK, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX,
        MessageConst.PROPERTY_KEYS, MessageConst.PROPERTY_TAGS, MessageConst.PROPERTY_CLUSTER,
        MessageConst.PROPERTY_DELAY_TIME_LEVEL, MessageConst.PROPERTY_TRANSACTION_PREPARED,
    };

    @Test
    void randomMapsRoundTripInBothDirections() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            String where = Seeds.replay(seed, i);
            checkMap(randomMap(r), where);
        }
    }

    @Test
    void namedMapsRoundTripInBothDirections() {
        List<Map<String, String>> maps = new ArrayList<>();
        maps.add(new HashMap<>());
        maps.add(map("WAIT", "true"));
        maps.add(map("", "value of the empty key"));
        maps.add(map("k", ""));
        maps.add(map("k", null));
        maps.add(map("a", null, "b", "", "c", "3"));
        maps.add(map("\ud83d\ude00", "\ud83d\ude80\u4e2d\u6587", "\u00e9", "\u00df"));
        maps.add(map("lone", "\ud800", "\udfff", "x"));
        maps.add(map("nul", "\u0000", "\u0000", "nul"));
        maps.add(map("k", "=;,:\t \r\n"));
        Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "stock writes the null key as the text null");
        nullKey.put("x", "y");
        maps.add(nullKey);
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            many.put("KEY_" + i, "value_" + i);
        }
        maps.add(many);
        for (int i = 0; i < maps.size(); i++) {
            Map<String, String> m = maps.get(i);
            checkMap(m, "named map #" + i + " " + Brief.of(m));
        }
    }

    @Test
    void megabyteValuesRoundTrip() {
        String big = "v".repeat(1 << 20);
        String bigWide = "\u4e2d\ud83d\ude00".repeat(1 << 18);
        checkMap(map("BIG", big, "WIDE", bigWide, "small", "1"), "1 MB values");
        checkMap(map("k".repeat(1 << 20), "v"), "1 MB key");
    }

    /** Garbage strings: decode must agree with stock exactly, pair for pair, on every input. */
    @Test
    void separatorHeavyGarbageDecodesLikeStock() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            String s = RandomText.separatorHeavy(r, 48);
            checkDecode(s, Seeds.replay(seed, i));
        }
    }

    /** Every string of up to 9 chars over {NV, PS, 'a'}: covers each separator arrangement exhaustively. */
    @Test
    void everyShortSeparatorArrangementDecodesLikeStock() {
        char[] alphabet = {NV, PS, 'a'};
        int checked = 0;
        for (int len = 0; len <= 9; len++) {
            int combos = (int) Math.pow(alphabet.length, len);
            char[] chars = new char[len];
            for (int c = 0; c < combos; c++) {
                int x = c;
                for (int p = 0; p < len; p++) {
                    chars[p] = alphabet[x % alphabet.length];
                    x /= alphabet.length;
                }
                checkDecode(new String(chars), "exhaustive length " + len + " #" + c);
                checked++;
            }
        }
        assertEquals(29_524, checked);
    }

    @Test
    void namedGarbageDecodesLikeStock() {
        String[] inputs = {
            "", "\u0001", "\u0002", "\u0001\u0002", "\u0002\u0001", "\u0001\u0001", "\u0002\u0002",
            "k", "k\u0001", "\u0001v", "k\u0001v", "k\u0001v\u0002", "k\u0001v\u0002\u0002\u0002",
            "\u0002k\u0001v", "\u0002\u0002k\u0001v\u0002", "k\u0001v\u0001", "k\u0001v\u0001\u0001\u0001",
            "k\u0001\u0001v", "k\u0001v\u0001x", "k\u0001v\u0001\u0001x", "\u0001\u0001v",
            "a\u0001b\u0002a\u0001c", "a\u0001b\u0002a\u0001", "a\u0001b\u0002\u0001\u0002c\u0001d",
            "k\u0001\ud83d\ude00\u0002\ud83d\u0001\ude00", "\ud800\u0001\udfff\u0002",
            "WAIT\u0001true\u0002KEYS\u0001k1 k2\u0002TAGS\u0001t\u0002UNIQ_KEY\u0001C0A80001000018B4AAC2",
        };
        for (String s : inputs) {
            checkDecode(s, "named input " + Brief.of(s));
        }
    }

    @Test
    void megabyteGarbageDecodesLikeStock() {
        StringBuilder manySegments = new StringBuilder();
        while (manySegments.length() < (1 << 20)) {
            manySegments.append("a").append(PS);
        }
        // A single name-value separator at the very end: a parser that searches for it from every segment start
        // scans the whole remainder each time (quadratic); this input makes such a parser visibly hang.
        checkDecode(manySegments + "k" + NV + "v", "1 MB of segments without a name-value separator");
        checkDecode(String.valueOf(NV).repeat(1 << 20), "1 MB of name-value separators");
        checkDecode("k" + NV + "v" + String.valueOf(NV).repeat(1 << 20), "value followed by 1 MB of separators");
        checkDecode(String.valueOf(PS).repeat(1 << 20), "1 MB of property separators");
        StringBuilder pairs = new StringBuilder();
        for (int i = 0; pairs.length() < (1 << 20); i++) {
            pairs.append("key").append(i).append(NV).append("value").append(i).append(PS);
        }
        checkDecode(pairs.toString(), "1 MB of distinct pairs");
    }

    private static void checkMap(Map<String, String> m, String where) {
        Map<String, String> before = new HashMap<>(m);
        String ours = MessageProperties.encode(m);
        String stock = MessageDecoder.messageProperties2String(m);
        Brief.assertEqual(stock, ours, () -> where + ": ours must be stock's string, byte for byte");
        Map<String, String> expected = expectedAfterRoundTrip(m);
        Brief.assertEqual(expected, MessageDecoder.string2messageProperties(ours), () -> where + ": ours-encode -> stock-decode");
        Brief.assertEqual(expected, MessageProperties.decode(stock), () -> where + ": stock-encode -> ours-decode");
        Brief.assertEqual(expected, MessageProperties.decode(ours), () -> where + ": ours-encode -> ours-decode");
        Brief.assertEqual(before, m, () -> where + ": encode must not touch the map");
    }

    private static void checkDecode(String s, String where) {
        Map<String, String> stock = MessageDecoder.string2messageProperties(s);
        Map<String, String> ours = MessageProperties.decode(s);
        Brief.assertEqual(stock, ours, () -> where + ": decode of " + Brief.of(s));
    }

    /** What survives stock's split-based parser: null values are never written, empty values vanish on parse. */
    private static Map<String, String> expectedAfterRoundTrip(Map<String, String> m) {
        Map<String, String> out = new HashMap<>();
        m.forEach((k, v) -> {
            if (v != null && !v.isEmpty()) {
                out.put(String.valueOf(k), v);
            }
        });
        return out;
    }

    private static Map<String, String> randomMap(Random r) {
        int n = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(12);
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String key = r.nextInt(4) == 0 ? REAL_KEYS[r.nextInt(REAL_KEYS.length)] : RandomText.text(r, 10);
            int v = r.nextInt(10);
            String value = v == 0 ? null : v == 1 ? "" : RandomText.text(r, 40);
            m.put(key, value);
        }
        return m;
    }

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
