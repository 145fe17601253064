package dev.rmqpatch.codec.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.netty.NettyRemotingAbstract;
import org.apache.rocketmq.remoting.netty.ResponseFuture;

/**
 * P31, the half that rocketmq-remoting calls ({@code NettyRemotingAbstract.executeInvokeCallback}): it names only
 * remoting and logging classes, so the patched rocketmq-remoting needs no rocketmq-client (nor rocketmq-common), as
 * stock remoting does not. The client half, which marks the push consumer's pulls, is {@link InlinePullCallback}.
 */
public final class InlinePullExecution {

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(RemotingHelper.ROCKETMQ_REMOTING);

    /** Set while a push consumer's pull callback runs here on the IO thread of the channel that answered (P33 reads it). */
    private static final ThreadLocal<Boolean> ON_IO_THREAD = new ThreadLocal<Boolean>();

    private InlinePullExecution() {
    }

    /** A pull's InvokeCallback that may run where the pull completed: the push consumer's own, unchanged. */
    static final class PushConsumerPull implements InvokeCallback {
        final InvokeCallback stock;

        PushConsumerPull(InvokeCallback stock) {
            this.stock = stock;
        }

        @Override
        public void operationComplete(ResponseFuture responseFuture) {
            stock.operationComplete(responseFuture);
        }
    }

    /**
     * Entry hook of {@code NettyRemotingAbstract.executeInvokeCallback(ResponseFuture)}: runs a push consumer's pull
     * callback here, as stock runs a callback its executor refused (catch and log what it throws, then release the
     * request's permit), and returns true; returns false for every other callback, which the stock body then submits.
     */
    public static boolean executeInvokeCallback(NettyRemotingAbstract remoting, ResponseFuture responseFuture) {
        if (!(responseFuture.getInvokeCallback() instanceof PushConsumerPull)) {
            return false;
        }
        // Stock never looks at the channel here: one without an event loop (a test double) is simply not an IO thread.
        Channel channel = responseFuture.getProcessChannel();
        EventLoop loop = channel != null ? channel.eventLoop() : null;
        boolean ioThread = loop != null && loop.inEventLoop();
        if (ioThread) {
            enterIoThreadCallback();
        }
        try {
            responseFuture.executeInvokeCallback();
        } catch (Throwable e) {
            LOG.warn("executeInvokeCallback Exception", e);
        } finally {
            if (ioThread) {
                leaveIoThreadCallback();
            }
            responseFuture.release();
        }
        return true;
    }

    /**
     * Whether this thread is running a push consumer's pull callback here, on the IO thread of the channel that
     * answered the pull (not the timer thread that expires one): where P33 may make the next pull.
     */
    public static boolean onIoThread() {
        return ON_IO_THREAD.get() != null;
    }

    /** From here this thread runs a push consumer's pull callback on the IO thread that read its answer. */
    static void enterIoThreadCallback() {
        ON_IO_THREAD.set(Boolean.TRUE);
    }

    /** The callback {@link #enterIoThreadCallback} announced has returned. */
    static void leaveIoThreadCallback() {
        ON_IO_THREAD.remove();
    }
}
