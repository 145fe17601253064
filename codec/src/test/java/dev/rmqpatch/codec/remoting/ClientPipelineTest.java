package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import org.junit.jupiter.api.Test;

/**
 * P26 adds the client's handlers with the same names and in the same order as stock, but on the channel's own event
 * loop. (What the client then does with them, frame for frame against a loopback server, is ClientPipelineIT's.)
 */
class ClientPipelineTest {

    @Test
    void sameHandlersSameNamesSameOrderOnTheEventLoop() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(2);
        try {
            EmbeddedChannel stock = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            EmbeddedChannel patched = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            ChannelHandler[] stockHandlers = handlers();
            ChannelHandler[] patchedHandlers = handlers();
            ChannelHandler stockTls = new ChannelInboundHandlerAdapter();
            ChannelHandler patchedTls = new ChannelInboundHandlerAdapter();
            stock.pipeline().addFirst(group, "sslHandler", stockTls);
            stock.pipeline().addLast(group, stockHandlers);
            ClientPipeline.addFirst(patched.pipeline(), group, "sslHandler", patchedTls);
            ClientPipeline.addLast(patched.pipeline(), group, patchedHandlers);

            assertEquals(stock.pipeline().names(), patched.pipeline().names(), "same names, same order");
            assertEquals("sslHandler", patched.pipeline().names().get(0), "TLS first, as stock");
            assertSame(patched.eventLoop(), patched.pipeline().context(patchedTls).executor(), "TLS on the event loop");
            assertNotSame(stock.eventLoop(), stock.pipeline().context(stockTls).executor(), "stock hands TLS off");
            for (int i = 0; i < patchedHandlers.length; i++) {
                assertSame(patched.eventLoop(), patched.pipeline().context(patchedHandlers[i]).executor(), "handler " + i);
                assertNotSame(stock.eventLoop(), stock.pipeline().context(stockHandlers[i]).executor(), "stock hands off " + i);
                assertSame(patchedHandlers[i], patched.pipeline().get(stock.pipeline().context(stockHandlers[i]).name()),
                    "handler " + i + " under stock's name");
            }
        } finally {
            group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).sync();
        }
    }

    private static ChannelHandler[] handlers() {
        ChannelHandler[] h = new ChannelHandler[5];
        for (int i = 0; i < h.length; i++) {
            h[i] = new ChannelInboundHandlerAdapter();
        }
        return h;
    }
}
