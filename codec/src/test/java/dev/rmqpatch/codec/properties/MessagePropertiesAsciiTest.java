package dev.rmqpatch.codec.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.message.MessageConst;
import org.junit.jupiter.api.Test;

/**
 * {@link MessageProperties#decodeAscii} against {@link MessageProperties#decode} of the same bytes as a String (P28
 * parses a pulled message's ASCII properties from its bytes): the same entries in the same iteration order (same
 * insertions into a map of the same capacity), the known names as their constants; null for any byte above 0x7f.
 */
class MessagePropertiesAsciiTest {

    private static final int CASES = 20_000;
    private static final char[] UNITS = {'\u0001', '\u0001', '\u0002', '\u0002', 'a', 'b', 'K', '=', ' ', '\u0000', '\u007f'};
    private static final String[] NAMES = {MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, MessageConst.PROPERTY_TAGS,
        MessageConst.PROPERTY_KEYS, MessageConst.PROPERTY_WAIT_STORE_MSG_OK, MessageConst.PROPERTY_CLUSTER, "traceId", "a"};

    @Test
    void randomAsciiParsesAsTheStringDoesInTheSameOrder() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            String s = r.nextBoolean() ? garbage(r, r.nextInt(10) == 0 ? 2000 : 60) : real(r);
            check(s, r, Seeds.replay(seed, i));
        }
    }

    @Test
    void namedStrings() {
        String many = (MessageConst.PROPERTY_TAGS + "\u0001x\u0002").repeat(300) + "k\u0001v";
        for (String s : new String[] {"", "\u0001", "\u0002", "a\u0001b", "a\u0001b\u0002", "\u0001b\u0002", "a\u0001\u0002",
            "a\u0001b\u0001", "a\u0001b\u0001\u0001\u0002c\u0001d", "a\u0001\u0001b", many, many + "\u0002"}) {
            check(s, new Random(1), "named " + s.length());
        }
    }

    @Test
    void knownNamesAreTheConstantsAndNonAsciiIsLeftToTheString() {
        byte[] b = (MessageConst.PROPERTY_TAGS + "\u0001t\u0002other\u0001o").getBytes(StandardCharsets.UTF_8);
        Map<String, String> m = MessageProperties.decodeAscii(b, 0, b.length);
        String tags = m.keySet().stream().filter(k -> k.equals(MessageConst.PROPERTY_TAGS)).findFirst().orElseThrow();
        assertSame(MessageConst.PROPERTY_TAGS, tags);
        byte[] nonAscii = "k\u0001Z\u00fcrich".getBytes(StandardCharsets.UTF_8);
        assertNull(MessageProperties.decodeAscii(nonAscii, 0, nonAscii.length));
        assertEquals(Map.of("k", "Z"), MessageProperties.decodeAscii(nonAscii, 0, 3));
    }

    /** The bytes of {@code s} inside a larger array (junk around them), both ways. */
    private static void check(String s, Random r, String where) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        int off = r.nextInt(5);
        byte[] padded = new byte[off + bytes.length + r.nextInt(5)];
        for (int i = 0; i < padded.length; i++) {
            padded[i] = (byte) (r.nextBoolean() ? 1 : 2);
        }
        System.arraycopy(bytes, 0, padded, off, bytes.length);
        Map<String, String> want = MessageProperties.decode(s);
        Map<String, String> got = MessageProperties.decodeAscii(padded, off, bytes.length);
        assertEquals(entries(want), entries(got), where + ": " + s.replace('\u0001', '=').replace('\u0002', ';'));
    }

    private static List<String> entries(Map<String, String> m) {
        List<String> out = new ArrayList<>();
        m.forEach((k, v) -> out.add(k + "=" + v));
        return out;
    }

    private static String garbage(Random r, int max) {
        StringBuilder sb = new StringBuilder();
        for (int n = r.nextInt(max + 1); n > 0; n--) {
            sb.append(UNITS[r.nextInt(UNITS.length)]);
        }
        return sb.toString();
    }

    /** What a producer and broker write: names, values, a trailing separator or not, now and then an empty value. */
    private static String real(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int n = r.nextInt(r.nextInt(20) == 0 ? 300 : 12); n > 0; n--) {
            sb.append(r.nextInt(4) == 0 ? garbage(r, 5) : NAMES[r.nextInt(NAMES.length)]).append('\u0001');
            sb.append(r.nextInt(8) == 0 ? "" : Long.toHexString(r.nextLong())).append('\u0002');
        }
        if (sb.length() > 0 && r.nextBoolean()) {
            sb.setLength(sb.length() - 1);
        }
        return sb.toString();
    }
}
