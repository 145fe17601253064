package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P29. Targets: in rocketmq-store, {@code CommitLog.submitReplicaRequest} and {@code CommitLog.handleHA} (a
 * SYNC_MASTER's put waking the HA write threads), {@code HAConnection$WriteSocketService.run()} (the write thread's
 * read of what to send next) and {@code HAConnection$ReadSocketService.processReadEvent()} (the slave's
 * acknowledgement).
 * Replacement: the four calls go to codec's {@code HaAckClock}: while the slave has not acknowledged the write
 * thread's last transfer, new data of less than one transfer batch waits (the put does not wake the write thread, the
 * write thread does not send it), and the thread that reads the acknowledgement wakes the write thread, which sends
 * everything that waited in one transfer.
 * Why: each transfer is a round trip costing wake-ups on both brokers; in the ms-sync runs the patched pair sent 0.70
 * transfers per message at 8,100 msg/s (tuned stock 0.53) at about 58 us of pair CPU each.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HaAckClockPatch implements Patch {

    @Override
    public String id() {
        return "P29";
    }

    @Override
    public String name() {
        return "ha-ack-clock";
    }

    @Override
    public String buys() {
        return "on a SYNC_MASTER under load, messages put during one replication round trip share the next transfer: "
            + "fewer HA wake-ups per message on master and slave";
    }

    @Override
    public String effect() {
        return "On a SYNC_MASTER with one slave, data put while the write thread's last transfer is unacknowledged "
            + "waits for that acknowledgement (at most one round trip of the slave) when it is less than "
            + "haTransferBatchSize: the put does not wake the HA write thread, the write thread does not send it, and "
            + "the thread that reads the acknowledgement wakes the write thread after answering the sends it covers. "
            + "More data, any other role, several slaves, or nothing in flight: stock's immediate send. The slave "
            + "receives the same bytes at the same offsets; every send status is stock's.";
    }

    @Override
    public String why() {
        return "A message put during a transfer cannot be acknowledged before that transfer is (the slave appends in "
            + "order), yet stock sends it at once as a transfer of its own: one more write, slave wake-up, "
            + "acknowledgement and master read wake-up. The ms-sync efficiency runs of 2026-11-26 (BENCHMARKS.md, "
            + "rows 5-9) show the saving against tuned shrink from 0.61 to 0.77 as the rate rises, and at 8,100 msg/s "
            + "the patched pair sending 0.70 transfers per message against tuned's 0.53, at about 58 us of pair CPU "
            + "per transfer (the master's replication threads switch exactly twice per slave wake-up at every rate).";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's and every SEND_OK message is on the slave, with the "
            + "patch on and with -Drmqpatch.disable=P29; in efficiency mode the slave's replication switches per "
            + "message fall at high rates (results.json, slaveThreads).";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT; codec: HaAckClockTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --topology ms-sync with and without -Drmqpatch.disable=P29 "
            + "(variants 4.9.0-patched and 4.9.0-patched-without-P29), at the curve's highest rate";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.COMMIT_LOG_SUBMIT_REPLICA, Stock.WNO_WAKEUP_ALL, Opcodes.INVOKEVIRTUAL,
                Codec.ACK_CLOCK_WAKEUP_ALL, 1),
            ReplaceCall.ofInstanceCall(Stock.COMMIT_LOG_HANDLE_HA, Stock.WNO_WAKEUP_ALL, Opcodes.INVOKEVIRTUAL,
                Codec.ACK_CLOCK_WAKEUP_ALL, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_WRITE_RUN, Stock.STORE_GET_COMMIT_LOG_DATA, Opcodes.INVOKEVIRTUAL,
                Codec.ACK_CLOCK_COMMIT_LOG_DATA, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_READ_PROCESS_READ, Stock.HA_NOTIFY_TRANSFER_SOME, Opcodes.INVOKEVIRTUAL,
                Codec.ACK_CLOCK_NOTIFY_TRANSFER_SOME, 1));
    }
}
