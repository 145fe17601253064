package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.junit.jupiter.api.Test;

/** P8 must give exactly what stock RemotingHelper.parseChannelRemoteAddr gives, for every kind of channel. */
class RemoteAddressesTest {

    @Test
    void nullAndEmbeddedChannelsAsStock() {
        assertEquals(RemotingHelper.parseChannelRemoteAddr(null), RemoteAddresses.parseChannelRemoteAddr(null));
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        assertEquals(RemotingHelper.parseChannelRemoteAddr(ch), RemoteAddresses.parseChannelRemoteAddr(ch));
    }

    @Test
    void unconnectedChannelGivesStocksEmptyStringAndIsNotCached() throws Exception {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        try {
            Channel ch = new NioSocketChannel();
            group.register(ch).sync();
            assertEquals("", RemotingHelper.parseChannelRemoteAddr(ch));
            assertEquals("", RemoteAddresses.parseChannelRemoteAddr(ch));
            assertEquals(null, ch.attr(io.netty.util.AttributeKey.<String>valueOf("rmqpatch.remoteAddr")).get());
            ch.close().sync();
        } finally {
            group.shutdownGracefully().sync();
        }
    }

    @Test
    void connectedTcpChannelAsStockComputedOnce() throws Exception {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        try (ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInboundHandlerAdapter())
                .connect(new InetSocketAddress(server.getInetAddress(), server.getLocalPort())).sync().channel();
            try (Socket accepted = server.accept()) {
                String stock = RemotingHelper.parseChannelRemoteAddr(ch);
                assertEquals("127.0.0.1:" + server.getLocalPort(), stock);
                String first = RemoteAddresses.parseChannelRemoteAddr(ch);
                assertEquals(stock, first);
                assertSame(first, RemoteAddresses.parseChannelRemoteAddr(ch), "kept, not rebuilt");
            } finally {
                ch.close().sync();
            }
        } finally {
            group.shutdownGracefully().sync();
        }
    }

    @Test
    void stocksAlgorithmForOddAddresses() {
        for (java.net.SocketAddress a : new java.net.SocketAddress[] {InetSocketAddress.createUnresolved("host", 9876),
            new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 10911)}) {
            String s = a.toString();
            int i = s.lastIndexOf("/");
            assertEquals(i >= 0 ? s.substring(i + 1) : s, RemoteAddresses.compute(a), s);
        }
    }

    /**
     * Channels that keep no attributes, as upstream's broker tests mock them (attr returns null), or whose attr throws
     * or whose attribute forgets what is set, with every kind of remote address (null, resolved, unresolved, a
     * SocketAddress whose text is empty or has no '/'): the same string as stock on every call.
     */
    @Test
    void anyChannelAsStockEvenWithoutAttributes() {
        java.util.Random rnd = new java.util.Random(42);
        java.net.SocketAddress[] addresses = {null, new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 10911),
            InetSocketAddress.createUnresolved("broker-a", 10911), text(""), text("no-slash:1"), text("a/b/c:2")};
        for (int round = 0; round < 200; round++) {
            java.net.SocketAddress a = addresses[rnd.nextInt(addresses.length)];
            Channel ch = channel(a, rnd.nextInt(4));
            for (int call = 0; call < 3; call++) {
                assertEquals(RemotingHelper.parseChannelRemoteAddr(ch), RemoteAddresses.parseChannelRemoteAddr(ch),
                    "address " + a);
            }
        }
    }

    private static java.net.SocketAddress text(final String s) {
        return new java.net.SocketAddress() {
            @Override
            public String toString() {
                return s;
            }
        };
    }

    /** attrKind: 0 attr returns null, 1 attr throws, 2 an attribute that keeps nothing, 3 one that keeps its value. */
    private static Channel channel(final java.net.SocketAddress remote, final int attrKind) {
        final java.util.concurrent.atomic.AtomicReference<Object> kept = new java.util.concurrent.atomic.AtomicReference<Object>();
        final Object attribute = java.lang.reflect.Proxy.newProxyInstance(RemoteAddressesTest.class.getClassLoader(),
            new Class<?>[] {io.netty.util.Attribute.class}, (proxy, m, args) -> {
                if (m.getName().equals("get")) {
                    return attrKind == 3 ? kept.get() : null;
                }
                if (m.getName().equals("set") && attrKind == 3) {
                    kept.set(args[0]);
                }
                return null;
            });
        return (Channel) java.lang.reflect.Proxy.newProxyInstance(RemoteAddressesTest.class.getClassLoader(),
            new Class<?>[] {Channel.class}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "remoteAddress":
                        return remote;
                    case "attr":
                        if (attrKind == 1) {
                            throw new UnsupportedOperationException("no attributes");
                        }
                        return attrKind == 0 ? null : attribute;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == args[0];
                    case "toString":
                        return "test channel";
                    default:
                        throw new UnsupportedOperationException(m.getName());
                }
            });
    }
}
