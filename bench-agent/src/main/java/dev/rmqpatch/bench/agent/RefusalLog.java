package dev.rmqpatch.bench.agent;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Logs the requests an agent refused (no token, wrong token, a name server outside its allowlist), with the caller's
 * address, never what it sent. At most {@link #PER_MINUTE} lines a minute, then one line counting the rest, so a
 * scanner hammering the port cannot fill the disk through the agent's output file.
 */
final class RefusalLog {
    static final int PER_MINUTE = 20;

    private final PrintStream out;
    private long minute = -1;
    private int loggedThisMinute;
    private long suppressed;

    RefusalLog(PrintStream out) {
        this.out = out;
    }

    synchronized void refused(InetSocketAddress from, String route, String reason) {
        long now = System.currentTimeMillis() / 60_000;
        if (now != minute) {
            if (suppressed > 0) {
                out.println(Instant.now().truncatedTo(ChronoUnit.SECONDS) + " agent: " + suppressed + " more refused request(s) not logged in the last minute");
            }
            minute = now;
            loggedThisMinute = 0;
            suppressed = 0;
        }
        if (loggedThisMinute >= PER_MINUTE) {
            suppressed++;
            return;
        }
        loggedThisMinute++;
        String address = from == null || from.getAddress() == null ? String.valueOf(from) : from.getAddress().getHostAddress() + ":" + from.getPort();
        out.println(Instant.now().truncatedTo(ChronoUnit.SECONDS) + " agent: REFUSED " + printable(route) + " from " + address + ": " + reason);
        out.flush();
    }

    /** The route is the caller's text: no control characters (no forged log lines) and bounded length. */
    static String printable(String text) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < text.length() && b.length() < 120; i++) {
            char c = text.charAt(i);
            b.append(c < ' ' || c == 127 ? '?' : c);
        }
        return b.length() < text.length() ? b + "..." : b.toString();
    }
}
