package dev.rmqpatch.codec.remoting;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.netty.channel.Channel;
import org.apache.rocketmq.remoting.netty.RequestTask;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * P30. {@code NettyRemotingAbstract.processRequestCommand} wraps every request in a {@code RequestTask} and submits it
 * to its processor's executor; for a send that is the broker's send executor, whose worker is woken for it (a
 * context switch on each side at a rate where it sleeps between messages). Here a send request is run at once, on the
 * thread that read it (the connection's IO thread with P7), when the send executor has nothing of the kind to do: no
 * send task queued, running or on its way to a worker, and no other send running this way. Otherwise it is submitted
 * as stock submits it. So a request never overtakes an earlier one of its connection (a connection's requests are
 * read by one thread, in order, and one is only run here when every earlier one has finished), a busy broker queues,
 * flow-controls and fast-fails its sends exactly as stock (they go through the executor), and at most one send at a
 * time runs outside the executor's threads.
 *
 * <p>{@link #requestTask} replaces the {@code new RequestTask(...)} of that method: a send's task is a
 * {@link SendTask}, which counts itself from submission until it has run or has been answered without running (the
 * broker's fast-failure drops queued tasks with {@code returnResponse}). {@link #submit} replaces the executor's
 * {@code submit}. What runs, and what the task answers, are stock's; only the thread differs.
 */
public final class InlineSend {

    /** Send tasks submitted and not yet run or answered, plus the one running inline (if any). */
    private static final AtomicInteger PENDING = new AtomicInteger();

    private InlineSend() {
    }

    /** Instead of {@code new RequestTask(run, channel, request)} in processRequestCommand. */
    public static RequestTask requestTask(Runnable run, Channel channel, RemotingCommand request) {
        return isSend(request.getCode()) ? new SendTask(run, channel, request) : new RequestTask(run, channel, request);
    }

    /** Instead of {@code executor.submit(task)} in processRequestCommand. */
    public static Future<?> submit(ExecutorService executor, Runnable task) {
        if (!(task instanceof SendTask)) {
            return executor.submit(task);
        }
        SendTask send = (SendTask) task;
        if (PENDING.compareAndSet(0, 1)) {
            // As the executor's submit would: a FutureTask keeps what the task throws from reaching the caller.
            FutureTask<Object> ran = new FutureTask<Object>(send, null);
            ran.run();
            return ran;
        }
        PENDING.incrementAndGet();
        try {
            return executor.submit(send);
        } catch (RuntimeException e) {
            send.release();
            throw e;
        } catch (Error e) {
            send.release();
            throw e;
        }
    }

    /** RequestCode.SEND_MESSAGE, SEND_MESSAGE_V2, SEND_BATCH_MESSAGE (InlineSendTest checks them against RequestCode). */
    static final int SEND_MESSAGE = 10;
    static final int SEND_MESSAGE_V2 = 310;
    static final int SEND_BATCH_MESSAGE = 320;

    /**
     * The sends the broker's send executor serves. RequestCode's values are spelled here, not named: javac keeps a
     * class reference to RequestCode (rocketmq-common) in the constant pool of a class that names its constants, and
     * this class is reached from rocketmq-remoting, whose stock POM does not bring rocketmq-common.
     */
    static boolean isSend(int code) {
        return code == SEND_MESSAGE || code == SEND_MESSAGE_V2 || code == SEND_BATCH_MESSAGE;
    }

    /** Send tasks counted now (tests). */
    static int pending() {
        return PENDING.get();
    }

    /** A send's task: counted in {@link #PENDING} until it has run or has been answered without running. */
    static final class SendTask extends RequestTask {
        private static final AtomicIntegerFieldUpdater<SendTask> RELEASED =
            AtomicIntegerFieldUpdater.newUpdater(SendTask.class, "released");
        private volatile int released;

        SendTask(Runnable run, Channel channel, RemotingCommand request) {
            super(run, channel, request);
        }

        @Override
        public void run() {
            try {
                super.run();
            } finally {
                release();
            }
        }

        @Override
        public void returnResponse(int code, String remark) {
            try {
                super.returnResponse(code, remark);
            } finally {
                release();
            }
        }

        void release() {
            if (RELEASED.compareAndSet(this, 0, 1)) {
                PENDING.decrementAndGet();
            }
        }
    }
}
