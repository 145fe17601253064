package dev.rmqpatch.codec.remoting;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.broker.BrokerController;

/**
 * P15. {@code SendMessageProcessor.asyncProcessRequest} hands the finished response to
 * {@code thenAcceptAsync(callback, brokerController.getSendMessageExecutor())}. When the store's future completes
 * later (a SYNC_MASTER waiting for its slave, a SYNC_FLUSH broker waiting for the disk), that queues a task on the send
 * executor and wakes one of its workers only to call {@code ctx.writeAndFlush(response)}, which netty hands to the
 * connection's IO thread anyway. Here the executor given for that one call runs the task at once, on the thread that
 * completed the future (P13's acknowledgement thread, stock's GroupTransferService or GroupCommitService thread) or,
 * when the future is already complete, on the calling send thread (what P9 does). The response and everything the
 * future's earlier stages computed are stock's; the executor's other uses are untouched. 4.9.3 to 4.9.8 hand the
 * response to {@code getPutMessageFutureExecutor()} instead ({@link #putMessageFutureExecutor}, the same executor here).
 */
public final class DirectResponse {

    private static final ExecutorService DIRECT = new Direct();

    private DirectResponse() {
    }

    /** Instead of {@code brokerController.getSendMessageExecutor()} in that call only. */
    public static ExecutorService sendMessageExecutor(BrokerController brokerController) {
        return DIRECT;
    }

    /**
     * Instead of {@code brokerController.getPutMessageFutureExecutor()} in that call only: 4.9.3 to 4.9.8 hand the
     * response to that executor (P15's variant; the call and the rest of the method as 4.9.0's otherwise).
     */
    public static ExecutorService putMessageFutureExecutor(BrokerController brokerController) {
        return DIRECT;
    }

    /** Runs each task on the thread that submits it; never shut down (it holds no threads). */
    static final class Direct extends AbstractExecutorService {
        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return Collections.emptyList();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return false;
        }
    }
}
