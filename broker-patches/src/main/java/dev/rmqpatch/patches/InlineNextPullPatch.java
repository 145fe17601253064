package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P33. Targets: the push consumer's pull callback ({@code DefaultMQPushConsumerImpl$1.onSuccess}, its three
 * {@code executePullRequestImmediately} calls) in rocketmq-client; and the points of the pull path that can wait:
 * {@code MQClientInstance.updateTopicRouteInfoFromNameServer}'s {@code lockNamesrv.tryLock} (rocketmq-client),
 * {@code NettyRemotingAbstract.invokeAsyncImpl}'s {@code semaphoreAsync.tryAcquire}, and the entries of
 * {@code NettyRemotingClient.createChannel} and {@code invokeSync} (rocketmq-remoting).
 * Replacement: codec's {@code InlineNextPull} and {@code InlinePullGuard} (the waiting points' guard, which refers to no
 * client class: a broker's remoting jar calls it too, and initialising the client's logger would take over the broker's
 * logging): where P31 runs the callback on the IO thread, the next pull of the queue
 * is made there ({@code pullMessage}, stock's) instead of being queued for the {@code PullMessageService} thread; each
 * waiting point, while a pull is made inline, refuses instead of waiting, and the pull is queued as stock queues it.
 * Why: per pull, stock wakes the PullMessageService thread to make the request and then the IO thread to write it;
 * at a consumer's usual rates a pull brings one or two messages, so these are wake-ups per message: issue 28's JDK 8
 * consumer runs put the pull thread at 4.2 us of the patched consumer's 31 us per message (7,300 msg/s).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class InlineNextPullPatch implements Patch {

    @Override
    public String id() {
        return "P33";
    }

    @Override
    public String name() {
        return "inline-next-pull";
    }

    @Override
    public String buys() {
        return "a push consumer's next pull is made and written by the IO thread that read the last one's answer: no "
            + "pull-service thread woken per pull";
    }

    @Override
    public String effect() {
        return "Where P31 runs the push consumer's pull callback on the IO thread, the callback's next pull of the same "
            + "queue runs there too (stock's pullMessage: flow control, pause, offsets, hooks) instead of going through "
            + "the PullMessageService's queue and thread. Whatever on that path would wait (a route look-up at a name "
            + "server, a new connection, an asynchronous-request permit when none is free) is refused while the pull "
            + "runs inline, and that pull is queued for the PullMessageService as stock queues it; so is an orderly "
            + "consumer's first pull after it locks a queue.";
    }

    @Override
    public String why() {
        return "Per pull, stock wakes the PullMessageService thread to make the request and then the IO thread to "
            + "write it; at a consumer's usual rates a pull brings one or two messages, so these are wake-ups per "
            + "message: issue 28's JDK 8 consumer runs put the pull thread at 4.2 us of the patched consumer's 31 us "
            + "per message.";
    }

    @Override
    public String verification() {
        return "Same messages received, in order on orderly queues, against stock 4.9.0, patched and 4.9.1 brokers; "
            + "an RPC hook sees the push consumers' pulls sent from NettyClientSelector_1 (and from PullMessageService "
            + "only for a queue's first pull); -Drmqpatch.disable=P33 sends them all from PullMessageService again.";
    }

    @Override
    public String tests() {
        return "PatchedClientBrokersIT; codec: InlineNextPullTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --clients stock,patched,patched-without-P33 --client-side "
            + "consumer";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.PUSH_PULL_ON_SUCCESS, Stock.EXECUTE_PULL_REQUEST_IMMEDIATELY,
                Opcodes.INVOKEVIRTUAL, Codec.NEXT_PULL_EXECUTE, 3),
            ReplaceCall.ofInstanceCall(Stock.UPDATE_TOPIC_ROUTE, Stock.LOCK_TRY_LOCK_TIMED, Opcodes.INVOKEINTERFACE,
                Codec.NEXT_PULL_TRY_LOCK, 1),
            ReplaceCall.ofInstanceCall(Stock.INVOKE_ASYNC_IMPL, Stock.SEMAPHORE_TRY_ACQUIRE_TIMED, Opcodes.INVOKEVIRTUAL,
                Codec.NEXT_PULL_TRY_ACQUIRE, 1),
            new EntryHook(Stock.CLIENT_CREATE_CHANNEL, Codec.NEXT_PULL_CREATE_CHANNEL),
            new EntryHook(Stock.CLIENT_INVOKE_SYNC, Codec.NEXT_PULL_INVOKE_SYNC));
    }
}
