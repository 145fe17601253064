package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P7. Targets: the server's channel initializer ({@code NettyRemotingServer$7.initChannel}) and, for TLS, the
 * handshake handler ({@code NettyRemotingServer$HandshakeHandler.channelRead0}) in rocketmq-remoting.
 * Replacement: their {@code pipeline.addLast/addAfter(defaultEventExecutorGroup, ...)} calls go to
 * {@code ServerPipeline}, which adds the same handlers without the group, so they run on the connection's netty IO
 * thread.
 * Why: every request is read on an IO thread, handed to a codec thread (decode, dispatch), then to the send
 * executor; every response comes back through the codec thread to the IO thread. Thread park/unpark is the largest
 * single cost in the broker's profile (~32% of samples, docs/send-path.md); this removes two hand-offs per request.
 * Upstream did the same behind a switch in 5.3.1 (#8837, +5% TPS, -4% CPU in its thread).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class CodecOnIoThreadPatch implements Patch {

    @Override
    public String id() {
        return "P7";
    }

    @Override
    public String name() {
        return "codec-on-io-thread";
    }

    @Override
    public String buys() {
        return "one thread hand-off per request instead of two, none on the response's way back (upstream 5.3.1's "
            + "switch)";
    }

    @Override
    public String effect() {
        return "The remoting server's handlers (handshake/TLS, encoder, decoder, idle, connection manager, request "
            + "dispatch) run on the connection's netty IO thread instead of a NettyServerCodecThread: a request reaches "
            + "its processor's executor with one thread hand-off instead of two, and the response flushes without one.";
    }

    @Override
    public String why() {
        return "Thread wake-ups between IO, codec, executor and reput threads are the largest single cost in the "
            + "broker's CPU profile (docs/send-path.md); upstream made the same change switchable in 5.3.1.";
    }

    @Override
    public String verification() {
        return "jstack of a broker under load shows NettyServerCodecThread_* threads idle (parked) and the "
            + "NettyServerNIOSelector threads decoding; with -Drmqpatch.disable=P7 the codec threads work again.";
    }

    @Override
    public String tests() {
        return "RemotingPatchesIT and every broker IT; codec: ServerPipelineTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency with and without -Drmqpatch.disable=P7 (BENCHMARKS.md)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.SERVER_INIT_CHANNEL, Stock.PIPELINE_ADD_LAST_NAMED, Opcodes.INVOKEINTERFACE,
                Codec.PIPELINE_ADD_LAST_NAMED, 1),
            ReplaceCall.ofInstanceCall(Stock.SERVER_INIT_CHANNEL, Stock.PIPELINE_ADD_LAST_ALL, Opcodes.INVOKEINTERFACE,
                Codec.PIPELINE_ADD_LAST_ALL, 1),
            ReplaceCall.ofInstanceCall(Stock.SERVER_HANDSHAKE_READ, Stock.PIPELINE_ADD_AFTER, Opcodes.INVOKEINTERFACE,
                Codec.PIPELINE_ADD_AFTER, 2));
    }
}
