package dev.rmqpatch.codec.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.rmqpatch.codec.TestFields;
import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.store.RemoteBrokerOffsetStore;
import org.apache.rocketmq.client.impl.consumer.DefaultMQPushConsumerImpl;
import org.apache.rocketmq.client.impl.consumer.ProcessQueue;
import org.apache.rocketmq.client.impl.consumer.PullAPIWrapper;
import org.apache.rocketmq.client.impl.consumer.PullRequest;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.common.ServiceState;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * P33 on the 4.9.0 client's own classes: a push consumer (never started, so nothing connects) registered in a real
 * client instance, with the parts {@code start()} would give it, and a real {@code PullRequest}. Whether the next pull
 * was made inline or queued is seen in the instance's own {@code PullMessageService} queue and in the process queue's
 * last-pull time, which only stock's {@code pullMessage} sets. The blocking points are reached from inside a real
 * inline pull through the process queue's first call ({@code isDropped}), so that their refusal, the fallback to the
 * queue and its speed are those of the patched client.
 */
class InlineNextPullTest {

    private static final String GROUP = "g";
    private final List<MQClientInstance> instances = new ArrayList<>();

    /** The process queue's first call in {@code pullMessage}; runs {@code first} (a blocking point, say) there. */
    private static final class Probe extends ProcessQueue {
        volatile Runnable first = () -> { };

        @Override
        public boolean isDropped() {
            first.run();
            return super.isDropped();
        }
    }

