package dev.rmqpatch.codec;

import java.util.Random;

/** Random strings built from code units that stress UTF-16 handling: non-ASCII, supplementary, lone surrogates. */
public final class RandomText {

    public static final char NV = '\u0001';
    public static final char PS = '\u0002';

    /** Units without the two properties separators; some are two chars (surrogate pairs), one is a lone surrogate. */
    private static final String[] UNITS = {
        "a", "b", "Z", "0", "9", "_", "-", ".", " ", "=", "\t", "\u0000",
        "\u00e9", "\u00df", "\u00ff", "\u4e2d", "\u6587", "\u0661",
        "\ud83d\ude00", "\ud83d\ude80", "\ud800", "\udfff", "\uffff",
    };

    private RandomText() {
    }

    /** 0..maxUnits units, none of them a properties separator; about a third of the strings are ASCII letters only. */
    public static String text(Random r, int maxUnits) {
        int n = r.nextInt(maxUnits + 1);
        boolean asciiOnly = r.nextInt(3) == 0;
        StringBuilder sb = new StringBuilder(n * 2);
        for (int i = 0; i < n; i++) {
            sb.append(asciiOnly ? UNITS[r.nextInt(3)] : UNITS[r.nextInt(UNITS.length)]);
        }
        return sb.toString();
    }

    /** Like {@link #text} but at least one unit long. */
    public static String nonEmptyText(Random r, int maxUnits) {
        String s = text(r, maxUnits - 1);
        return s + UNITS[r.nextInt(UNITS.length)];
    }

    /** Garbage dominated by the two separators, for differential parsing against stock. */
    public static String separatorHeavy(Random r, int maxChars) {
        int n = r.nextInt(maxChars + 1);
        StringBuilder sb = new StringBuilder(n + 1);
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(20);
            if (k < 6) {
                sb.append(NV);
            } else if (k < 12) {
                sb.append(PS);
            } else if (k < 17) {
                sb.append((char) ('a' + r.nextInt(3)));
            } else {
                sb.append(UNITS[r.nextInt(UNITS.length)]);
            }
        }
        return sb.toString();
    }
}
