package dev.rmqpatch.codec.client;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;

import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.netty.NettyRemotingAbstract;
import org.apache.rocketmq.remoting.netty.ResponseFuture;

/**
 * P31. A push consumer pulls asynchronously: {@code MQClientAPIImpl.pullMessageAsync} wraps the consumer's own
 * {@code PullCallback} (the anonymous {@code DefaultMQPushConsumerImpl$1} of {@code pullMessage}) in an
 * {@code InvokeCallback} ({@code MQClientAPIImpl$2}), and when the pull's response has been read, stock's
 * {@code NettyRemotingAbstract.executeInvokeCallback} submits that callback to the client's callback executor
 * ({@code NettyClientPublicExecutor_*}): a thread woken per pull, only to decode the messages, put them into the process
 * queue, submit them to the consume executor and queue the next pull, none of which blocks.
 * <p>
 * This runs exactly that callback on the thread that completed the pull (the client's IO thread with P26, or the
 * timer thread that expired it, as stock's own "run in this thread" fallback does), with stock's catch, log and
 * release. Every other callback still goes to the executor as stock sends it: asynchronous sends' (the application's
 * {@code SendCallback}), and asynchronous pulls whose {@code PullCallback} is the application's own (the pull
 * consumer's {@code pull(..., PullCallback)}), since application code must not run on the IO thread.
 * <p>
 * The push consumer's callback is recognised by class: the {@code InvokeCallback} of {@code pullMessageAsync} and the
 * class of its captured {@code PullCallback} (read once per class through a method handle on the synthetic field).
 * A class without that field, a different RocketMQ build, is never run here.
 */
public final class InlinePullCallback {

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(RemotingHelper.ROCKETMQ_REMOTING);

    /** The InvokeCallback that {@code MQClientAPIImpl.pullMessageAsync} creates (4.9.0). */
    static final String PULL_INVOKE_CALLBACK = "org.apache.rocketmq.client.impl.MQClientAPIImpl$2";
    /** Its field holding the {@code PullCallback} it was given. */
    static final String PULL_CALLBACK_FIELD = "val$pullCallback";
    /** The push consumer's own PullCallback, created per pull request by {@code DefaultMQPushConsumerImpl.pullMessage}. */
    static final String PUSH_CONSUMER_PULL_CALLBACK = "org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl$1";

    /** Per InvokeCallback class: the getter of its PullCallback when it is pullMessageAsync's, else null. */
    private static final ClassValue<MethodHandle> PULL_CALLBACK_OF = new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            if (!PULL_INVOKE_CALLBACK.equals(type.getName())) {
                return null;
            }
            try {
                Field f = type.getDeclaredField(PULL_CALLBACK_FIELD);
                f.setAccessible(true);
                return MethodHandles.lookup().unreflectGetter(f);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.warn("rmqpatch P31: {} has no readable {} ({}); pull callbacks stay on the callback executor", type.getName(),
                    PULL_CALLBACK_FIELD, e.toString());
                return null;
            }
        }
    };

    /** Per PullCallback class: whether it is the push consumer's own. */
    private static final ClassValue<Boolean> IS_PUSH_CONSUMERS = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return PUSH_CONSUMER_PULL_CALLBACK.equals(type.getName());
        }
    };

    private InlinePullCallback() {
    }

    /**
     * Entry hook of {@code NettyRemotingAbstract.executeInvokeCallback(ResponseFuture)}: runs a push consumer's pull
     * callback here, as stock runs a callback its executor refused (catch and log what it throws, then release the
     * request's permit), and returns true; returns false for every other callback, which the stock body then submits.
     */
    public static boolean executeInvokeCallback(NettyRemotingAbstract remoting, ResponseFuture responseFuture) {
        if (!runsHere(responseFuture.getInvokeCallback())) {
            return false;
        }
        try {
            responseFuture.executeInvokeCallback();
        } catch (Throwable e) {
            LOG.warn("executeInvokeCallback Exception", e);
        } finally {
            responseFuture.release();
        }
        return true;
    }

    /** Whether {@code callback} is {@code pullMessageAsync}'s around the push consumer's own PullCallback. */
    public static boolean runsHere(InvokeCallback callback) {
        if (callback == null) {
            return false;
        }
        MethodHandle pullCallback = PULL_CALLBACK_OF.get(callback.getClass());
        if (pullCallback == null) {
            return false;
        }
        Object inner;
        try {
            inner = pullCallback.invoke((Object) callback);
        } catch (Throwable e) {
            return false;
        }
        return inner != null && IS_PUSH_CONSUMERS.get(inner.getClass());
    }
}
