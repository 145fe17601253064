package dev.rmqpatch.bench.agent.wire;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.List;

/**
 * One TCP connection of the wire client to a broker, (re)connected on demand. Frames are cut from the stream in place
 * (stock's NettyDecoder framing: a 4-byte length, then the frame) and go to the {@link Listener} without a buffer
 * object per frame. Frames written while the loop handles incoming frames are appended to one buffer per connection,
 * written and flushed once when the read batch ends: one system call and one buffer for all the requests those
 * answers released, instead of one of each per message. The bytes on the wire are the same as writing and flushing
 * each frame in turn.
 */
public final class WireConnection {
    /** Receives what happens on a connection; called on its event loop. */
    public interface Listener {
        /**
         * One frame: {@code buf}'s reader index is at the frame's header-length field (its length field already read)
         * and the frame is the next {@code length} bytes. The buffer and its indexes are only lent for the call.
         */
        void onFrame(WireConnection connection, ByteBuf buf, int length);

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
        final List<Handler> dirty = new ArrayList<>();
    }

    private static final ThreadLocal<LoopState> LOOP = ThreadLocal.withInitial(LoopState::new);
    /** Largest frame accepted; stock's default (rocketmq.remoting.frameMaxLength) is 16 MiB. */
    private static final int MAX_FRAME = 16 * 1024 * 1024;
    /** Smallest batch buffer; a connection's next batch buffer is sized for its largest batch so far. */
    private static final int MIN_BATCH = 4096;

    private final String address;
    private final Factory factory;
    private volatile Channel channel;
    private ChannelFuture connecting;
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
                    ch.pipeline().addLast(new Handler());
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
     * A buffer to write one frame of {@code length} bytes into, at its writer index; hand it to {@link #endFrame} when
     * the frame is written. On the channel's loop during a read batch it is the batch buffer (the frame is appended to
     * the frames the same batch released before it, and flushed with them when the batch ends); otherwise a buffer of
     * its own, written and flushed at once.
     */
    public ByteBuf beginFrame(Channel ch, int length) {
        if (ch.eventLoop().inEventLoop()) {
            LoopState state = LOOP.get();
            ChannelHandler last;
            if (state.inRead && (last = ch.pipeline().last()) instanceof Handler) {
                return ((Handler) last).batch(state, length);
            }
        }
        return ch.alloc().directBuffer(length);
    }

    /** Ends the frame written into {@code buf} (from {@link #beginFrame}): written now, or with its batch. */
    public void endFrame(Channel ch, ByteBuf buf) {
        ChannelHandler last = ch.pipeline().last();
        if (!(last instanceof Handler) || ((Handler) last).batch != buf) {
            ch.writeAndFlush(buf, ch.voidPromise());
        }
    }

    public void close() {
        closed = true;
        Channel c = channel;
        if (c != null) {
            c.close();
        }
    }

    /** Cuts frames from the stream in place; at the end of a read batch, writes what the frames released. */
    private final class Handler extends ByteToMessageDecoder {
        /** Frames of the current read batch not yet written, or null; only touched on the channel's event loop. */
        ByteBuf batch;
        private boolean dirty;
        private int batchCapacity = MIN_BATCH;
        private Channel channel;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
            channel = ctx.channel();
            super.handlerAdded(ctx);
        }

        ByteBuf batch(LoopState state, int length) {
            if (batch == null) {
                batch = channel.alloc().directBuffer(Math.max(batchCapacity, length));
            }
            if (!dirty) {
                dirty = true;
                state.dirty.add(this);
            }
            return batch;
        }

        /** Writes and flushes the batch; on the channel's event loop. */
        void flushBatch() {
            dirty = false;
            ByteBuf b = batch;
            batch = null;
            if (b == null) {
                return;
            }
            int size = b.readableBytes();
            if (size > batchCapacity) {
                batchCapacity = size;
            }
            if (size == 0) {
                b.release();
                return;
            }
            // A closed channel fails the write and releases the buffer; what was in flight is failed by channelInactive.
            channel.writeAndFlush(b, channel.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            LOOP.get().inRead = true;
            super.channelRead(ctx, msg);
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            while (in.readableBytes() >= 4) {
                int start = in.readerIndex();
                int length = in.getInt(start);
                if (length < 0 || length > MAX_FRAME) {
                    throw new TooLongFrameException("frame length " + length + " (at most " + MAX_FRAME + ")");
                }
                if (in.readableBytes() - 4 < length) {
                    return;
                }
                in.readerIndex(start + 4);
                try {
                    factory.listener.onFrame(WireConnection.this, in, length);
                } finally {
                    in.readerIndex(start + 4 + length);
                }
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
            LoopState state = LOOP.get();
            state.inRead = false;
            List<Handler> dirtyNow = state.dirty;
            for (int i = 0; i < dirtyNow.size(); i++) {
                dirtyNow.get(i).flushBatch();
            }
            dirtyNow.clear();
            super.channelReadComplete(ctx);
        }

        @Override
        protected void handlerRemoved0(ChannelHandlerContext ctx) {
            if (batch != null) {
                batch.release();
                batch = null;
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            factory.listener.onClosed(WireConnection.this, null);
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A broken connection: close it; channelInactive then fails what was in flight on it.
            factory.listener.onClosed(WireConnection.this, cause);
            ctx.close();
        }
    }
}
