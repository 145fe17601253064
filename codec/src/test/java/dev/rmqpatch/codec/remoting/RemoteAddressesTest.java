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
}
