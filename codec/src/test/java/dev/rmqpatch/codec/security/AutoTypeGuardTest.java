package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONException;
import com.alibaba.fastjson.parser.ParserConfig;
import dev.rmqpatch.codec.Seeds;
import org.junit.jupiter.api.Test;

/** S5's two layers: the @type scan for headers P5's reader declines, and fastjson's safe mode. */
class AutoTypeGuardTest {

    @Test
    void everySpellingFastjsonDecodesIsFound() {
        String[] named = {
            "{\"remark\":{\"@type\":\"java.lang.Exception\"}}",
            "{\"extFields\":{\"a\":{\"\\u0040type\":\"x\"}}}",
            "{\"extFields\":{\"a\":{\"\\u0040\\u0074ype\":\"x\"}}}",
            "{\"extFields\":{\"a\":{\"\\x40type\":\"x\"}}}",
            "{'remark':{'@type':'x'}}",
            "{remark:{@type:\"x\"}}",
            "{\"remark\":{\"@\\type\":\"x\"}}",
            "{\"remark\":{\"@@type\":\"x\"}}",
        };
        for (String json : named) {
            assertTrue(AutoTypeGuard.mentionsAutoType(json.getBytes(StandardCharsets.UTF_8)), json);
            assertThrows(JSONException.class, () -> AutoTypeGuard.refuseAutoType(json.getBytes(StandardCharsets.UTF_8)));
        }
        String[] clean = {
            "{\"code\":10,\"opaque\":1,\"extFields\":{\"a\":\"b@example.com\",\"t\":\"type\"}}",
            "{\"remark\":\"@ type\"}",
            "{\"remark\":\"@typ\"}",
            "{\"remark\":\"\\u0040tipe\"}",
            "",
        };
        for (String json : clean) {
            assertFalse(AutoTypeGuard.mentionsAutoType(json.getBytes(StandardCharsets.UTF_8)), json);
            AutoTypeGuard.refuseAutoType(json.getBytes(StandardCharsets.UTF_8));
        }
        assertFalse(AutoTypeGuard.mentionsAutoType(null));
    }

    /** Random text with "@type" spliced in, plainly or escaped char by char: always found; without it, never. */
    @Test
    void randomTextWithAndWithoutTheKey() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder sb = new StringBuilder();
            for (int k = r.nextInt(30); k > 0; k--) {
                sb.append(randomChar(r));
            }
            // No '@', and no backslash that could escape the spliced key's own backslash.
            String without = sb.toString().replace("@", "").replace("\\", "");
            assertFalse(AutoTypeGuard.mentionsAutoType(without.getBytes(StandardCharsets.UTF_8)), Seeds.replay(seed, n));
            StringBuilder key = new StringBuilder();
            for (char c : "@type".toCharArray()) {
                switch (r.nextInt(3)) {
                    case 0:
                        key.append(c);
                        break;
                    case 1:
                        key.append(String.format(r.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
                        break;
                    default:
                        key.append(String.format("\\x%02x", (int) c));
                        break;
                }
            }
            int at = r.nextInt(without.length() + 1);
            String with = without.substring(0, at) + key + without.substring(at);
            assertTrue(AutoTypeGuard.mentionsAutoType(with.getBytes(StandardCharsets.UTF_8)), Seeds.replay(seed, n) + " " + with);
        }
    }

    @Test
    void safeModeRefusesEveryAtType() {
        ParserConfig config = ParserConfig.getGlobalInstance();
        boolean before = config.isSafeMode();
        try {
            assertEquals(false, AutoTypeGuard.enableSafeMode(), "the stock initialiser runs after the hook");
            assertTrue(AutoTypeGuard.safeModeOn());
            JSONException e = assertThrows(JSONException.class,
                () -> JSON.parseObject("{\"a\":{\"@type\":\"java.lang.Exception\",\"@type\":\"java.io.IOException\"}}"));
            assertTrue(e.getMessage().contains("safeMode"), e.getMessage());
            assertEquals("b", JSON.parseObject("{\"a\":\"b\"}").getString("a"), "plain JSON still parses");
        } finally {
            config.setSafeMode(before);
        }
    }

    private static char randomChar(Random r) {
        String alphabet = "{}[]\":,\\ abtypeux0123456789@";
        int k = r.nextInt(alphabet.length() + 2);
        return k < alphabet.length() ? alphabet.charAt(k) : (char) (0x80 + r.nextInt(0x700));
    }
}
