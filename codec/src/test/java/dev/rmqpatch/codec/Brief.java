package dev.rmqpatch.codec;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Equality assertions whose failure messages stay readable when the values are megabyte strings or maps of
 * them: values are shortened and the separators shown as {@code <1>} and {@code <2>}.
 */
public final class Brief {

    private static final int MAX = 160;

    private Brief() {
    }

    public static String of(Object o) {
        if (o == null) {
            return "null";
        }
        String s = String.valueOf(o);
        String shown = s.length() > MAX ? s.substring(0, MAX) + "...(" + s.length() + " chars)" : s;
        return (o instanceof String ? "\"" : "") + shown.replace("\u0001", "<1>").replace("\u0002", "<2>")
            + (o instanceof String ? "\"" : "");
    }

    public static void assertEqual(Object expected, Object actual, Supplier<String> where) {
        if (Objects.equals(expected, actual)) {
            return;
        }
        if (expected instanceof Map && actual instanceof Map) {
            fail(where.get() + ": maps differ, " + firstDifference((Map<?, ?>) expected, (Map<?, ?>) actual));
        }
        fail(where.get() + ": expected " + of(expected) + " but was " + of(actual));
    }

    private static String firstDifference(Map<?, ?> expected, Map<?, ?> actual) {
        TreeSet<String> keys = new TreeSet<>();
        expected.keySet().forEach(k -> keys.add(String.valueOf(k)));
        actual.keySet().forEach(k -> keys.add(String.valueOf(k)));
        for (String k : keys) {
            Object e = lookup(expected, k);
            Object a = lookup(actual, k);
            if (!Objects.equals(e, a)) {
                return "size " + expected.size() + " vs " + actual.size() + "; at key " + of(k) + " expected " + of(e)
                    + " but was " + of(a) + "; expected " + of(expected) + " but was " + of(actual);
            }
        }
        return "expected " + of(expected) + " but was " + of(actual);
    }

    private static Object lookup(Map<?, ?> m, String key) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (String.valueOf(e.getKey()).equals(key)) {
                return e.getValue() == null ? "<null value>" : e.getValue();
            }
        }
        return "<absent>";
    }
}
