package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P24. Targets: {@code HAConnection$ReadSocketService.processReadEvent()} (the master reading a slave's
 * acknowledgements) and {@code HAService$HAClient.processReadEvent()} (the slave reading its master's transfers) in
 * rocketmq-store.
 * Replacement: each loop's one {@code socketChannel.read(byteBufferRead)} goes to codec's {@code HaDrainedRead.read},
 * which answers 0 without a system call the reads stock's loop still makes after a read that drained the socket (one
 * that left room in the buffer, or returned 0), until the loop leaves as stock's does; every other read is the
 * channel's.
 * Why: stock leaves each loop only after three reads in a row return 0, so every wake-up that brings one transfer or
 * one acknowledgement costs four read system calls on each side instead of one.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HaDrainedReadPatch implements Patch {

    @Override
    public String id() {
        return "P24";
    }

    @Override
    public String name() {
        return "ha-drained-read";
    }

    @Override
    public String buys() {
        return "one read system call per replication wake-up on master and slave, not four (stock's three reads "
            + "returning 0 answered without one); the same bytes processed";
    }

    @Override
    public String effect() {
        return "The master's HA reader and the slave's HAClient make no read system call once a read has drained the "
            + "socket (it left room in the buffer or returned 0): the reads stock's loop still makes before it leaves "
            + "(three after a read with bytes, two after an empty one) are answered 0 without one, so the loop counts, "
            + "processes, reports and leaves as stock's. Bytes that arrive within those few microseconds are read at "
            + "the loop's next wake-up (the selector returns at once for them) instead of by a retry, as stock reads "
            + "bytes that arrive just after its third empty read: the same bytes in the same order, the same "
            + "acknowledgements, end of stream and errors handled by stock's code.";
    }

    @Override
    public String why() {
        return "In the ms-sync profile the slave's HAClient spent 18.7% of the slave's samples in read() and the "
            + "master's HA reader 2.9% of the master's (docs/results/eff-2026-11-25-mssync-cells/"
            + "flame-4.9.0-patched-slave.html and docs/results/eff-2026-11-25-mssync-cells/flame-4.9.0-patched.html); "
            + "by stock's loop three of the four reads of a wake-up that brings one transfer or one acknowledgement "
            + "return 0. The one difference from stock: stock's three retries can pick up bytes that land within "
            + "microseconds of a draining read in the same pass; here the next pass reads them, after one select that "
            + "returns at once, so neither a transfer nor an acknowledgement waits longer than one turn of its "
            + "thread's loop.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset and SYNC_MASTER sends "
            + "are SEND_OK only once the slave holds them, with the patch on and with -Drmqpatch.disable=P24; "
            + "strace -f -e trace=read on either broker shows one read per wake-up where stock shows a read returning "
            + "bytes and three failing with EAGAIN (what the JDK returns as 0).";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT, PatchedClassesIT; codec: HaDrainedReadTest";
    }

    @Override
    public String benchmark() {
        return "HaDrainedReadBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P24";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.HA_READ_PROCESS_READ, Stock.SOCKET_CHANNEL_READ, Opcodes.INVOKEVIRTUAL,
                Codec.HA_DRAINED_READ, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_CLIENT_PROCESS_READ, Stock.SOCKET_CHANNEL_READ, Opcodes.INVOKEVIRTUAL,
                Codec.HA_DRAINED_READ, 1));
    }
}
