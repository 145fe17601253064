package dev.rmqpatch.codec.client;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * P33's guard at the points of the pull path that can wait: while {@link InlineNextPull} makes a pull on the IO thread
 * ({@link #enter} to {@link #leave}), each of them refuses ({@link WouldBlock}) instead of waiting, and the pull goes to
 * stock's queue; at every other time each is stock's call. It refers to no rocketmq-client class, because the broker's
 * remoting jar calls it too ({@code NettyRemotingClient}, {@code NettyRemotingAbstract}) and a broker must not
 * initialise the client's classes (their logger set-up would take over the broker's logging).
 */
public final class InlinePullGuard {

    /** Set while this thread makes a pull inline: the blocking points refuse instead of waiting. */
    private static final ThreadLocal<Boolean> INLINE = new ThreadLocal<Boolean>();

    private InlinePullGuard() {
    }

    /**
     * Thrown by a blocking point when the pull is being made inline: back to the stock queue. An Error, so that the
     * {@code catch (Exception)} blocks of the pull path pass it up unchanged; one instance without a stack trace.
     */
    static final class WouldBlock extends Error {
        private static final long serialVersionUID = 1L;
        static final WouldBlock INSTANCE = new WouldBlock();

        private WouldBlock() {
            super("rmqpatch P33: this pull would wait on the IO thread; queued for the PullMessageService instead", null,
                false, false);
        }
    }

    /** From here this thread makes a pull inline. */
    static void enter() {
        INLINE.set(Boolean.TRUE);
    }

    /** The inline pull {@link #enter} began is over (or refused). */
    static void leave() {
        INLINE.remove();
    }

    /** Whether this thread is making a pull inline now. */
    static boolean inline() {
        return INLINE.get() != null;
    }

    /** A blocking point's check: throws {@link WouldBlock} while a pull is being made inline on this thread. */
    static void refuseIfInline() {
        if (inline()) {
            throw WouldBlock.INSTANCE;
        }
    }

    /** Instead of {@code semaphoreAsync.tryAcquire(timeout, unit)} in {@code NettyRemotingAbstract.invokeAsyncImpl}. */
    public static boolean tryAcquire(Semaphore permits, long timeout, TimeUnit unit) throws InterruptedException {
        if (inline()) {
            if (permits.tryAcquire()) {
                return true;
            }
            throw WouldBlock.INSTANCE;
        }
        return permits.tryAcquire(timeout, unit);
    }

    /**
     * Instead of {@code lockNamesrv.tryLock(timeout, unit)} in {@code MQClientInstance.updateTopicRouteInfoFromNameServer}:
     * a route look-up is a synchronous call to a name server, never made inline.
     */
    public static boolean tryLock(Lock lock, long timeout, TimeUnit unit) throws InterruptedException {
        refuseIfInline();
        return lock.tryLock(timeout, unit);
    }

    /** Entry hook of {@code NettyRemotingClient.createChannel(addr)}: a connection is never opened inline; else declines. */
    public static Object createChannel(NettyRemotingClient client, String addr) {
        refuseIfInline();
        return null;
    }

    /** Entry hook of {@code NettyRemotingClient.invokeSync}: a synchronous call is never made inline; else declines. */
    public static RemotingCommand invokeSync(NettyRemotingClient client, String addr, RemotingCommand request,
                                             long timeoutMillis) {
        refuseIfInline();
        return null;
    }
}
