package dev.rmqpatch.codec.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Random;
import java.util.regex.Pattern;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.client.Validators;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.junit.jupiter.api.Test;

/**
 * P34: {@link ValidNames#regularExpressionMatcher} answers as stock's {@code regularExpressionMatcher} does, with the
 * stock classes' own patterns (the client's public one, the broker's private one) and with any other pattern.
 */
class ValidNamesTest {

    /** Stock's private {@code TopicValidator.regularExpressionMatcher} and its pattern, the broker's side. */
    private static boolean brokerStock(String origin) throws Exception {
        Method m = TopicValidator.class.getDeclaredMethod("regularExpressionMatcher", String.class, Pattern.class);
        m.setAccessible(true);
        return (Boolean) m.invoke(null, origin, brokerPattern());
    }

    private static Pattern brokerPattern() throws Exception {
        Field f = TopicValidator.class.getDeclaredField("PATTERN");
        f.setAccessible(true);
        return (Pattern) f.get(null);
    }

    @Test
    void everySingleCharAsStock() throws Exception {
        Pattern broker = brokerPattern();
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String s = String.valueOf((char) c);
            boolean stock = Validators.regularExpressionMatcher(s, Validators.PATTERN);
            assertEquals(stock, ValidNames.regularExpressionMatcher(s, Validators.PATTERN), "char " + c);
            assertEquals(stock, ValidNames.regularExpressionMatcher(s, broker), "char " + c);
        }
    }

    @Test
    void randomNamesAsStock() throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        Pattern broker = brokerPattern();
        // Line terminators, which '$' can match before, surrogates and a few non-ASCII letters among ASCII.
        String odd = "\n\r\u0085\u2028\u2029\u00e9\u4e00\ud83d\ude00\u0000\u007f";
        for (int n = 0; n < 50_000; n++) {
            int len = r.nextInt(8) == 0 ? 120 + r.nextInt(20) : r.nextInt(16);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < len; i++) {
                int k = r.nextInt(10);
                sb.append(k < 7 ? "aZ09%|_-".charAt(r.nextInt(8)) : k < 9 ? (char) r.nextInt(128)
                    : odd.charAt(r.nextInt(odd.length())));
            }
            String s = sb.toString();
            String at = Seeds.replay(seed, n) + " [" + s + "]";
            boolean client = Validators.regularExpressionMatcher(s, Validators.PATTERN);
            assertEquals(client, ValidNames.regularExpressionMatcher(s, Validators.PATTERN), at);
            assertEquals(brokerStock(s), ValidNames.regularExpressionMatcher(s, broker), at);
            assertEquals(client, ValidNames.validChars(s), at);
        }
    }

    @Test
    void otherPatternsAreMatchedByThePattern() {
        Pattern flagged = Pattern.compile(ValidNames.VALID_PATTERN, Pattern.MULTILINE);
        Pattern other = Pattern.compile("^[a-z]+$");
        for (String s : new String[] {"abc", "ABC", "a\nb", "a-b", "", "a\n"}) {
            assertEquals(flagged.matcher(s).matches(), ValidNames.regularExpressionMatcher(s, flagged), s);
            assertEquals(other.matcher(s).matches(), ValidNames.regularExpressionMatcher(s, other), s);
        }
        assertTrue(ValidNames.regularExpressionMatcher("any thing", null), "stock: no pattern, no check");
        assertTrue(ValidNames.regularExpressionMatcher(null, null));
    }

    @Test
    void edgesAsStock() {
        assertFalse(ValidNames.regularExpressionMatcher("", Validators.PATTERN));
        assertFalse(ValidNames.regularExpressionMatcher("topic\n", Validators.PATTERN), "'$' before a final newline");
        assertTrue(ValidNames.regularExpressionMatcher("%RETRY%group|x_y-1", Validators.PATTERN));
        assertThrows(NullPointerException.class, () -> Validators.regularExpressionMatcher(null, Validators.PATTERN));
        assertThrows(NullPointerException.class, () -> ValidNames.regularExpressionMatcher(null, Validators.PATTERN));
    }
}
