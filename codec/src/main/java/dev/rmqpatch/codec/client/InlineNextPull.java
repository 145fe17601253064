package dev.rmqpatch.codec.client;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl;
import org.apache.rocketmq.client.impl.consumer.PullMessageService;
import org.apache.rocketmq.client.impl.consumer.PullRequest;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.log.ClientLogger;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * P33. When a push consumer's pull has been answered, its callback ({@code DefaultMQPushConsumerImpl$1.onSuccess})
 * queues the next pull of the same queue: {@code executePullRequestImmediately} puts it into the
 * {@code PullMessageService}'s queue, whose thread is woken to call {@code DefaultMQPushConsumerImpl.pullMessage}, which
 * hands the request to the IO thread (another wake-up) to be written. With P31 that callback already runs on the IO
 * thread that read the answer, so here the IO thread calls {@code pullMessage} itself ({@link #executePullRequestImmediately})
 * and the request is written where it is made: per pull, two thread hand-offs fewer.
 * <p>
 * The IO thread must never wait, so the next pull runs there only as far as nothing on its way would block: every
 * point of the pull path that can wait (a name-server route look-up's lock and its synchronous call, a new connection,
 * the asynchronous-request permit when none is free) checks {@link #refuseIfInline()} first, and when the pull is being
 * made inline it throws {@link WouldBlock} instead of waiting; the pull is then queued for the {@code PullMessageService}
 * exactly as stock queues it, and that thread does the waiting. An orderly consumer's first pull after taking a queue's
 * lock (which may read the offset from the broker or a file), a consumer no longer registered and a stopped pull
 * service are queued at once, as stock would.
 * <p>
 * What the pull does is stock's own {@code pullMessage}: flow control, pause, subscription, offsets, and what it logs;
 * an exception it throws is logged and the request dropped, as {@code PullMessageService.run} does. Only the thread
 * differs: the request's RPC hooks run on the IO thread, and a refused pull has passed them once before it is queued.
 */
public final class InlineNextPull {

    private static final InternalLogger LOG = ClientLogger.getLog();

    /** Set while this thread makes a pull inline: the blocking points refuse instead of waiting. */
    private static final ThreadLocal<Boolean> INLINE = new ThreadLocal<Boolean>();

    private InlineNextPull() {
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

    /**
     * Instead of {@code DefaultMQPushConsumerImpl.this.executePullRequestImmediately(pullRequest)} in the push
     * consumer's pull callback: on the IO thread that ran the callback (P31), the next pull is made here; everywhere
     * else, and whenever it would wait, it is queued as stock queues it.
     */
    public static void executePullRequestImmediately(DefaultMQPushConsumerImpl consumer, PullRequest pullRequest) {
        if (!InlinePullCallback.onIoThread() || INLINE.get() != null || !mayPullHere(consumer, pullRequest)) {
            consumer.executePullRequestImmediately(pullRequest);
            return;
        }
        INLINE.set(Boolean.TRUE);
        try {
            consumer.pullMessage(pullRequest);
        } catch (WouldBlock queued) {
            INLINE.remove();
            consumer.executePullRequestImmediately(pullRequest);
        } catch (Exception e) {
            // as PullMessageService.run: logged, the request dropped
            LOG.error("Pull Message Service Run Method exception", e);
        } finally {
            INLINE.remove();
        }
    }

    /**
     * Whether stock's pull service would hand this request to {@code consumer.pullMessage} at once, and that call cannot
     * start with a blocking offset read: the service runs, the group's registered consumer is this one, and an orderly
     * consumer has fixed the queue's offset already.
     */
    static boolean mayPullHere(DefaultMQPushConsumerImpl consumer, PullRequest pullRequest) {
        MQClientInstance factory = consumer.getmQClientFactory();
        if (factory == null) {
            return false;
        }
        PullMessageService service = factory.getPullMessageService();
        if (service == null || service.isStopped()) {
            return false;
        }
        if (factory.selectConsumer(pullRequest.getConsumerGroup()) != consumer) {
            return false;
        }
        return !consumer.isConsumeOrderly() || pullRequest.isPreviouslyLocked();
    }

    /** Whether this thread is making a pull inline now. */
    static boolean inline() {
        return INLINE.get() != null;
    }

    /** A blocking point's check: throws {@link WouldBlock} while a pull is being made inline on this thread. */
    static void refuseIfInline() {
        if (INLINE.get() != null) {
            throw WouldBlock.INSTANCE;
        }
    }

    /** Instead of {@code semaphoreAsync.tryAcquire(timeout, unit)} in {@code NettyRemotingAbstract.invokeAsyncImpl}. */
    public static boolean tryAcquire(Semaphore permits, long timeout, TimeUnit unit) throws InterruptedException {
        if (INLINE.get() != null) {
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
