package dev.rmqpatch.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;

/** Finds ports that nothing listens on, for name servers and brokers started on loopback. */
public final class FreePorts {
    private FreePorts() {
    }

    public static int any() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A free port not in {@code taken}: ports handed out earlier are not bound yet, so probing alone would repeat them. */
    public static int any(Set<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int p = any();
            if (!taken.contains(p)) {
                return p;
            }
        }
        throw new IOException("no free port outside " + taken + " after 50 attempts");
    }

    /** The ports a 4.9 broker with listen port P binds by default: P, P-2 (VIP channel) and P+1 (HA). */
    public static List<Integer> brokerPorts(int listenPort) {
        return List.of(listenPort, listenPort - 2, listenPort + 1);
    }

    /**
     * A broker listen port P such that P-2 (the "VIP" channel a 4.9 broker also opens) and P+1 (its HA port) are free
     * as well. Ports are probed, not reserved: another process could take one before the broker binds, which the
     * launcher reports as a start failure naming the port.
     */
    public static int forBroker() throws IOException {
        return forBroker(Set.of());
    }

    /** As {@link #forBroker()}, with none of P, P-2 and P+1 in {@code taken}. */
    public static int forBroker(Set<Integer> taken) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int p = any();
            if (p > 1026 && p < 65534 && free(p - 2) && free(p + 1) && brokerPorts(p).stream().noneMatch(taken::contains)) {
                return p;
            }
        }
        throw new IOException("no free port P with P-2 and P+1 also free after 50 attempts");
    }

    static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
