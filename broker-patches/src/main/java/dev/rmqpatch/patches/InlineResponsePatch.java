package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P9. Target: {@code SendMessageProcessor.asyncProcessRequest(ChannelHandlerContext, RemotingCommand,
 * RemotingResponseCallback)} in rocketmq-broker.
 * Replacement: its {@code thenAcceptAsync(responseCallback::callback, sendMessageExecutor)} goes to
 * {@code InlineResponse.thenAcceptAsync}, which runs the callback on the current thread (already a send-executor
 * thread) when the store's future is complete, and keeps the stock hand-off otherwise.
 * Why: with asynchronous flush and replication the future is always complete here, and the stock code queues a
 * second executor task per message that does nothing but write the response (docs/send-path.md, row 12).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class InlineResponsePatch implements Patch {

    @Override
    public String id() {
        return "P9";
    }

    @Override
    public String name() {
        return "inline-response";
    }

    @Override
    public String buys() {
        return "no second send-executor task per message when the store has already answered";
    }

    @Override
    public String effect() {
        return "When the store has already answered a send, the response is written on the send-executor thread that "
            + "handled it, instead of in a second task queued on the same executor.";
    }

    @Override
    public String why() {
        return "The second task costs a queue operation and usually a worker wake-up per message; thread hand-offs are "
            + "the largest single cost in the broker's profile (docs/send-path.md).";
    }

    @Override
    public String verification() {
        return "Producers get their send results as before; on a SYNC_MASTER they still wait for the slave.";
    }

    @Override
    public String tests() {
        return "WaitStillHonouredIT, every send in the ITs; codec: InlineResponseTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency with and without -Drmqpatch.disable=P9 (BENCHMARKS.md)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(ReplaceCall.ofInstanceCall(Stock.ASYNC_PROCESS_REQUEST,
            Stock.THEN_ACCEPT_ASYNC, Opcodes.INVOKEVIRTUAL, Codec.INLINE_RESPONSE, 1));
    }
}
