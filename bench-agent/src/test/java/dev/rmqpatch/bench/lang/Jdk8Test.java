package dev.rmqpatch.bench.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The JDK 8 versions against the JDK 11 methods they stand for (this test runs on JDK 17), on random input. */
class Jdk8Test {
    /** Whitespace of every kind Character.isWhitespace knows, control characters that are not whitespace, and letters. */
    private static final char[] ALPHABET = {' ', '\t', '\n', '\u000b', '\f', '\r', '\u001c', '\u2003', '\u3000', '\u00a0', '\u0000',
        '\u0001', '\u007f', 'a', 'Z', '7', ':', '\u00e9'};

    @Test
    void stringMethodsMatchJdk11sOnRandomStrings() {
        Random random = new Random(8);
        for (int i = 0; i < 20_000; i++) {
            char[] c = new char[random.nextInt(8)];
            for (int k = 0; k < c.length; k++) {
                c[k] = ALPHABET[random.nextInt(ALPHABET.length)];
            }
            String s = new String(c);
            assertEquals(s.strip(), Jdk8.strip(s), () -> Arrays.toString(c));
            assertEquals(s.stripTrailing(), Jdk8.stripTrailing(s), () -> Arrays.toString(c));
            assertEquals(s.isBlank(), Jdk8.isBlank(s), () -> Arrays.toString(c));
            int n = random.nextInt(4);
            assertEquals(s.repeat(n), Jdk8.repeat(s, n));
        }
    }

    @Test
    void collectionsAreUnmodifiableCopiesThatRefuseNulls() {
        List<String> source = new ArrayList<>(List.of("a", "b"));
        List<String> copy = Jdk8.copyOf(source);
        source.add("c");
        assertEquals(List.of("a", "b"), copy);
        assertThrows(UnsupportedOperationException.class, () -> copy.add("d"));
        assertThrows(NullPointerException.class, () -> Jdk8.listOf("a", null));
        assertEquals(List.of("x", "y"), new ArrayList<>(Jdk8.setOf("x", "y")));
        assertThrows(UnsupportedOperationException.class, () -> Jdk8.setOf("x").add("z"));
    }

    @Test
    void readAllBytesAndPidMatchJdk11s() throws Exception {
        byte[] data = new byte[20_000];
        new Random(1).nextBytes(data);
        assertArrayEquals(data, Jdk8.readAllBytes(new ByteArrayInputStream(data)));
        assertArrayEquals(new byte[0], Jdk8.readAllBytes(new ByteArrayInputStream(new byte[0])));
        assertEquals(ProcessHandle.current().pid(), Jdk8.pid());
    }
}
