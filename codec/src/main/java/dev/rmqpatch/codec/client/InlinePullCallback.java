package dev.rmqpatch.codec.client;

import org.apache.rocketmq.client.consumer.PullCallback;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.RemotingClient;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.netty.NettyRemotingAbstract;
import org.apache.rocketmq.remoting.netty.ResponseFuture;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * P31. A push consumer pulls asynchronously: {@code MQClientAPIImpl.pullMessageAsync(addr, request, timeout,
 * pullCallback)} wraps the consumer's own {@code PullCallback} (the anonymous {@code DefaultMQPushConsumerImpl$1} of
 * {@code pullMessage}) in an {@code InvokeCallback}, and when the pull's response has been read, stock's
 * {@code NettyRemotingAbstract.executeInvokeCallback} submits that callback to the client's callback executor
 * ({@code NettyClientPublicExecutor_*}): a thread woken per pull, only to decode the messages, put them into the process
 * queue, submit them to the consume executor and queue the next pull, none of which blocks.
 * <p>
 * Here {@code pullMessageAsync} notes, on entry, whether its {@code PullCallback} is the push consumer's
 * ({@link #pullMessageAsync}); its {@code invokeAsync} call then marks that pull's {@code InvokeCallback}
 * ({@link #invokeAsync}: the same callback inside a {@link PushConsumerPull}); and {@link #executeInvokeCallback} runs
 * a marked callback on the thread that completed the pull (the client's IO thread with P26, or the timer thread that
 * expired it, as stock's own "run in this thread" fallback does), with stock's catch, log and release. Every other
 * callback still goes to the executor as stock sends it: asynchronous sends' (the application's {@code SendCallback}),
 * and asynchronous pulls whose {@code PullCallback} is the application's own (the pull consumer's
 * {@code pull(..., PullCallback)}), since application code must not run on the IO thread.
 */
public final class InlinePullCallback {

    /** The push consumer's own PullCallback, created per pull request by {@code DefaultMQPushConsumerImpl.pullMessage}. */
    static final String PUSH_CONSUMER_PULL_CALLBACK = "org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl$1";

    /** Per PullCallback class: whether it is the push consumer's own. */
    private static final ClassValue<Boolean> IS_PUSH_CONSUMERS = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return PUSH_CONSUMER_PULL_CALLBACK.equals(type.getName());
        }
    };

    /** Set by {@link #pullMessageAsync} on entry, taken by the {@link #invokeAsync} of the same call on the same thread. */
    private static final ThreadLocal<Boolean> PUSH_CONSUMERS_PULL = new ThreadLocal<Boolean>();

    private InlinePullCallback() {
    }

    /**
     * Entry hook of {@code MQClientAPIImpl.pullMessageAsync}: notes whether this pull is the push consumer's, and
     * declines (false), so that the stock body runs.
     */
    public static boolean pullMessageAsync(MQClientAPIImpl api, String addr, RemotingCommand request, long timeoutMillis,
                                           PullCallback pullCallback) {
        PUSH_CONSUMERS_PULL.set(isPushConsumers(pullCallback) ? Boolean.TRUE : Boolean.FALSE);
        return false;
    }

    /** Instead of {@code remotingClient.invokeAsync(...)} in {@code pullMessageAsync}: the same call, its callback marked. */
    public static void invokeAsync(RemotingClient client, String addr, RemotingCommand request, long timeoutMillis,
                                   InvokeCallback callback) throws InterruptedException, RemotingException {
        Boolean push = PUSH_CONSUMERS_PULL.get();
        PUSH_CONSUMERS_PULL.set(Boolean.FALSE);
        client.invokeAsync(addr, request, timeoutMillis, Boolean.TRUE.equals(push) ? new InlinePullExecution.PushConsumerPull(callback) : callback);
    }

    /** Whether {@code pullCallback} is the push consumer's own. */
    static boolean isPushConsumers(PullCallback pullCallback) {
        return pullCallback != null && IS_PUSH_CONSUMERS.get(pullCallback.getClass());
    }

    /** See {@link InlinePullExecution#executeInvokeCallback} (tests). */
    static boolean executeInvokeCallback(NettyRemotingAbstract remoting, ResponseFuture responseFuture) {
        return InlinePullExecution.executeInvokeCallback(remoting, responseFuture);
    }

    /** See {@link InlinePullExecution#onIoThread}. */
    public static boolean onIoThread() {
        return InlinePullExecution.onIoThread();
    }

    static void enterIoThreadCallback() {
        InlinePullExecution.enterIoThreadCallback();
    }

    static void leaveIoThreadCallback() {
        InlinePullExecution.leaveIoThreadCallback();
    }
}
