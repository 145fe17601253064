package dev.rmqpatch.codec.security;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;

import io.netty.bootstrap.AbstractBootstrap;
import io.netty.bootstrap.ServerBootstrap;

/**
 * S4. RocketMQ 4.9.0 listens on every interface: the remoting servers (name server, broker, the broker's VIP
 * channel) bind {@code new InetSocketAddress(listenPort)} and the HA service binds its port the same way, and no
 * setting changes that. With {@code -Drmqpatch.bindAddress=ADDR} they bind ADDR instead, so a host with a cluster
 * network and other networks exposes the ports on the cluster network only. Unset, everything binds as stock.
 */
public final class BindAddress {

    public static final String SYSTEM_PROPERTY = "rmqpatch.bindAddress";

    private BindAddress() {
    }

    /** Instead of {@code serverBootstrap.localAddress(address)} in {@code NettyRemotingServer.start()}. */
    public static AbstractBootstrap localAddress(ServerBootstrap bootstrap, SocketAddress address) {
        return bootstrap.localAddress(rebind(address, configured()));
    }

    /** Instead of {@code serverSocket.bind(address)} in the HA service's accept thread. */
    public static void bind(ServerSocket socket, SocketAddress address) throws IOException {
        socket.bind(rebind(address, configured()));
    }

    /** The wildcard address replaced by {@code bindTo} (same port); any other address, or no bindTo, unchanged. */
    static SocketAddress rebind(SocketAddress address, InetAddress bindTo) {
        if (bindTo == null || !(address instanceof InetSocketAddress)) {
            return address;
        }
        InetSocketAddress a = (InetSocketAddress) address;
        if (a.getAddress() == null || !a.getAddress().isAnyLocalAddress()) {
            return address;
        }
        return new InetSocketAddress(bindTo, a.getPort());
    }

    /**
     * The configured address, or null when the property is not set. Checked at start-up by
     * {@link #check()}, so a typo stops the server instead of leaving it on every interface.
     */
    static InetAddress configured() {
        String value = System.getProperty(SYSTEM_PROPERTY);
        if (value == null || value.trim().isEmpty()) {
            return null;
        }
        try {
            return InetAddress.getByName(value.trim());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("-D" + SYSTEM_PROPERTY + "=" + value + " is not an address: " + e.getMessage());
        }
    }

    /** Start-up check: the configured address, if any, must resolve and belong to this host. */
    public static void check() {
        InetAddress a = configured();
        if (a == null || a.isLoopbackAddress()) {
            return;
        }
        try {
            if (NetworkInterface.getByInetAddress(a) == null) {
                throw new IllegalArgumentException("-D" + SYSTEM_PROPERTY + "=" + a.getHostAddress()
                    + " is not an address of this host's interfaces");
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException("cannot list this host's interfaces to check -D" + SYSTEM_PROPERTY, e);
        }
    }
}
