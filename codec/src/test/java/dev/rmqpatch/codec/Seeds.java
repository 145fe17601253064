package dev.rmqpatch.codec;

import java.util.Random;

/**
 * Seeds for the randomised tests. Every run uses a fresh seed (so repeated builds explore new inputs) unless
 * {@code -Drmqpatch.codec.seed=N} pins it; every failure message carries the seed and the case number.
 */
public final class Seeds {

    public static final String PROPERTY = "rmqpatch.codec.seed";

    private Seeds() {
    }

    public static long seed() {
        Long pinned = Long.getLong(PROPERTY);
        return pinned != null ? pinned : new Random().nextLong();
    }

    /** Text for a failure message that says how to replay this exact case. */
    public static String replay(long seed, int caseNo) {
        return "seed=" + seed + " case=" + caseNo + " (replay with -D" + PROPERTY + "=" + seed + ")";
    }
}
