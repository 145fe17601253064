package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

import org.junit.jupiter.api.Test;

class BindAddressTest {

    @Test
    void onlyTheWildcardIsReplacedAndThePortKept() throws Exception {
        InetAddress to = InetAddress.getByName("127.0.0.2");
        assertEquals(new InetSocketAddress(to, 10911), BindAddress.rebind(new InetSocketAddress(10911), to));
        SocketAddress specific = new InetSocketAddress(InetAddress.getByName("127.0.0.3"), 10911);
        assertSame(specific, BindAddress.rebind(specific, to), "an explicit address stays");
        SocketAddress wildcard = new InetSocketAddress(9876);
        assertSame(wildcard, BindAddress.rebind(wildcard, null), "no property: stock bind");
    }

    @Test
    void startUpCheckRejectsAddressesThisHostDoesNotHave() {
        String before = System.getProperty(BindAddress.SYSTEM_PROPERTY);
        try {
            System.setProperty(BindAddress.SYSTEM_PROPERTY, "192.0.2.7");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, BindAddress::check);
            assertTrue(e.getMessage().contains("not an address of this host"), e.getMessage());
            System.setProperty(BindAddress.SYSTEM_PROPERTY, "no such host.invalid");
            assertThrows(IllegalArgumentException.class, BindAddress::check);
            System.setProperty(BindAddress.SYSTEM_PROPERTY, "127.0.0.2");
            BindAddress.check();
        } finally {
            if (before == null) {
                System.clearProperty(BindAddress.SYSTEM_PROPERTY);
            } else {
                System.setProperty(BindAddress.SYSTEM_PROPERTY, before);
            }
        }
    }
}
