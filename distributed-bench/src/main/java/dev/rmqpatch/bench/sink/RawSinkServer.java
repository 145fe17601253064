package dev.rmqpatch.bench.sink;

import dev.rmqpatch.bench.wire.Decimal;
import dev.rmqpatch.bench.wire.FrameTemplate;
import dev.rmqpatch.bench.wire.HeaderFields;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The raw sink, for the harness ceiling: a netty server on one loopback port that reads of each send request only its
 * code and opaque ({@link HeaderFields}, no header decoding) and answers with a SEND_MESSAGE response encoded once by
 * stock code, the opaque written in. Other requests (routes, topic creation, statistics) are decoded with stock code
 * and answered by {@link SinkControlPlane}. So a run against it measures the load generator, the kernel's TCP and this
 * thin loop, not a remoting layer: what the harness can drive on this machine.
 *
 * <p>Every response of a read batch is flushed once at the batch's end. The answer carries the same fields a broker's
 * does (msgId, queueId, queueOffset, MSG_REGION, TRACE_ON), constant: queue 0, offset 0.
 */
public final class RawSinkServer implements AutoCloseable {
    private static final int OPAQUE_SENTINEL = 1357924680;
    private static final int MAX_FRAME = 16 * 1024 * 1024;

    private final NioEventLoopGroup boss;
    private final NioEventLoopGroup workers;
    private final Channel server;
    private final String host;
    private final SinkControlPlane control;
    private final AtomicLong messages = new AtomicLong();
    private final FrameTemplate response;
    private final Consumer<byte[]> tap;

    /**
     * @param bindHost address to listen on and to announce in routes
     * @param threads  event-loop threads serving connections
     * @param tap      receives a copy of every send request frame (header-length field first), or null; for tests
     */
    public RawSinkServer(String bindHost, int port, int defaultQueues, int threads, Consumer<byte[]> tap) {
        dev.rmqpatch.bench.logging.ClientLogging.ensureConfigured();
        this.host = bindHost;
        this.tap = tap;
        this.response = FrameTemplate.of(responseTemplate(), Integer.toString(OPAQUE_SENTINEL));
        boss = new NioEventLoopGroup(1, new DefaultThreadFactory("raw-sink-accept", true));
        workers = new NioEventLoopGroup(threads, new DefaultThreadFactory("raw-sink-io", true));
        ServerBootstrap b = new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4), new Handler());
                }
            });
        server = b.bind(new InetSocketAddress(bindHost, port)).syncUninterruptibly().channel();
        this.control = new SinkControlPlane(() -> host + ":" + port(), defaultQueues, messages::get);
    }

    /** The answer a broker gives to a stored message, with a sentinel opaque (FrameTemplate cuts it out). */
    private static RemotingCommand responseTemplate() {
        RemotingCommand r = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader h = (SendMessageResponseHeader) r.readCustomHeader();
        h.setMsgId("7F00000100002A9F0000000000000000");
        h.setQueueId(0);
        h.setQueueOffset(0L);
        r.setCode(ResponseCode.SUCCESS);
        r.setRemark(null);
        r.addExtField(MessageConst.PROPERTY_MSG_REGION, "DefaultRegion");
        r.addExtField(MessageConst.PROPERTY_TRACE_SWITCH, "true");
        r.setOpaque(OPAQUE_SENTINEL);
        return r;
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    public long messages() {
        return messages.get();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void writeAck(ChannelHandlerContext ctx, int opaque) {
        int headerLength = response.constantLength() + Decimal.length(opaque);
        ByteBuf out = ctx.alloc().directBuffer(8 + headerLength);
        out.writeInt(4 + headerLength);
        out.writeInt(response.headerLengthField(headerLength));
        out.writeBytes(response.segment(0));
        Decimal.write(out, opaque);
        out.writeBytes(response.segment(1));
        ctx.write(out, ctx.voidPromise());
    }

    private void answerControl(ChannelHandlerContext ctx, ByteBuf frame, int opaque) {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), bytes);
        RemotingCommand request = RemotingCommand.decode(bytes);
        RemotingCommand answer = control.process(request);
        answer.setOpaque(opaque);
        answer.markResponseType();
        ByteBuffer encoded = answer.encode();
        ByteBuf out = ctx.alloc().buffer(encoded.remaining());
        out.writeBytes(encoded);
        ctx.write(out, ctx.voidPromise());
    }

    private final class Handler extends ChannelInboundHandlerAdapter {
        private final HeaderFields fields = new HeaderFields();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                fields.read(frame);
                int code = fields.code;
                boolean oneway = (fields.flag & 2) != 0;
                if (code == RequestCode.SEND_MESSAGE_V2 || code == RequestCode.SEND_MESSAGE || code == RequestCode.SEND_BATCH_MESSAGE) {
                    messages.incrementAndGet();
                    if (tap != null) {
                        byte[] copy = new byte[frame.readableBytes()];
                        frame.getBytes(frame.readerIndex(), copy);
                        tap.accept(copy);
                    }
                    if (!oneway) {
                        writeAck(ctx, fields.opaque);
                    }
                } else if (!oneway) {
                    answerControl(ctx, frame, fields.opaque);
                }
            } finally {
                frame.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A malformed frame or a reset connection: drop the connection, as the stock server does.
            ctx.close();
        }
    }
}
