package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P26, P7's client half. Target: the client's channel initializer ({@code NettyRemotingClient$4.initChannel}) in
 * rocketmq-remoting: its {@code pipeline.addFirst(defaultEventExecutorGroup, "sslHandler", ...)} (TLS) and
 * {@code pipeline.addLast(defaultEventExecutorGroup, encoder, decoder, idle, connectionManager, clientHandler)}.
 * Replacement: codec's {@code ClientPipeline}, which adds the same handlers without the group, so they run on the
 * client's netty IO thread.
 * Why: every request an application thread sends is encoded on a NettyClientWorkerThread before the IO thread writes
 * it, and every response is read on the IO thread, then decoded and dispatched on a worker thread: a thread hand-off
 * each way per call, in every producer, consumer and admin client, and in the broker's own client of the name server.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ClientIoThreadPatch implements Patch {

    @Override
    public String id() {
        return "P26";
    }

    @Override
    public String name() {
        return "client-io-thread";
    }

    @Override
    public String buys() {
        return "a client call (send, pull, heartbeat) without the hop to a NettyClientWorkerThread and back: the client "
            + "half of P7";
    }

    @Override
    public String effect() {
        return "NettyRemotingClient's handlers (TLS when on, encoder, decoder, idle, connection manager, response "
            + "dispatch) run on the client's netty IO thread instead of a NettyClientWorkerThread: a request is encoded "
            + "and written without a hand-off, and a response is decoded where it is read. Synchronous calls are "
            + "completed from that thread, asynchronous callbacks still run on the client's callback executor, requests "
            + "from the broker (transaction checks, consumer-id changes) on their processors' executors; timeouts, "
            + "idle closing, reconnecting and the channel events are stock's. Every client in the JVM shares one IO "
            + "thread (as stock's reads and writes already do), which now also encodes and decodes the frames.";
    }

    @Override
    public String why() {
        return "Thread wake-ups are the largest single cost in the broker's profile (docs/send-path.md) and the client "
            + "pays the same hop on every call (issue 28: a stock 4.9.0 producer costs about as much CPU per message "
            + "as the broker); upstream made the server's hop switchable in 5.3.1 (#8837).";
    }

    @Override
    public String verification() {
        return "jstack of a producer under load: NettyClientWorkerThread_* threads never started (they start on first "
            + "use) and NettyClientSelector_1 encoding and decoding; with -Drmqpatch.disable=P26 the worker threads "
            + "work again.";
    }

    @Override
    public String tests() {
        return "ClientPipelineIT, RemotingPatchesIT; codec: ClientPipelineTest";
    }

    @Override
    public String benchmark() {
        return "ClientRoundTripBenchmark";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.CLIENT_INIT_CHANNEL, Stock.PIPELINE_ADD_FIRST_NAMED, Opcodes.INVOKEINTERFACE,
                Codec.CLIENT_PIPELINE_ADD_FIRST, 1),
            ReplaceCall.ofInstanceCall(Stock.CLIENT_INIT_CHANNEL, Stock.PIPELINE_ADD_LAST_ALL, Opcodes.INVOKEINTERFACE,
                Codec.CLIENT_PIPELINE_ADD_LAST, 1));
    }
}
