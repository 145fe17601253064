package dev.rmqpatch.codec.remoting;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * P26, the client's half of P7. Stock 4.9.0's {@code NettyRemotingClient} adds every handler of a connection (the TLS
 * handler when TLS is on, encoder, decoder, idle handler, connection manager, response dispatch) with its
 * {@code defaultEventExecutorGroup} ("NettyClientWorkerThread_N"), so every response read on the client's one netty
 * IO thread ("NettyClientSelector_1") is handed to a worker thread to be decoded and dispatched, and every request
 * written by an application thread goes to a worker thread to be encoded before the IO thread writes it. Here the
 * same handlers, with the same names and order, are added without the group, so they run on the connection's event
 * loop: one thread hand-off fewer each way. What the handlers do is unchanged: a response completes a synchronous
 * call's future on the thread that decoded it (as stock's worker did), an asynchronous call's callback still runs on
 * the client's callback executor, a request from the server still runs on its processor's executor. The group
 * argument is ignored on purpose; stock creates and shuts the group down as before (its threads start only when
 * something is submitted to them, which now nothing does).
 */
public final class ClientPipeline {

    private ClientPipeline() {
    }

    /** Instead of {@code pipeline.addFirst(group, "sslHandler", handler)} when the client uses TLS. */
    public static ChannelPipeline addFirst(ChannelPipeline pipeline, EventExecutorGroup group, String name,
                                           ChannelHandler handler) {
        return pipeline.addFirst(name, handler);
    }

    /** Instead of {@code pipeline.addLast(group, encoder, decoder, idle, connectionManager, clientHandler)}. */
    public static ChannelPipeline addLast(ChannelPipeline pipeline, EventExecutorGroup group, ChannelHandler[] handlers) {
        return pipeline.addLast(handlers);
    }
}
