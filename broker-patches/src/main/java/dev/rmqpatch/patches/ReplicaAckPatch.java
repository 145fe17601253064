package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.Opcodes;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.FilterArgument;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.RequireMembers;

/**
 * P13. Targets: {@code HAService.putRequest(GroupCommitRequest)}, {@code HAService.notifyTransferSome(long)} and
 * {@code HAService$GroupTransferService.doWaitTransfer()} and {@code run()} (its 10 ms wait) in rocketmq-store.
 * Replacement: codec's {@code ReplicaAcks}: a synchronous send's wait for the slave sits in a lock-free queue; the
 * thread that reads the slave's acknowledgement completes every request the slave now holds, and the putting thread
 * its own when the slave already has it; the transfer thread's 10 ms round only times out what the slave has not
 * acknowledged within syncFlushTimeout (4.9.3+, the variant: by the request's own deadline, slaveTimeout), and while
 * no request waits it rests 100 ms between rounds instead of 10.
 * Why: on a SYNC_MASTER stock wakes the transfer thread twice per message (on the put, and on the acknowledgement)
 * for a comparison of two offsets; hand-offs are the broker's largest cost (docs/send-path.md). 4.9.1's #2885 made
 * the same thread's locks cheaper but kept both wake-ups.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ReplicaAckPatch implements Patch {

    @Override
    public String id() {
        return "P13";
    }

    @Override
    public String name() {
        return "replica-ack";
    }

    @Override
    public String buys() {
        return "on a SYNC_MASTER, no two wake-ups of the GroupTransferService thread per message (idle: 10 a second, "
            + "not 100); SEND_OK still only once the slave holds it";
    }

    @Override
    public String effect() {
        return "On a SYNC_MASTER, a send waiting for the slave is answered by the thread that reads the slave's "
            + "acknowledgement (or by the sending thread when the slave already holds it) instead of by the "
            + "GroupTransferService thread, which now only times out what the slave has not acknowledged in time: "
            + "within syncFlushTimeout of the put on 4.9.0, by the request's own deadline (slaveTimeout) on 4.9.3+. "
            + "It does that every 10 ms, as stock's thread wakes, while a request waits; while none waits (a slave, an "
            + "idle master, an ASYNC_MASTER) every 100 ms: a request queued meanwhile is still answered PUT_OK by the "
            + "acknowledgement's thread, and FLUSH_SLAVE_TIMEOUT by the 10 ms rounds that follow before its deadline "
            + "when its timeout is 100 ms or more (defaults 5 s and 3 s; stock answers a timeout after a wait of up to "
            + "1 s in any case).";
    }

    @Override
    public String why() {
        return "Stock wakes the transfer thread twice per message just to compare two offsets; each wake-up is a futex "
            + "call and often a context switch on the master, whose CPU per message in ms-sync is about three times the "
            + "single broker's. With those two wake-ups gone the thread's 10 ms round only looks for timeouts, which "
            + "an idle broker, and every slave, paid 100 times a second for nothing (2,084-2,134 context switches and "
            + "79-98 ms of CPU in 20 s, docs/results/reput-idle-2026-11-29/).";
    }

    @Override
    public String verification() {
        return "Sends to a SYNC_MASTER are answered SEND_OK only once the slave holds them, SLAVE_NOT_AVAILABLE with the "
            + "slave down, FLUSH_SLAVE_TIMEOUT when it stops acknowledging; -Drmqpatch.disable=P13 restores the stock wait.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT, WaitStillHonouredIT, IdleWakeupsIT; codec: ReplicaAcksTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --topology ms-sync with and without -Drmqpatch.disable=P13";
    }

    /**
     * 4.9.3 to 4.9.8 (HAService's GroupTransferService identical in all four, read; javap of doWaitTransfer refers to
     * the same members in each): {@code doWaitTransfer} takes {@code req.getDeadLine()} and waits
     * {@code while (!transferOK && deadLine - System.nanoTime() > 0)}, {@code transferOK =
     * push2SlaveMaxOffset.get() >= req.getNextOffset()}, then {@code wakeupCustomer(transferOK ? PUT_OK :
     * FLUSH_SLAVE_TIMEOUT)}, without 4.9.0's log line; the deadline is {@code System.nanoTime() + slaveTimeout}
     * ({@code CommitLog.submitReplicaRequest}: {@code new GroupCommitRequest(next, getSlaveTimeout())}).
     * {@code putRequest} and {@code notifyTransferSome(long)} are 4.9.0's (a spin lock instead of synchronized).
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.variant(
            "4.9.3 to 4.9.8's doWaitTransfer waits until the request's own deadline (getDeadLine(), System.nanoTime() "
            + "plus slaveTimeout), not syncFlushTimeout, and logs nothing on a timeout (read 4.9.3, 4.9.4, 4.9.7, 4.9.8; "
            + "javap): the variant's put queues each request with that deadline (ReplicaDeadlines.putRequestUntilDeadline), "
            + "same acknowledgement test and statuses", variantEdits()) : ReleaseFit.APPLIES;
    }

    /**
     * The 4.9.3+ edits: the put with the request's deadline, and a witness that doWaitTransfer still reads that
     * deadline on that clock and answers those statuses (4.9.0's refers to neither getDeadLine nor nanoTime). Whatever
     * sets the deadline (4.9.3 to 4.9.8: submitReplicaRequest, slaveTimeout) the variant uses the request's own, so
     * CommitLog is not checked (a check would rewrite that class for nothing).
     */
    static List<MethodEdit> variantEdits() {
        return Arrays.<MethodEdit>asList(
            new RequireMembers(Stock.GTS_DO_WAIT_TRANSFER, Arrays.asList(Stock.GCR_GET_DEAD_LINE, Stock.NANO_TIME,
                Stock.GCR_GET_NEXT_OFFSET, Stock.GCR_WAKEUP_CUSTOMER, Stock.PUT_OK, Stock.FLUSH_SLAVE_TIMEOUT)),
            new DelegateBody(Stock.HA_PUT_REQUEST, Codec.REPLICA_PUT_REQUEST_UNTIL_DEADLINE),
            new DelegateBody(Stock.HA_NOTIFY_TRANSFER_SOME, Codec.REPLICA_NOTIFY_TRANSFER_SOME),
            new EntryHook(Stock.GTS_DO_WAIT_TRANSFER, Codec.REPLICA_SWEEP),
            new FilterArgument(Stock.GTS_RUN, Stock.GTS_WAIT_FOR_RUNNING, Opcodes.INVOKEVIRTUAL,
                Codec.REPLICA_TRANSFER_WAIT, 1));
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.HA_PUT_REQUEST, Codec.REPLICA_PUT_REQUEST),
            new DelegateBody(Stock.HA_NOTIFY_TRANSFER_SOME, Codec.REPLICA_NOTIFY_TRANSFER_SOME),
            new EntryHook(Stock.GTS_DO_WAIT_TRANSFER, Codec.REPLICA_SWEEP),
            new FilterArgument(Stock.GTS_RUN, Stock.GTS_WAIT_FOR_RUNNING, Opcodes.INVOKEVIRTUAL,
                Codec.REPLICA_TRANSFER_WAIT, 1));
    }
}
