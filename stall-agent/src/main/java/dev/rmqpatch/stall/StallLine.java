package dev.rmqpatch.stall;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line a stall prints on the broker's stdout, written here and read here (the agent writes it; StoreStallIT and the
 * harness's {@code --stall} read it back): {@code [rmqpatch-stall] append #3 at 1764321234567 for 500 ms on thread
 * NettyServerNIOSelector_3_2} — the point, the stall's number, its wall-clock start (epoch ms), its length and the
 * thread that stalled.
 */
public final class StallLine {
    private static final Pattern LINE = Pattern.compile(
        "^\\[rmqpatch-stall\\] ([a-z]+) #(\\d+) at (\\d+) for (\\d+) ms on thread (.+?)\\s*$", Pattern.MULTILINE);

    public final String point;
    public final int n;
    public final long at;
    public final long ms;
    public final String thread;

    StallLine(String point, int n, long at, long ms, String thread) {
        this.point = point;
        this.n = n;
        this.at = at;
        this.ms = ms;
        this.thread = thread;
    }

    /** The line for stall {@code n} at {@code point}, begun at {@code at} (epoch ms), {@code ms} long, on {@code thread}. */
    static String format(StallPoint point, long n, long at, long ms, String thread) {
        return "[rmqpatch-stall] " + point.name().toLowerCase() + " #" + n + " at " + at + " for " + ms
            + " ms on thread " + thread;
    }

    /** Every stall line in {@code output} (a broker's stdout), in the order printed. */
    public static List<StallLine> parse(CharSequence output) {
        List<StallLine> out = new ArrayList<StallLine>();
        Matcher m = LINE.matcher(output);
        while (m.find()) {
            out.add(new StallLine(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)), m.group(5)));
        }
        return out;
    }
}
