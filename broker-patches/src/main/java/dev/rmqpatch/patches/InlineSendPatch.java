package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceAllocation;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P30. Target: {@code NettyRemotingAbstract.processRequestCommand(ChannelHandlerContext, RemotingCommand)} in
 * rocketmq-remoting: its {@code new RequestTask(run, channel, request)} and the processor executor's
 * {@code submit(requestTask)}.
 * Replacement: codec's {@code InlineSend}: a send request's task is counted, and it runs at once on the thread that
 * read the request (the IO thread with P7) when no other send is queued, running or on its way to a send-executor
 * worker; otherwise, and for every other request, it is submitted as stock submits it.
 * Why: below saturation the send executor sleeps between messages, so each send wakes a worker (a context switch on
 * each side), and with P9 that worker's response is handed back to the IO thread (another wake-up). The efficiency
 * runs' per-thread figures show 0.98 IO-to-send-executor hand-offs per message on the patched SYNC_MASTER even at
 * 8,100 msg/s.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class InlineSendPatch implements Patch {

    @Override
    public String id() {
        return "P30";
    }

    @Override
    public String name() {
        return "inline-send";
    }

    @Override
    public String buys() {
        return "a send that finds the send executor idle runs on the thread that read it: no worker woken, no "
            + "hand-off back";
    }

    @Override
    public String effect() {
        return "A send request (codes 10, 310, 320) runs on the thread that read it when no other send is queued, "
            + "running or on its way to a send-executor worker; otherwise it is queued on the send executor as stock "
            + "queues it. A send slower than 50 ms (a stalling store) sends every send through the executor for 10 s, "
            + "doubling while slow sends recur, up to 5 minutes (-Drmqpatch.inlineSend.slowMillis, firstPauseMillis, "
            + "maxPauseMillis).";
    }

    @Override
    public String why() {
        return "Below saturation the send executor sleeps between messages: each send wakes a worker and, with P9, "
            + "hands its response back to the IO thread, two context switches per message that do no work.";
    }

    @Override
    public String verification() {
        return "Same answers and stored messages as stock (every send IT runs with it on); a connection's requests "
            + "still processed in order; under load sends still queue, flow-control (SYSTEM_BUSY) and fast-fail as "
            + "stock; -Drmqpatch.disable=P30 restores the executor for every send.";
    }

    @Override
    public String tests() {
        return "InlineSendIT; codec: InlineSendTest; stall-agent: StoreStallIT";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --variants 4.9.0-patched,4.9.0-patched-without-P30 "
            + "(and --topology ms-sync)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new ReplaceAllocation(Stock.PROCESS_REQUEST_COMMAND, Stock.REQUEST_TASK, Stock.REQUEST_TASK_INIT,
                Codec.INLINE_SEND_REQUEST_TASK, 1),
            ReplaceCall.ofInstanceCall(Stock.PROCESS_REQUEST_COMMAND, Stock.EXECUTOR_SUBMIT, Opcodes.INVOKEINTERFACE,
                Codec.INLINE_SEND_SUBMIT, 1));
    }
}
