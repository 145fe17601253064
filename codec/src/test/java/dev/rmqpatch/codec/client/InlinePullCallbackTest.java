package dev.rmqpatch.codec.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullCallback;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl;
import org.apache.rocketmq.client.impl.consumer.ProcessQueue;
import org.apache.rocketmq.client.impl.consumer.PullRequest;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.RemotingClient;
import org.apache.rocketmq.remoting.common.SemaphoreReleaseOnlyOnce;
import org.apache.rocketmq.remoting.netty.ResponseFuture;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;

/**
 * P31 on the 4.9.0 client's own classes: the push consumer's callback is the one {@code DefaultMQPushConsumerImpl.pullMessage}
 * creates and the InvokeCallback the one {@code MQClientAPIImpl.pullMessageAsync} creates (both built here through
 * their constructors, as those methods build them), so a RocketMQ build whose anonymous classes are numbered or
 * captured differently fails here.
 */
class InlinePullCallbackTest {

    /** {@code new InvokeCallback() {...}} of {@code pullMessageAsync}, around {@code pullCallback}. */
    private static InvokeCallback pullMessageAsyncCallback(PullCallback pullCallback) throws Exception {
        Constructor<?> c = Class.forName("org.apache.rocketmq.client.impl.MQClientAPIImpl$2").getDeclaredConstructor(
            MQClientAPIImpl.class, String.class, PullCallback.class, RemotingCommand.class, long.class);
        c.setAccessible(true);
        return (InvokeCallback) c.newInstance(null, "127.0.0.1:10911", pullCallback, RemotingCommand.createRequestCommand(11, null), 3000L);
    }

    /** {@code new PullCallback() {...}} of {@code DefaultMQPushConsumerImpl.pullMessage}, for a push consumer never started. */
    private static PullCallback pushConsumersPullCallback() throws Exception {
        Class<?> type = Class.forName(InlinePullCallback.PUSH_CONSUMER_PULL_CALLBACK);
        Constructor<?> c = type.getDeclaredConstructor(DefaultMQPushConsumerImpl.class, PullRequest.class, SubscriptionData.class,
            long.class, ProcessQueue.class);
        c.setAccessible(true);
        PullRequest request = new PullRequest();
        request.setConsumerGroup("g");
        request.setMessageQueue(new MessageQueue("%RETRY%g", "broker-a", 0));
        return (PullCallback) c.newInstance(new DefaultMQPushConsumer("g").getDefaultMQPushConsumerImpl(), request, null,
            System.currentTimeMillis(), new ProcessQueue());
    }

    /** An application's own callback, as a pull consumer's {@code pull(..., PullCallback)} passes it. */
    private static final PullCallback APPLICATIONS = new PullCallback() {
        @Override
        public void onSuccess(PullResult pullResult) {
        }

        @Override
        public void onException(Throwable e) {
        }
    };

    /** A RemotingClient that records the callbacks its invokeAsync is given. */
    private static RemotingClient recording(List<InvokeCallback> given) {
        return (RemotingClient) Proxy.newProxyInstance(RemotingClient.class.getClassLoader(), new Class<?>[] {RemotingClient.class},
            (proxy, method, args) -> {
                if (method.getName().equals("invokeAsync")) {
                    given.add((InvokeCallback) args[3]);
                }
                return null;
            });
    }

    /** What pullMessageAsync hands to invokeAsync for {@code pullCallback}, through the two edits. */
    private static InvokeCallback pulled(PullCallback pullCallback) throws Exception {
        List<InvokeCallback> given = new ArrayList<>();
        RemotingCommand request = RemotingCommand.createRequestCommand(11, null);
        assertFalse(InlinePullCallback.pullMessageAsync(null, "127.0.0.1:10911", request, 3000, pullCallback),
            "the entry hook only notes; the stock body runs");
        InvokeCallback stock = pullMessageAsyncCallback(pullCallback);
        InlinePullCallback.invokeAsync(recording(given), "127.0.0.1:10911", request, 3000, stock);
        assertEquals(1, given.size());
        return given.get(0);
    }

    /** A response future that records where its callback ran; the permit it releases is {@code permits}'. */
    private static final class Recording extends ResponseFuture {
        final List<String> ranOn = new ArrayList<>();

        Recording(InvokeCallback callback, Semaphore permits) {
            this(null, callback, permits);
        }

