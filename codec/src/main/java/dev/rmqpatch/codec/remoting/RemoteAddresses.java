package dev.rmqpatch.codec.remoting;

import java.net.SocketAddress;

import io.netty.channel.Channel;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;

/**
 * P8. {@code RemotingHelper.parseChannelRemoteAddr} builds the same "host:port" string from the channel's
 * address every time: {@code InetSocketAddress.toString()} and a substring, twice or more per request (RPC hooks
 * before and after, the send processor's callback, log lines). The result never changes for a connected
 * channel, so it is computed once, exactly as stock computes it, and kept in a channel attribute (upstream did
 * the same in 4.9.3, #3589). An empty result (no address yet) is not kept.
 */
public final class RemoteAddresses {

    private static final AttributeKey<String> KEY = AttributeKey.valueOf("rmqpatch.remoteAddr");

    private RemoteAddresses() {
    }

    /**
     * Same result as stock {@code RemotingHelper.parseChannelRemoteAddr(channel)} for any {@link Channel}. Stock never
     * calls {@code attr}: a channel that keeps no attributes (a test double whose {@code attr} returns null or throws,
     * an attribute that does not keep what is set) gets stock's computation on every call.
     */
    public static String parseChannelRemoteAddr(Channel channel) {
        if (channel == null) {
            return "";
        }
        Attribute<String> cached;
        try {
            cached = channel.attr(KEY);
        } catch (RuntimeException e) {
            cached = null;
        }
        String addr = cached != null ? cached.get() : null;
        if (addr == null) {
            addr = compute(channel.remoteAddress());
            if (cached != null && !addr.isEmpty()) {
                cached.set(addr);
            }
        }
        return addr;
    }

    /** Stock's algorithm: the text after the last '/' of the address's toString, or all of it. */
    static String compute(SocketAddress remote) {
        String addr = remote != null ? remote.toString() : "";
        if (addr.isEmpty()) {
            return "";
        }
        int index = addr.lastIndexOf('/');
        return index >= 0 ? addr.substring(index + 1) : addr;
    }
}
