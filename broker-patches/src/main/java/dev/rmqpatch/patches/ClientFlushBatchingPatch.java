package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P32. Target: the client's channel initializer ({@code NettyRemotingClient$4.initChannel}) in rocketmq-remoting: its
 * first call, {@code ch.pipeline()}.
 * Replacement: codec's {@code ClientFlushes.pipeline}, which puts netty's {@code FlushConsolidationHandler} (flushes
 * consolidated when no read is in progress) at the head of the pipeline before the initializer adds stock's handlers.
 * Why: with P26 a client's requests reach its IO thread one by one and each is flushed at once: one socket write, and
 * one broker wake-up, per request. The client comparisons measured the broker at 1.02-1.15 times its CPU per message
 * with P26's client against the stock one (BENCHMARKS, 2026-11-26 14:45), stock's worker hop having bunched them.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ClientFlushBatchingPatch implements Patch {

    @Override
    public String id() {
        return "P32";
    }

    @Override
    public String name() {
        return "client-flush-batching";
    }

    @Override
    public String buys() {
        return "a client's requests that reach its IO thread together leave in one socket write, not one each";
    }

    @Override
    public String effect() {
        return "The client's pipeline starts with netty's FlushConsolidationHandler (consolidating when no read is in "
            + "progress): a request's flush is done by a task queued behind the write tasks already waiting, so those "
            + "requests go out in one socket write. Same bytes in the same order; a lone request is flushed after at "
            + "most the tasks queued before it.";
    }

    @Override
    public String why() {
        return "With P26 each request is written and flushed on its own: one socket write and one broker wake-up per "
            + "request; the broker measured 1.02-1.15 times its CPU per message with P26's client against stock's.";
    }

    @Override
    public String verification() {
        return "Frames byte-identical to the stock client's (PatchedClientBrokersIT, ClientPipelineIT); "
            + "-Drmqpatch.disable=P32 leaves the pipeline stock's (or P26's).";
    }

    @Override
    public String tests() {
        return "ClientPipelineIT, PatchedClientBrokersIT; codec: ClientFlushesTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --clients stock,patched,patched-without-P32";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.CLIENT_INIT_CHANNEL, Stock.SOCKET_CHANNEL_PIPELINE, Opcodes.INVOKEINTERFACE,
                Codec.CLIENT_FLUSHES_PIPELINE, 1));
    }
}
