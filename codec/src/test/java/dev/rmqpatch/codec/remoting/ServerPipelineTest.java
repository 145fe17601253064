package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import org.junit.jupiter.api.Test;

/** P7 adds the same handlers, with the same names and order, but on the channel's own event loop. */
class ServerPipelineTest {

    @Test
    void handlersRunOnTheChannelsEventLoopNotTheGroup() throws Exception {
        DefaultEventExecutorGroup group = new DefaultEventExecutorGroup(1);
        try {
            EmbeddedChannel patched = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            ChannelHandler a = new ChannelInboundHandlerAdapter();
            ChannelHandler b = new ChannelInboundHandlerAdapter();
            ChannelHandler c = new ChannelInboundHandlerAdapter();
            ServerPipeline.addLast(patched.pipeline(), group, "handshake", a);
            ServerPipeline.addLast(patched.pipeline(), group, new ChannelHandler[] {b});
            ServerPipeline.addAfter(patched.pipeline(), group, "handshake", "tls", c);
            assertSame(patched.eventLoop(), patched.pipeline().context(a).executor());
            assertSame(patched.eventLoop(), patched.pipeline().context(c).executor());

            EmbeddedChannel stock = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            stock.pipeline().addLast(group, "handshake", new ChannelInboundHandlerAdapter());
            assertNotSame(stock.eventLoop(), stock.pipeline().context("handshake").executor(), "stock hands off");

            List<String> names = patched.pipeline().names();
            assertEquals(List.of("handshake", "tls"), names.subList(names.indexOf("handshake"), names.indexOf("handshake") + 2));
        } finally {
            group.shutdownGracefully().sync();
        }
    }
}