        Recording(io.netty.channel.Channel channel, InvokeCallback callback, Semaphore permits) {
            super(channel, 1, 3000, callback, new SemaphoreReleaseOnlyOnce(permits));
        }

        @Override
        public void executeInvokeCallback() {
            ranOn.add(Thread.currentThread().getName());
            super.executeInvokeCallback();
        }
    }

    @Test
    void onlyThePushConsumersOwnPullIsMarked() throws Exception {
        assertTrue(InlinePullCallback.isPushConsumers(pushConsumersPullCallback()));
        assertFalse(InlinePullCallback.isPushConsumers(APPLICATIONS));
        assertFalse(InlinePullCallback.isPushConsumers(null));
        InvokeCallback push = pulled(pushConsumersPullCallback());
        assertTrue(push instanceof InlinePullExecution.PushConsumerPull, String.valueOf(push));
        assertEquals("org.apache.rocketmq.client.impl.MQClientAPIImpl$2",
            ((InlinePullExecution.PushConsumerPull) push).stock.getClass().getName(), "stock's callback inside, unchanged");
        InvokeCallback application = pulled(APPLICATIONS);
        assertEquals("org.apache.rocketmq.client.impl.MQClientAPIImpl$2", application.getClass().getName(),
            "an application's PullCallback: stock's callback as it was");
        // The note is taken by the call it was made for: a later invokeAsync on this thread is not marked.
        pulled(pushConsumersPullCallback());
        List<InvokeCallback> given = new ArrayList<>();
        InvokeCallback other = f -> { };
        InlinePullCallback.invokeAsync(recording(given), "a", RemotingCommand.createRequestCommand(11, null), 1, other);
        assertSame(other, given.get(0));
    }

    @Test
    void aPushConsumersPullIsHandledOnTheCallingThreadWithStocksCatchAndOneRelease() throws Exception {
        Semaphore permits = new Semaphore(0);
        Recording f = new Recording(pulled(pushConsumersPullCallback()), permits);
        f.putResponse(null);
        // The consumer was never started: its callback's onException throws (no client instance to queue the next
        // pull on). Stock's fallback catches and logs that, then releases: so does the hook.
        assertTrue(InlinePullCallback.executeInvokeCallback(null, f));
        assertEquals(List.of(Thread.currentThread().getName()), f.ranOn, "ran here, before the hook returned");
        assertEquals(1, permits.availablePermits(), "the request's permit released");
        assertTrue(InlinePullCallback.executeInvokeCallback(null, f), "a second completion (a timeout racing the response)");
        assertEquals(1, permits.availablePermits(), "released once only, as stock's SemaphoreReleaseOnlyOnce");
    }

    @Test
    void everyOtherCallbackIsLeftToTheStockBodyUntouched() throws Exception {
        for (InvokeCallback other : new InvokeCallback[] {pulled(APPLICATIONS), pullMessageAsyncCallback(pushConsumersPullCallback()),
            f -> { }}) {
            Semaphore permits = new Semaphore(0);
            Recording f = new Recording(other, permits);
            assertFalse(InlinePullCallback.executeInvokeCallback(null, f));
            assertEquals(List.of(), f.ranOn, "not run: the stock body submits it to the callback executor");
            assertEquals(0, permits.availablePermits(), "not released: the executor's task does that");
        }
        assertNull(new Recording(null, new Semaphore(0)).getInvokeCallback());
        assertFalse(InlinePullCallback.executeInvokeCallback(null, new Recording(null, new Semaphore(0))));
    }

    /** A channel without an event loop (a test double, as upstream's client tests use): handled as with no channel. */
    @Test
    void aChannelWithoutAnEventLoopIsHandledAsStockWouldNotNotice() throws Exception {
        io.netty.channel.Channel noLoop = (io.netty.channel.Channel) java.lang.reflect.Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {io.netty.channel.Channel.class},
            (proxy, m, args) -> m.getName().equals("hashCode") ? System.identityHashCode(proxy) : null);
        Semaphore permits = new Semaphore(0);
        Recording f = new Recording(noLoop, pulled(pushConsumersPullCallback()), permits);
        f.putResponse(null);
        assertTrue(InlinePullCallback.executeInvokeCallback(null, f));
        assertEquals(1, permits.availablePermits(), "the request's permit released");
        assertFalse(InlinePullCallback.onIoThread());
    }
}
