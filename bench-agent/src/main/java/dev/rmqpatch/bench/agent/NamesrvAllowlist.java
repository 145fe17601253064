package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The name servers an agent may be told to load: the agent refuses a prepare request naming any other, so whoever
 * holds (or stole) the token still cannot turn the agent's producers on a system outside the benchmark. Addresses
 * are compared as given (HOST:PORT, exact text): deploy passes the cluster file's name servers, and the coordinator
 * sends the same strings. Without a list, only name servers on loopback addresses are allowed, which is what the
 * local runs (compare, run --dist, run --sink) use.
 */
public final class NamesrvAllowlist {
    private final Set<String> allowed;

    private NamesrvAllowlist(Set<String> allowed) {
        this.allowed = allowed;
    }

    /** @param entries values of --allow-namesrv, each HOST:PORT[;HOST:PORT...] or comma-separated; empty = loopback only */
    public static NamesrvAllowlist of(List<String> entries) {
        Set<String> set = new LinkedHashSet<>();
        for (String entry : entries) {
            for (String a : split(entry)) {
                checkHostPort(a);
                set.add(a);
            }
        }
        return new NamesrvAllowlist(set);
    }

    public boolean loopbackOnly() {
        return allowed.isEmpty();
    }

    /** What is allowed, for the agent's start-up line and its refusals. */
    public String describe() {
        return allowed.isEmpty() ? "name servers on loopback addresses only" : String.join(", ", allowed);
    }

    /** Throws naming every address of the request (its namesrv and every target's) that is not allowed. */
    public void check(PrepareRequest request) {
        List<String> asked = new ArrayList<>();
        if (request.targets != null && !request.targets.isEmpty()) {
            for (PrepareRequest.Target t : request.targets) {
                asked.addAll(split(t.namesrv));
            }
        } else {
            asked.addAll(split(request.namesrv));
        }
        if (asked.isEmpty()) {
            throw new IllegalArgumentException("the prepare request names no name server");
        }
        List<String> refused = new ArrayList<>();
        for (String a : asked) {
            if (!permits(a)) {
                refused.add(a);
            }
        }
        if (!refused.isEmpty()) {
            throw new NotAllowedException("name server(s) " + refused + " are not in this agent's allowlist (" + describe()
                + "); start the agent with --allow-namesrv for them");
        }
    }

    boolean permits(String hostPort) {
        return allowed.isEmpty() ? isLoopback(hostPort) : allowed.contains(hostPort);
    }

    /** A literal loopback address (127.0.0.0/8, ::1) or localhost; host names are not resolved. */
    static boolean isLoopback(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            return false;
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host.equals("localhost") || host.equals("::1") || host.equals("0:0:0:0:0:0:0:1")
            || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        if (list == null) {
            return out;
        }
        for (String part : list.split("[;,]")) {
            String t = Jdk8.strip(part);
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    private static void checkHostPort(String a) {
        int colon = a.lastIndexOf(':');
        boolean ok = colon > 0 && colon < a.length() - 1 && a.substring(colon + 1).chars().allMatch(Character::isDigit);
        if (!ok) {
            throw new IllegalArgumentException("--allow-namesrv: '" + a + "' is not HOST:PORT");
        }
    }

    /** A prepare request aimed outside the allowlist. */
    public static final class NotAllowedException extends RuntimeException {
        public NotAllowedException(String message) {
            super(message);
        }
    }
}
