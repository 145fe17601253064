package dev.rmqpatch.stall;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What to stall, for how long and how often: the agent's argument, e.g.
 * {@code point=append,millis=500,everyMillis=3000,afterMillis=20000}. A stall of {@code millis} at the point's next
 * entry once {@code everyMillis} have passed since the last one began; none in the first {@code afterMillis} after the
 * JVM started (its start-up, and the warm-up of whoever measures). {@code times} bounds how many (default: no bound).
 */
public final class StallPlan {
    public final StallPoint point;
    public final long millis;
    public final long everyMillis;
    public final long afterMillis;
    public final long times;

    StallPlan(StallPoint point, long millis, long everyMillis, long afterMillis, long times) {
        this.point = point;
        this.millis = millis;
        this.everyMillis = everyMillis;
        this.afterMillis = afterMillis;
        this.times = times;
    }

    /** The longest stall, the longest period and the longest quiet start (ms) a plan may ask for. */
    public static final long MAX_MILLIS = 600_000;
    public static final long MAX_EVERY_MILLIS = 3_600_000;
    public static final long MAX_AFTER_MILLIS = 3_600_000;

    static final String USAGE = "-javaagent:rmqpatch-stall-agent.jar=point=append|allocate|flush|replica|dispatch,millis=N"
        + "[,everyMillis=N][,afterMillis=N][,times=N]  (defaults: everyMillis 5000, afterMillis 10000, times unbounded)";

    /** Parses the agent's argument; an unknown key, a missing point or millis, or a bad number is an error. */
    static StallPlan parse(String args) {
        if (args == null || args.trim().isEmpty()) {
            throw new IllegalArgumentException("no stall plan given; usage: " + USAGE);
        }
        Map<String, String> kv = new LinkedHashMap<String, String>();
        for (String part : args.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + part + "' is not key=value; usage: " + USAGE);
            }
            String key = part.substring(0, eq).trim();
            if (!key.matches("point|millis|everyMillis|afterMillis|times")) {
                throw new IllegalArgumentException("unknown key '" + key + "'; usage: " + USAGE);
            }
            if (kv.put(key, part.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException("key '" + key + "' given twice");
            }
        }
        if (!kv.containsKey("point") || !kv.containsKey("millis")) {
            throw new IllegalArgumentException("point and millis are required; usage: " + USAGE);
        }
        StallPoint point = StallPoint.named(kv.get("point"));
        long millis = number(kv, "millis", 0, 1, MAX_MILLIS);
        long every = number(kv, "everyMillis", 5_000, 1, MAX_EVERY_MILLIS);
        if (every <= millis) {
            throw new IllegalArgumentException("everyMillis (" + every + ") must be longer than millis (" + millis + ")");
        }
        return new StallPlan(point, millis, every, number(kv, "afterMillis", 10_000, 0, MAX_AFTER_MILLIS),
            number(kv, "times", Long.MAX_VALUE, 1, Long.MAX_VALUE));
    }

    private static long number(Map<String, String> kv, String key, long def, long min, long max) {
        String v = kv.get(key);
        if (v == null) {
            return def;
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number (got '" + v + "')");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + " must be between " + min + " and " + max + " (got " + n + ")");
        }
        return n;
    }

    /** The agent's argument for a plan (what {@link #parse} reads back); the harness builds its brokers' flag with it. */
    public static String argument(StallPoint point, long millis, long everyMillis, long afterMillis) {
        return argument(point, millis, everyMillis, afterMillis, Long.MAX_VALUE);
    }

    /** The same, at most {@code times} stalls ({@code Long.MAX_VALUE}: no bound; 1: a single stall). */
    public static String argument(StallPoint point, long millis, long everyMillis, long afterMillis, long times) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1 (got " + times + ")");
        }
        return new StallPlan(point, millis, everyMillis, afterMillis, times).toString();
    }

    @Override
    public String toString() {
        return "point=" + point.name().toLowerCase() + ",millis=" + millis + ",everyMillis=" + everyMillis
            + ",afterMillis=" + afterMillis + (times == Long.MAX_VALUE ? "" : ",times=" + times);
    }
}
