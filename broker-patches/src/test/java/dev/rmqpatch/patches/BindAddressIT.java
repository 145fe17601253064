package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.Test;

/**
 * S4 on real servers: with -Drmqpatch.bindAddress=127.0.0.2 the name server, the broker, its VIP channel
 * (listenPort-2) and its HA port (listenPort+1) answer on 127.0.0.2 and refuse on 127.0.0.1; with S4 switched off
 * they listen everywhere, as stock. A message round trip shows the broker still registers and serves.
 */
class BindAddressIT {

    private static final String BOUND = "127.0.0.2";

    @Test
    void serversListenOnTheConfiguredAddressOnly() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf").host(BOUND)
            .javaOpt("-Drmqpatch.bindAddress=" + BOUND).start()) {
            for (int port : ports(c)) {
                assertTrue(accepts(BOUND, port), "listens on " + BOUND + ":" + port);
                assertFalse(accepts("127.0.0.1", port), "does not listen on 127.0.0.1:" + port);
            }
            DropInIT.roundTrip(c, "bound to " + BOUND, 10);
        }
    }

    @Test
    void switchedOffItListensEverywhereAsStock() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker.conf").host(BOUND)
            .javaOpt("-Drmqpatch.bindAddress=" + BOUND + " -Drmqpatch.disable=S4").start()) {
            for (int port : ports(c)) {
                assertTrue(accepts("127.0.0.1", port), "S4 off: stock wildcard bind, 127.0.0.1:" + port);
            }
        }
    }

    @Test
    void anAddressOfAnotherHostStopsStartUp() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker.conf")
            .javaOpt("-Drmqpatch.bindAddress=192.0.2.7")) {
            IllegalStateException e = assertThrows(IllegalStateException.class, c::start);
            assertTrue(e.getMessage().contains("192.0.2.7 is not an address of this host"), e.getMessage());
        }
    }

    private static int[] ports(TestCluster c) {
        return new int[] {c.namesrvPort(), c.brokerPort(), c.brokerPort() - 2, c.brokerPort() + 1};
    }

    private static boolean accepts(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 2_000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
