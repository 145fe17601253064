package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P23. Targets: {@code HAConnection$WriteSocketService.run()} and {@code transferData()} in rocketmq-store, the
 * master's side of replication.
 * Replacement: {@code run()}'s one {@code selectResult.getByteBuffer()} goes to codec's {@code HaGatherWrite.body},
 * which remembers the transfer's body for the write thread; both {@code socketChannel.write(ByteBuffer)} of
 * {@code transferData()} go to {@code HaGatherWrite.write}, which writes the header and the remembered body with one
 * gathering write while the body has bytes left, and writes plainly otherwise (the body's own call, heartbeats).
 * Why: 4.9.0 writes the 12-byte header and the body with two writes; with TCP_NODELAY each is a segment of its own
 * and a wake-up of the slave.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HaGatherWritePatch implements Patch {

    @Override
    public String id() {
        return "P23";
    }

    @Override
    public String name() {
        return "ha-gather-write";
    }

    @Override
    public String buys() {
        return "a replication transfer's header and body sent by one gathering write (one system call, one segment), "
            + "not two; the same bytes";
    }

    @Override
    public String effect() {
        return "A SYNC_MASTER's HA write thread sends each transfer's 12-byte header and its body with one gathering "
            + "write instead of a write each; after a partial write stock's own loops send the rest, so the slave "
            + "receives the same byte stream, and transferData() returns and releases the body as stock. Heartbeats "
            + "(a header alone) are written as before.";
    }

    @Override
    public String why() {
        return "With TCP_NODELAY (which HAConnection sets) stock's two writes are two system calls, two segments and "
            + "two wake-ups of the slave's reader per transfer; the master's HA write thread spent most of its time in "
            + "them in the ms-sync profile.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset, with the patch on and "
            + "with -Drmqpatch.disable=P23; strace -f -e trace=write,writev on the master shows one writev per "
            + "transfer where stock shows two writes.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT, PatchedClassesIT; codec: HaGatherWriteTest";
    }

    @Override
    public String benchmark() {
        return "HaGatherWriteBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P23";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.HA_WRITE_RUN, Stock.SMBR_GET_BYTE_BUFFER, Opcodes.INVOKEVIRTUAL,
                Codec.HA_GATHER_BODY, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_WRITE_TRANSFER_DATA, Stock.SOCKET_CHANNEL_WRITE, Opcodes.INVOKEVIRTUAL,
                Codec.HA_GATHER_WRITE_CALL, 2));
    }
}
