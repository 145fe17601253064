package dev.rmqpatch.bench.agent.wire;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.util.ArrayList;
import java.util.List;

/**
 * One TCP connection of the wire client to a broker, (re)connected on demand. Frames arrive whole (netty's length-field
 * decoder, the framing stock's NettyDecoder uses) and go to the {@link Listener}. Writes made while the loop handles
 * incoming frames are flushed once when the read batch ends: one system call for all the requests those answers
 * released, instead of one per message.
 */
public final class WireConnection {
    /** Receives what happens on a connection; called on its event loop. */
    public interface Listener {
        void onFrame(WireConnection connection, ByteBuf frame);

        void onClosed(WireConnection connection, Throwable cause);
    }

    /** Makes connections that share one event-loop group and listener. */
    public static final class Factory {
        private final EventLoopGroup loops;
        private final Listener listener;
        private final int connectTimeoutMs;

        public Factory(EventLoopGroup loops, Listener listener, int connectTimeoutMs) {
            this.loops = loops;
            this.listener = listener;
            this.connectTimeoutMs = connectTimeoutMs;
        }

        WireConnection create(String address) {
            return new WireConnection(address, this);
        }
    }

    /** Per event-loop thread: whether a read batch is being handled, and the connections written to meanwhile. */
    private static final class LoopState {
        boolean inRead;
        final List<WireConnection> dirty = new ArrayList<>();
    }

    private static final ThreadLocal<LoopState> LOOP = ThreadLocal.withInitial(LoopState::new);
    /** Largest frame accepted; stock's default (rocketmq.remoting.frameMaxLength) is 16 MiB. */
    private static final int MAX_FRAME = 16 * 1024 * 1024;

    private final String address;
    private final Factory factory;
    private volatile Channel channel;
    private ChannelFuture connecting;
    private boolean dirty;
    private volatile boolean closed;

    private WireConnection(String address, Factory factory) {
        this.address = address;
        this.factory = factory;
    }

    public String address() {
        return address;
    }

    /** The connected channel, or null when there is none (never connected, or lost). */
    public Channel activeChannel() {
        Channel c = channel;
        return c != null && c.isActive() ? c : null;
    }

    /** Connects, or joins the connection attempt under way; the future completes on the channel's event loop. */
    public synchronized ChannelFuture connect() {
        if (closed) {
            throw new IllegalStateException("connection to " + address + " is closed");
        }
        if (connecting != null && !connecting.isDone()) {
            return connecting;
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("broker address without port: " + address);
        }
        String host = address.substring(0, colon);
        int port = Integer.parseInt(address.substring(colon + 1));
        Bootstrap b = new Bootstrap()
            .group(factory.loops)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, false)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, factory.connectTimeoutMs)
            // The stock client's socket buffers (NettyClientConfig: 64 KiB each way).
            .option(ChannelOption.SO_SNDBUF, 65535)
            .option(ChannelOption.SO_RCVBUF, 65535)
            .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4), new Handler());
                }
            });
        connecting = b.connect(host, port);
        connecting.addListener(f -> {
            if (f.isSuccess()) {
                channel = ((ChannelFuture) f).channel();
                if (closed) {
                    channel.close();
                }
            }
        });
        return connecting;
    }

    /**
     * Writes one frame. On the channel's loop during a read batch the flush waits for the batch's end; otherwise it is
     * flushed at once (from another thread netty queues it to the loop).
     */
    public void write(Channel ch, ByteBuf frame) {
        if (ch.eventLoop().inEventLoop()) {
            LoopState state = LOOP.get();
            if (state.inRead) {
                ch.write(frame, ch.voidPromise());
                if (!dirty) {
                    dirty = true;
                    state.dirty.add(this);
                }
                return;
            }
        }
        ch.writeAndFlush(frame, ch.voidPromise());
    }

    public void close() {
        closed = true;
        Channel c = channel;
        if (c != null) {
            c.close();
        }
    }

    private final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            LOOP.get().inRead = true;
            ByteBuf frame = (ByteBuf) msg;
            try {
                factory.listener.onFrame(WireConnection.this, frame);
            } finally {
                frame.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            LoopState state = LOOP.get();
            state.inRead = false;
            List<WireConnection> dirtyNow = state.dirty;
            for (int i = 0; i < dirtyNow.size(); i++) {
                WireConnection c = dirtyNow.get(i);
                c.dirty = false;
                Channel ch = c.channel;
                if (ch != null) {
                    ch.flush();
                }
            }
            dirtyNow.clear();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            factory.listener.onClosed(WireConnection.this, null);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A broken connection: close it; channelInactive then fails what was in flight on it.
            factory.listener.onClosed(WireConnection.this, cause);
            ctx.close();
        }
    }
}
