package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P31. Targets: {@code MQClientAPIImpl.pullMessageAsync} in rocketmq-client (its entry, and its
 * {@code remotingClient.invokeAsync} call) and {@code NettyRemotingAbstract.executeInvokeCallback(ResponseFuture)} in
 * rocketmq-remoting, which hands every asynchronous call's callback to the client's callback executor.
 * Replacement: codec's {@code InlinePullCallback}: a pull whose {@code PullCallback} is the push consumer's own
 * ({@code DefaultMQPushConsumerImpl}'s) gets its stock InvokeCallback wrapped in a marker, and the entry hook of
 * {@code executeInvokeCallback} runs a marked callback on the thread that completed the pull, with stock's catch, log
 * and release; every other callback goes to the executor as stock sends it.
 * Why: the push consumer's pull callback only decodes, queues and submits (none of it blocks), yet stock wakes a
 * {@code NettyClientPublicExecutor} thread for it on every pull: issue 28's consumer runs show that executor's thread
 * at 6.5 us per message received, a sixth of the patched consumer's CPU.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class InlinePullCallbackPatch implements Patch {

    @Override
    public String id() {
        return "P31";
    }

    @Override
    public String name() {
        return "inline-pull-callback";
    }

    @Override
    public String buys() {
        return "a push consumer's pull result is handled on the thread that read it: no callback-executor thread woken "
            + "per pull";
    }

    @Override
    public String effect() {
        return "The push consumer's own pull callback (decode the messages, put them into the process queue, submit "
            + "them to the consume executor, queue the next pull) runs on the thread that completed the pull (the "
            + "client's IO thread with P26) instead of a NettyClientPublicExecutor thread. Asynchronous sends' "
            + "callbacks and the callbacks an application passes to pull(..., PullCallback) stay on the executor.";
    }

    @Override
    public String why() {
        return "Stock wakes a callback-executor thread on every pull for work that never blocks; issue 28's consumer "
            + "runs put that thread at 6.5 us per message received, a sixth of the patched consumer's CPU.";
    }

    @Override
    public String verification() {
        return "Same messages received, in order on orderly queues, against stock 4.9.0, patched and 4.9.1 brokers; "
            + "jstack of a push consumer under load: NettyClientPublicExecutor_* idle, NettyClientSelector_1 "
            + "handling pull results; -Drmqpatch.disable=P31 puts them back on the executor.";
    }

    @Override
    public String tests() {
        return "PatchedClientBrokersIT; codec: InlinePullCallbackTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --clients stock,patched,patched-without-P31 --client-side "
            + "consumer";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new EntryHook(Stock.PULL_MESSAGE_ASYNC, Codec.INLINE_PULL_MESSAGE_ASYNC),
            ReplaceCall.ofInstanceCall(Stock.PULL_MESSAGE_ASYNC, Stock.REMOTING_CLIENT_INVOKE_ASYNC, Opcodes.INVOKEINTERFACE,
                Codec.INLINE_PULL_INVOKE_ASYNC, 1),
            new EntryHook(Stock.EXECUTE_INVOKE_CALLBACK, Codec.INLINE_PULL_EXECUTE));
    }
}
