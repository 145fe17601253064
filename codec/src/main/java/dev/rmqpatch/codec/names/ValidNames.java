package dev.rmqpatch.codec.names;

import java.util.regex.Pattern;

/**
 * The characters RocketMQ allows in topic and group names, {@code [%|a-zA-Z0-9_-]}: the one place this project writes
 * them down. Stock 4.9.0 checks them with the regular expression {@value #VALID_PATTERN} in
 * {@code TopicValidator.validateTopic} (the broker, for every message it is sent) and {@code Validators.checkTopic}
 * (the producer, twice per send), each a {@code Matcher} run per call.
 * <p>
 * P34 replaces those matches with {@link #regularExpressionMatcher(String, Pattern)}: for stock's own pattern a loop
 * over the characters against a table, for any other pattern the pattern itself. Upstream made the same change to
 * {@code TopicValidator} in 4.9.3 (#3594).
 */
public final class ValidNames {

    /** Stock's pattern, as both {@code TopicValidator} and {@code Validators} compile it. */
    public static final String VALID_PATTERN = "^[%|a-zA-Z0-9_-]+$";

    /** Allowed ASCII characters; every char from 128 up is refused. */
    private static final boolean[] ALLOWED = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            ALLOWED[c] = true;
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            ALLOWED[c] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            ALLOWED[c] = true;
        }
        ALLOWED['%'] = true;
        ALLOWED['|'] = true;
        ALLOWED['_'] = true;
        ALLOWED['-'] = true;
    }

    private ValidNames() {
    }

    /** True when {@code name} has at least one character and every one is allowed; throws on null as a Matcher does. */
    public static boolean validChars(String name) {
        int n = name.length();
        if (n == 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c >= 128 || !ALLOWED[c]) {
                return false;
            }
        }
        return true;
    }

    /**
     * P34's replacement of stock's private {@code regularExpressionMatcher(String, Pattern)} (in {@code TopicValidator}
     * and in {@code Validators}): true for a null pattern, as stock; for stock's pattern (compiled without flags),
     * {@link #validChars}; for any other pattern, {@code pattern.matcher(origin).matches()} as stock.
     */
    public static boolean regularExpressionMatcher(String origin, Pattern pattern) {
        if (pattern == null) {
            return true;
        }
        if (pattern.flags() == 0 && VALID_PATTERN.equals(pattern.pattern())) {
            return validChars(origin);
        }
        return pattern.matcher(origin).matches();
    }
}
