package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import org.junit.jupiter.api.Test;

/** P32: the handler at the head of the client's pipeline, and what it does with the flushes of queued write tasks. */
class ClientFlushesTest {

    @Test
    void theClientsPipelineStartsWithFlushConsolidation() {
        NioSocketChannel ch = new NioSocketChannel();
        ChannelPipeline p = ClientFlushes.pipeline(ch);
        assertSame(ch.pipeline(), p, "the initializer goes on with the channel's own pipeline");
        assertTrue(p.first() instanceof FlushConsolidationHandler, String.valueOf(p.names()));
        assertEquals(ClientFlushes.NAME, p.names().get(0));
    }

    /** Counts the flushes that reach the transport, and the bytes each carries. */
    private static final class Transport extends ChannelOutboundHandlerAdapter {
        final List<Integer> flushedBytes = new ArrayList<>();
        int pending;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise promise) throws Exception {
            pending += ((ByteBuf) msg).readableBytes();
            super.write(ctx, msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) throws Exception {
            flushedBytes.add(pending);
            pending = 0;
            super.flush(ctx);
        }
    }

    @Test
    void requestsQueuedTogetherLeaveInOneFlushALoneOneInItsOwn() {
        Transport transport = new Transport();
        EmbeddedChannel ch = new EmbeddedChannel(transport);
        ch.pipeline().addLast(ClientFlushes.NAME, ClientFlushes.handler());
        // Three application threads' writeAndFlush tasks waiting on the event loop together.
        for (int i = 1; i <= 3; i++) {
            byte[] request = new byte[10 * i];
            ch.eventLoop().execute(() -> ch.writeAndFlush(Unpooled.wrappedBuffer(request)));
        }
        ch.runPendingTasks();
        assertEquals(List.of(60), transport.flushedBytes, "one flush for the three requests, after the last one's write");
        ch.eventLoop().execute(() -> ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[7])));
        ch.runPendingTasks();
        assertEquals(List.of(60, 7), transport.flushedBytes, "a lone request is flushed in the same pass of the loop");
        List<Integer> sizes = new ArrayList<>();
        for (ByteBuf b; (b = (ByteBuf) ch.readOutbound()) != null; b.release()) {
            sizes.add(b.readableBytes());
        }
        assertEquals(List.of(10, 20, 30, 7), sizes, "every request, in order, unchanged");
    }
}
