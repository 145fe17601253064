package dev.rmqpatch.bench.lang;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The few JDK 9-11 conveniences the load agent's code uses, written for JDK 8: bench-agent is class-file version 52 so
 * that a client comparison can run its clients on the JDK most 4.9.0 applications run. Each keeps the JDK 11 method's
 * meaning where the agent relies on it (unmodifiable lists that refuse nulls, whitespace as Character.isWhitespace).
 */
public final class Jdk8 {
    private Jdk8() {
    }

    /** {@code List.of(items)}. */
    @SafeVarargs
    public static <T> List<T> listOf(T... items) {
        return copyOf(Arrays.asList(items));
    }

    /** {@code List.copyOf(items)}. */
    public static <T> List<T> copyOf(Collection<? extends T> items) {
        List<T> copy = new ArrayList<>(items.size());
        for (T item : items) {
            copy.add(Objects.requireNonNull(item, "null element"));
        }
        return Collections.unmodifiableList(copy);
    }

    /** {@code Set.of(items)}, in the given order. */
    @SafeVarargs
    public static <T> Set<T> setOf(T... items) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(copyOf(Arrays.asList(items))));
    }

    /** {@code s.isBlank()}. */
    public static boolean isBlank(String s) {
        return strip(s).isEmpty();
    }

    /** {@code s.strip()}. */
    public static String strip(String s) {
        return stripTrailing(stripLeading(s));
    }

    private static String stripLeading(String s) {
        int start = 0;
        while (start < s.length() && Character.isWhitespace(s.charAt(start))) {
            start++;
        }
        return s.substring(start);
    }

    /** {@code s.stripTrailing()}. */
    public static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && Character.isWhitespace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end);
    }

    /** {@code s.repeat(count)}. */
    public static String repeat(String s, int count) {
        StringBuilder b = new StringBuilder(s.length() * Math.max(0, count));
        for (int i = 0; i < count; i++) {
            b.append(s);
        }
        return b.toString();
    }

    /** {@code in.readAllBytes()}. */
    public static byte[] readAllBytes(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; ) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /** {@code ProcessHandle.current().pid()}: on HotSpot the runtime bean's name is "pid@host". */
    public static long pid() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        return Long.parseLong(name.substring(0, name.indexOf('@')));
    }
}
