package dev.rmqpatch.codec.remoting;

import java.net.Socket;
import java.net.SocketException;

import io.netty.bootstrap.AbstractBootstrap;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import org.apache.rocketmq.remoting.netty.NettySystemConfig;

/**
 * P17. RocketMQ 4.9.0 pins the send and receive buffers of every socket it opens, which on Linux also turns off the
 * kernel's buffer autotuning for that socket: the remoting channels (accepted and connected) to
 * {@code -Dcom.rocketmq.remoting.socket.sndbuf.size}/{@code rcvbuf.size}, default 65535, which the broker's start-up
 * raises to 131072 when the property is not given; the HA sockets (the master's accepted one, the slave's connected
 * one) to a fixed 64 KB that nothing configures. As RocketMQ 4.9.3 does (apache/rocketmq#3826), here a size that
 * nobody gave is 0, "leave the kernel's", and only a positive size is set:
 * <ul>
 * <li>the two properties default to 0 instead of 65535 ({@link #systemProperty(String, String)}), and the broker
 * start-up no longer replaces an absent one with 131072 ({@link #systemProperty(String)});</li>
 * <li>the remoting server and client set SO_SNDBUF/SO_RCVBUF only when the configured size is positive
 * ({@link #childOption}, {@link #option}): a size set in the broker's or name server's config file
 * ({@code serverSocketSndBufSize}, {@code clientSocketRcvBufSize}...) or by the property is set as stock sets it;</li>
 * <li>the HA sockets take the property's size when it is given, and the kernel's otherwise
 * ({@link #setReceiveBufferSize}, {@link #setSendBufferSize}); upstream sets each from the other's property, here each
 * from its own.</li>
 * </ul>
 * (#3826 also unsets the write-buffer water marks, which 4.9.0 does not set.)
 */
public final class SocketBuffers {

    static final String SNDBUF_KEY = NettySystemConfig.COM_ROCKETMQ_REMOTING_SOCKET_SNDBUF_SIZE;
    static final String RCVBUF_KEY = NettySystemConfig.COM_ROCKETMQ_REMOTING_SOCKET_RCVBUF_SIZE;
    /** The patched default of the two properties: no size, the kernel's. */
    static final String UNSET = "0";

    private SocketBuffers() {
    }

    /** Instead of {@code System.getProperty(key, def)} in NettySystemConfig's initialiser. */
    public static String systemProperty(String key, String def) {
        return System.getProperty(key, isBufferKey(key) ? UNSET : def);
    }

    /**
     * Instead of {@code System.getProperty(key)} in {@code BrokerStartup.createBrokerController}, whose only two calls
     * ask whether a buffer property is absent, to set 131072 then: absent, it reads as the patched default.
     */
    public static String systemProperty(String key) {
        String value = System.getProperty(key);
        return value == null && isBufferKey(key) ? UNSET : value;
    }

    /** Instead of {@code serverBootstrap.childOption(option, value)} in {@code NettyRemotingServer.start()}. */
    public static ServerBootstrap childOption(ServerBootstrap bootstrap, ChannelOption option, Object value) {
        return unset(option, value) ? bootstrap : bootstrap.childOption(option, value);
    }

    /** Instead of {@code bootstrap.option(option, value)} in {@code NettyRemotingClient.start()}. */
    public static AbstractBootstrap option(Bootstrap bootstrap, ChannelOption option, Object value) {
        return unset(option, value) ? bootstrap : bootstrap.option(option, value);
    }

    /** Instead of the HA sockets' {@code socket.setReceiveBufferSize(1024 * 64)}: the property's size, if any. */
    public static void setReceiveBufferSize(Socket socket, int stockSize) throws SocketException {
        int size = NettySystemConfig.socketRcvbufSize;
        if (size > 0) {
            socket.setReceiveBufferSize(size);
        }
    }

    /** Instead of the HA sockets' {@code socket.setSendBufferSize(1024 * 64)}: the property's size, if any. */
    public static void setSendBufferSize(Socket socket, int stockSize) throws SocketException {
        int size = NettySystemConfig.socketSndbufSize;
        if (size > 0) {
            socket.setSendBufferSize(size);
        }
    }

    /** A buffer option with no positive size: left out, so the kernel's size and autotuning stay. */
    static boolean unset(ChannelOption<?> option, Object value) {
        return (option == ChannelOption.SO_SNDBUF || option == ChannelOption.SO_RCVBUF)
            && value instanceof Integer && (Integer) value <= 0;
    }

    private static boolean isBufferKey(String key) {
        return SNDBUF_KEY.equals(key) || RCVBUF_KEY.equals(key);
    }
}
