package dev.rmqpatch.codec.client;

import org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl;
import org.apache.rocketmq.client.impl.consumer.PullMessageService;
import org.apache.rocketmq.client.impl.consumer.PullRequest;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.log.ClientLogger;
import org.apache.rocketmq.logging.InternalLogger;

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
 * the asynchronous-request permit when none is free) asks {@link InlinePullGuard} first, which, when the pull is being
 * made inline, throws instead of waiting; the pull is then queued for the {@code PullMessageService}
 * exactly as stock queues it, and that thread does the waiting. An orderly consumer's first pull after taking a queue's
 * lock (which may read the offset from the broker or a file), a consumer no longer registered and a stopped pull
 * service are queued at once, as stock would.
 * <p>
 * What the pull does is stock's own {@code pullMessage}: flow control, pause, subscription, offsets, and what it logs;
 * an exception it throws is logged and the request dropped, as {@code PullMessageService.run} does. Only the thread
 * differs: the request's RPC hooks run on the IO thread, and a refused pull has passed them once before it is queued.
 */
public final class InlineNextPull {

    /**
     * The client's logger, looked up at first use: {@code ClientLogger}'s initialisation switches RocketMQ's logging
     * to the client's own files, which must never happen in a broker (whose remoting jar calls {@link InlinePullGuard}).
     */
    private static final class Log {
        static final InternalLogger LOG = ClientLogger.getLog();
    }

    private InlineNextPull() {
    }

    /**
     * Instead of {@code DefaultMQPushConsumerImpl.this.executePullRequestImmediately(pullRequest)} in the push
     * consumer's pull callback: on the IO thread that ran the callback (P31), the next pull is made here; everywhere
     * else, and whenever it would wait, it is queued as stock queues it.
     */
    public static void executePullRequestImmediately(DefaultMQPushConsumerImpl consumer, PullRequest pullRequest) {
        if (!InlinePullCallback.onIoThread() || InlinePullGuard.inline() || !mayPullHere(consumer, pullRequest)) {
            consumer.executePullRequestImmediately(pullRequest);
            return;
        }
        InlinePullGuard.enter();
        try {
            consumer.pullMessage(pullRequest);
        } catch (InlinePullGuard.WouldBlock queued) {
            consumer.executePullRequestImmediately(pullRequest); // a queue put: no guarded point on its way
        } catch (Exception e) {
            // as PullMessageService.run: logged, the request dropped
            Log.LOG.error("Pull Message Service Run Method exception", e);
        } finally {
            InlinePullGuard.leave();
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
}
