package dev.rmqpatch.codec.remoting;

import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;

/**
 * P32. Every call a client makes is {@code channel.writeAndFlush(request)} from an application thread: a task for the
 * connection's event loop that writes the request and flushes it, one socket write per request. With P26 those tasks
 * reach the IO thread one by one as the application threads send them, and each socket write on a loopback or LAN
 * connection is one read the broker's IO thread is woken for; stock's worker-thread hop happened to bunch them.
 * <p>
 * Here the client's pipeline starts with netty's own {@link FlushConsolidationHandler} in the mode that consolidates
 * when no read is in progress: a flush asked for by a write task is done by a task queued behind the tasks already
 * waiting, so the requests that reached the event loop together leave in one socket write. The bytes and their order
 * are the same; a lone request leaves after at most the tasks queued before its flush. Flushes asked for while the
 * loop reads (a response to a request from the server) are consolidated until the read completes, as that handler
 * always does.
 */
public final class ClientFlushes {

    /** The handler's name in the pipeline. */
    public static final String NAME = "rmqpatchFlushConsolidation";
    /** Flushes after which one is done at once however busy the loop is (netty's default). */
    static final int EXPLICIT_FLUSH_AFTER_FLUSHES = 256;

    private ClientFlushes() {
    }

    /** Instead of {@code ch.pipeline()} at the start of the client's channel initializer: the pipeline, flushes batched. */
    public static ChannelPipeline pipeline(SocketChannel ch) {
        ChannelPipeline pipeline = ch.pipeline();
        pipeline.addFirst(NAME, handler());
        return pipeline;
    }

    /** Consolidating when no read is in progress too: the mode the flushes of write tasks need. */
    static FlushConsolidationHandler handler() {
        return new FlushConsolidationHandler(EXPLICIT_FLUSH_AFTER_FLUSHES, true);
    }
}