    /** A push consumer as {@code start()} leaves it, in a client instance of its own that is never started. */
    private DefaultMQPushConsumerImpl consumer() throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(GROUP);
        c.subscribe("T", "*");
        DefaultMQPushConsumerImpl impl = c.getDefaultMQPushConsumerImpl();
        MQClientInstance factory = new MQClientInstance(new ClientConfig(), 0, "p33-test@" + System.nanoTime());
        instances.add(factory);
        impl.setmQClientFactory(factory);
        assertTrue(factory.registerConsumer(GROUP, impl));
        TestFields.set(impl, "pullAPIWrapper", new PullAPIWrapper(factory, GROUP, false));
        TestFields.set(impl, "offsetStore", new RemoteBrokerOffsetStore(factory, GROUP));
        TestFields.set(impl, "serviceState", ServiceState.RUNNING);
        return impl;
    }

    private static PullRequest request(ProcessQueue queue) {
        PullRequest r = new PullRequest();
        r.setConsumerGroup(GROUP);
        r.setMessageQueue(new MessageQueue("T", "broker-a", 0));
        r.setNextOffset(0);
        queue.setLastPullTimestamp(0);
        r.setProcessQueue(queue);
        return r;
    }

    @SuppressWarnings("unchecked")
    private static BlockingQueue<PullRequest> queued(DefaultMQPushConsumerImpl impl) throws Exception {
        return (BlockingQueue<PullRequest>) TestFields.get(impl.getmQClientFactory().getPullMessageService(), "pullRequestQueue");
    }

    /** Runs {@code next} as P31's inline callback would: on the IO thread that read the pull's answer. */
    private static void onIoThread(Runnable next) {
        InlinePullCallback.enterIoThreadCallback();
        try {
            next.run();
        } finally {
            InlinePullCallback.leaveIoThreadCallback();
        }
    }

    @AfterEach
    void stopInstances() throws Exception {
        for (MQClientInstance f : instances) {
            ((ExecutorService) TestFields.get(f, "scheduledExecutorService")).shutdownNow();
            ((ExecutorService) TestFields.get(f.getPullMessageService(), "scheduledExecutorService")).shutdownNow();
            f.getMQClientAPIImpl().getRemotingClient().shutdown();
        }
    }

    @Test
    void offTheIoThreadTheNextPullIsQueuedAsStock() throws Exception {
        DefaultMQPushConsumerImpl impl = consumer();
        PullRequest r = request(new ProcessQueue());
        InlineNextPull.executePullRequestImmediately(impl, r);
        assertSame(r, queued(impl).poll(), "queued for the PullMessageService");
        assertEquals(0, r.getProcessQueue().getLastPullTimestamp(), "pullMessage not called here");
    }

    @Test
    void onTheIoThreadTheNextPullIsMadeThere() throws Exception {
        DefaultMQPushConsumerImpl impl = consumer();
        Thread[] ranOn = new Thread[1];
        Probe probe = new Probe();
        probe.first = () -> ranOn[0] = Thread.currentThread();
        PullRequest p = request(probe);
        onIoThread(() -> InlineNextPull.executePullRequestImmediately(impl, p));
        assertSame(Thread.currentThread(), ranOn[0], "stock's pullMessage ran on this thread");
        assertTrue(p.getProcessQueue().getLastPullTimestamp() > 0, "pullMessage set the last-pull time");
        assertNull(queued(impl).poll(), "nothing queued for the PullMessageService");
        // (unpatched here, the route look-up finds no name server, and stock's pullMessage schedules the pull 3 s later)
        assertFalse(InlinePullGuard.inline(), "the inline mark is gone");
    }

    /** Each blocking point, reached during an inline pull, refuses at once and the pull is queued as stock queues it. */
    @Test
    void aBlockingPointReachedInlineSendsThePullToTheQueueAtOnce() throws Exception {
        List<Runnable> points = new ArrayList<>();
        points.add(() -> call(() -> InlinePullGuard.tryAcquire(new Semaphore(0), 2, TimeUnit.SECONDS)));
        points.add(() -> call(() -> InlinePullGuard.tryLock(new ReentrantLock(), 2, TimeUnit.SECONDS)));
        points.add(() -> InlinePullGuard.createChannel(null, "127.0.0.1:1"));
        points.add(() -> InlinePullGuard.invokeSync(null, null, RemotingCommand.createRequestCommand(11, null), 2000));
        for (int i = 0; i < points.size(); i++) {
            DefaultMQPushConsumerImpl impl = consumer();
            Probe probe = new Probe();
            probe.first = points.get(i);
            PullRequest r = request(probe);
            long t0 = System.nanoTime();
            onIoThread(() -> InlineNextPull.executePullRequestImmediately(impl, r));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertSame(r, queued(impl).poll(), "point " + i + ": queued for the PullMessageService");
            assertTrue(ms < 1000, "point " + i + ": refused without waiting (" + ms + " ms)");
            assertFalse(InlinePullGuard.inline(), "point " + i + ": the inline mark is gone");
        }
    }

    /** A free permit is taken inline as stock takes it; only a wait is refused. */
    @Test
    void aFreePermitIsTakenInline() throws Exception {
        DefaultMQPushConsumerImpl impl = consumer();
        Semaphore permits = new Semaphore(1);
        boolean[] took = new boolean[1];
        Probe probe = new Probe();
        probe.first = () -> took[0] = call(() -> InlinePullGuard.tryAcquire(permits, 2, TimeUnit.SECONDS));
        PullRequest r = request(probe);
        onIoThread(() -> InlineNextPull.executePullRequestImmediately(impl, r));
        assertTrue(took[0]);
        assertEquals(0, permits.availablePermits());
        assertNull(queued(impl).poll(), "made inline");
    }

    /** Outside an inline pull every blocking point is stock's: it waits, locks, and declines to the stock body. */
    @Test
    void outsideAnInlinePullTheBlockingPointsAreStock() throws Exception {
        long t0 = System.nanoTime();
        assertFalse(InlinePullGuard.tryAcquire(new Semaphore(0), 50, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(45), "waited for the permit as stock does");
        assertTrue(InlinePullGuard.tryAcquire(new Semaphore(1), 50, TimeUnit.MILLISECONDS));
        ReentrantLock lock = new ReentrantLock();
        assertTrue(InlinePullGuard.tryLock(lock, 50, TimeUnit.MILLISECONDS));
        assertTrue(lock.isHeldByCurrentThread());
        assertNull(InlinePullGuard.createChannel(null, "127.0.0.1:1"));
        assertNull(InlinePullGuard.invokeSync(null, null, RemotingCommand.createRequestCommand(11, null), 2000));
        // on the IO thread but not inside a pull made there: still stock
        onIoThread(() -> assertNull(InlinePullGuard.createChannel(null, "127.0.0.1:1")));
    }

    /** What stock's PullMessageService thread would log and drop is logged and dropped; nothing reaches the callback. */
    @Test
    void anExceptionOfPullMessageIsLoggedAndTheRequestDropped() throws Exception {
        DefaultMQPushConsumerImpl impl = consumer();
        Probe probe = new Probe();
        probe.first = () -> {
            throw new IllegalStateException("from pullMessage");
        };
        PullRequest r = request(probe);
        onIoThread(() -> InlineNextPull.executePullRequestImmediately(impl, r));
        assertNull(queued(impl).poll(), "dropped, as PullMessageService.run drops it");
        assertFalse(InlinePullGuard.inline());
    }

    /** Where stock's service would not call pullMessage at once, or its first step could wait, the pull is queued. */
    @Test
    void whatStockWouldNotPullAtOnceIsQueued() throws Exception {
        DefaultMQPushConsumerImpl unregistered = consumer();
        unregistered.getmQClientFactory().unregisterConsumer(GROUP);
        assertQueued(unregistered, "a consumer no longer registered");

        DefaultMQPushConsumerImpl stopped = consumer();
        TestFields.set(stopped.getmQClientFactory().getPullMessageService(), "stopped", true);
        assertQueued(stopped, "a stopped pull service");

        DefaultMQPushConsumerImpl orderly = consumer();
        TestFields.set(orderly, "consumeOrderly", true);
        assertQueued(orderly, "an orderly consumer's first pull of a queue (its offset may be read from the broker)");

        DefaultMQPushConsumerImpl locked = consumer();
        TestFields.set(locked, "consumeOrderly", true);
        PullRequest r = request(new ProcessQueue());
        r.setPreviouslyLocked(true);
        onIoThread(() -> InlineNextPull.executePullRequestImmediately(locked, r));
        assertNull(queued(locked).poll(), "an orderly consumer's later pulls are made inline");
        assertTrue(r.getProcessQueue().getLastPullTimestamp() > 0);
    }

    /** A pull made inline that queues another (say, through a hook) does not nest: the other one is queued. */
    @Test
    void inlinePullsDoNotNest() throws Exception {
        DefaultMQPushConsumerImpl impl = consumer();
        PullRequest other = request(new ProcessQueue());
        Probe probe = new Probe();
        probe.first = () -> InlineNextPull.executePullRequestImmediately(impl, other);
        PullRequest r = request(probe);
        onIoThread(() -> InlineNextPull.executePullRequestImmediately(impl, r));
        assertSame(other, queued(impl).poll());
        assertEquals(0, other.getProcessQueue().getLastPullTimestamp());
        assertNull(queued(impl).poll());
    }

    private void assertQueued(DefaultMQPushConsumerImpl impl, String what) throws Exception {
        PullRequest r = request(new ProcessQueue());
        onIoThread(() -> InlineNextPull.executePullRequestImmediately(impl, r));
        assertSame(r, queued(impl).poll(), what + ": queued");
        assertEquals(0, r.getProcessQueue().getLastPullTimestamp(), what + ": pullMessage not called here");
    }

    /**
     * The guard is called from the remoting jar, in brokers too: it must not load a client class (ClientLogger's
     * initialisation moves RocketMQ's logging to the client's files; the broker's own log then stays empty).
     */
    @Test
    void theGuardRefersToNoClientClass() throws Exception {
        byte[] bytes;
        try (java.io.InputStream in = InlinePullGuard.class.getResourceAsStream("InlinePullGuard.class")) {
            bytes = in.readAllBytes();
        }
        assertFalse(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains("org/apache/rocketmq/client/"));
        for (Class<?> inner : InlinePullGuard.class.getDeclaredClasses()) {
            try (java.io.InputStream in = inner.getResourceAsStream(inner.getName().substring(inner.getName().lastIndexOf('.') + 1) + ".class")) {
                assertFalse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1).contains("org/apache/rocketmq/client/"),
                    inner.getName());
            }
        }
    }

    @Test
    void wouldBlockIsAnErrorWithoutAStackTrace() {
        assertEquals(0, InlinePullGuard.WouldBlock.INSTANCE.getStackTrace().length);
        assertThrows(Error.class, () -> {
            throw InlinePullGuard.WouldBlock.INSTANCE;
        });
    }

    private interface Call {
        boolean run() throws Exception;
    }

    private static boolean call(Call c) {
        try {
            return c.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
