package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P15. Target: {@code SendMessageProcessor.asyncProcessRequest(ChannelHandlerContext, RemotingCommand,
 * RemotingResponseCallback)} in rocketmq-broker.
 * Replacement: its {@code brokerController.getSendMessageExecutor()}, the executor of the response hand-off
 * {@code thenAcceptAsync(responseCallback::callback, executor)}, goes to codec's {@code DirectResponse}, an executor
 * that runs the task on the thread that submits it: the thread that completes the store's future.
 * Why: on a SYNC_MASTER the future completes when the slave acknowledges, and stock then queues a task on the send
 * executor and wakes a worker whose only work is {@code ctx.writeAndFlush(response)} (netty hands the write to the
 * IO thread anyway): the pool's wake-ups are the second largest wait in the patched master's profile (ms-sync,
 * --profile). P9 covers futures already complete; this covers the ones that complete later.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class DirectResponsePatch implements Patch {

    @Override
    public String id() {
        return "P15";
    }

    @Override
    public String name() {
        return "direct-response";
    }

    @Override
    public String buys() {
        return "a send completed later (SYNC_MASTER, SYNC_FLUSH) answered by the thread that completes it, not by a "
            + "send-executor worker woken for it";
    }

    @Override
    public String effect() {
        return "A send whose store future completes later (SYNC_MASTER, SYNC_FLUSH) has its response written by the "
            + "thread that completes the future instead of by a send-executor task queued for it.";
    }

    @Override
    public String why() {
        return "The queued task only calls ctx.writeAndFlush, which netty hands to the IO thread; the hop costs a queue "
            + "operation and a worker wake-up per message on a SYNC_MASTER.";
    }

    @Override
    public String verification() {
        return "Producers of a SYNC_MASTER get every answer with stock's status (SEND_OK, SLAVE_NOT_AVAILABLE, "
            + "FLUSH_SLAVE_TIMEOUT); -Drmqpatch.disable=P15 restores the hand-off.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT, WaitStillHonouredIT; codec: DirectResponseTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --topology ms-sync with and without -Drmqpatch.disable=P15";
    }

    /**
     * 4.9.3 to 4.9.8: {@code asyncProcessRequest(ctx, request, callback)} is 4.9.0's but for the executor,
     * {@code thenAcceptAsync(responseCallback::callback, this.brokerController.getPutMessageFutureExecutor())}
     * (SendMessageProcessor.java line 87 in 4.9.3 and 4.9.4, 86 in 4.9.7 and 4.9.8; javap: one
     * {@code invokevirtual BrokerController.getPutMessageFutureExecutor()} feeding {@code thenAcceptAsync} in each).
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.variant(
            "4.9.3 to 4.9.8 hand the response to getPutMessageFutureExecutor(), not getSendMessageExecutor() (read, "
            + "javap: the one call in asyncProcessRequest, 4.9.3 to 4.9.8 alike): the variant replaces that call with "
            + "the same direct executor", variantEdits()) : ReleaseFit.APPLIES;
    }

    /** The 4.9.3+ edit: exactly one call of getPutMessageFutureExecutor() in the method, else refused. */
    static List<MethodEdit> variantEdits() {
        return Collections.<MethodEdit>singletonList(ReplaceCall.ofInstanceCall(Stock.ASYNC_PROCESS_REQUEST,
            Stock.GET_PUT_MESSAGE_FUTURE_EXECUTOR, Opcodes.INVOKEVIRTUAL, Codec.DIRECT_RESPONSE_PUT_FUTURE_EXECUTOR, 1));
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(ReplaceCall.ofInstanceCall(Stock.ASYNC_PROCESS_REQUEST,
            Stock.GET_SEND_MESSAGE_EXECUTOR, Opcodes.INVOKEVIRTUAL, Codec.DIRECT_RESPONSE_EXECUTOR, 1));
    }
}
