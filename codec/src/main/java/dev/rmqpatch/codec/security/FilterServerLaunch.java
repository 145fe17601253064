package dev.rmqpatch.codec.security;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.logging.InternalLogger;

/**
 * Replaces the one place where a 4.9.0 broker runs an operating-system command: {@code FilterServerUtil.callShell},
 * called by {@code FilterServerManager.createFilterServer} every 30 s with a command line built by string
 * formatting from {@code rocketmqHome}, the config file path and {@code namesrvAddr}, then split at spaces.
 * Whoever can set one of those values runs a command of their choice (CVE-2023-33246). Filter servers were
 * removed upstream (5.1.1); nothing here starts one.
 */
public final class FilterServerLaunch {

    // Stock retries every 30 s for every missing filter server: say it loudly once, then rarely.
    private static final long WARN_EVERY = 120;
    private static final AtomicLong REFUSED = new AtomicLong();

    private FilterServerLaunch() {
    }

    /** Instead of {@code FilterServerUtil.callShell(command, log)}: runs nothing. */
    public static void refuse(String command, InternalLogger log) {
        long n = REFUSED.incrementAndGet();
        if (n == 1 || n % WARN_EVERY == 0) {
            log.warn("rmqpatch S2: refused to start a filter server ({} refusals so far). Its command line is built "
                + "from config values, which CVE-2023-33246 exploits: [{}]. Filter servers are not supported; set "
                + "filterServerNums=0 and filter with tags or SQL92 (enablePropertyFilter=true) instead.",
                n, printable(command));
        }
    }

    /** The command as a log can show it safely: control characters escaped, at most 300 characters. */
    static String printable(String command) {
        if (command == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(Math.min(command.length(), 300) + 16);
        for (int i = 0; i < command.length() && sb.length() < 300; i++) {
            char c = command.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= 300 && command.length() > 300) {
            sb.append("...");
        }
        return sb.toString();
    }
}
