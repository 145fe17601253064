package dev.rmqpatch.codec.remoting;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * P7. Stock 4.9.0 adds every handler of a server connection with its {@code defaultEventExecutorGroup}, so each
 * frame read on a netty IO thread is handed to a "NettyServerCodecThread" to be decoded and dispatched, and each
 * response written from a processor thread goes back through that codec thread before the IO thread flushes it:
 * two extra thread hand-offs per request, each a futex wake-up and often a context switch. Here the handlers
 * are added without a group, so they run on the connection's own event loop, as upstream made switchable in
 * 5.3.1. The group argument is ignored on purpose.
 */
public final class ServerPipeline {

    private ServerPipeline() {
    }

    /** Instead of {@code pipeline.addLast(group, name, handler)} in the server's channel initializer. */
    public static ChannelPipeline addLast(ChannelPipeline pipeline, EventExecutorGroup group, String name,
                                          ChannelHandler handler) {
        return pipeline.addLast(name, handler);
    }

    /** Instead of {@code pipeline.addLast(group, handlers...)} in the server's channel initializer. */
    public static ChannelPipeline addLast(ChannelPipeline pipeline, EventExecutorGroup group, ChannelHandler[] handlers) {
        return pipeline.addLast(handlers);
    }

    /** Instead of {@code pipeline.addAfter(group, baseName, name, handler)} where TLS is set up on a connection. */
    public static ChannelPipeline addAfter(ChannelPipeline pipeline, EventExecutorGroup group, String baseName,
                                           String name, ChannelHandler handler) {
        return pipeline.addAfter(baseName, name, handler);
    }
}
