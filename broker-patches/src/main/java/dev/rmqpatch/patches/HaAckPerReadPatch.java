package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.AddDelegate;
import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;

/**
 * P37. Target: {@code HAService$HAClient.reportSlaveMaxOffsetPlus()} in rocketmq-store, the SLAVE's acknowledgement
 * to its master, which {@code dispatchReadRequest()} calls after appending each transfer it cuts out of a read.
 * Replacement: an added {@code HAClient.rmqpatch$P37$deferReport} hands the read buffer, the dispatch position and
 * the outer HAService to codec's {@code HaAckPerRead.deferReport}, which runs first in
 * {@code reportSlaveMaxOffsetPlus()}: when the bytes already read hold a whole next transfer that stock's loop will
 * append at once (its offset passing stock's check), the method returns true without writing, and the next turn of
 * the loop reports both; otherwise stock's body runs.
 * Why: one read often brings several transfers, and stock acknowledges each with its own 8-byte write (a system call
 * on the slave, a wake-up, select and read on the master's HA reader), every one but the last superseded
 * microseconds later.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HaAckPerReadPatch implements Patch {

    private static final String BYTE_BUFFER = "java/nio/ByteBuffer";

    /** Added to HAClient: the client's read buffer, dispatch position and outer HAService, to the codec. */
    private static final MethodRef ADDED_DEFER = new MethodRef(Stock.HA_CLIENT, "rmqpatch$P37$deferReport",
        "(L" + Stock.HA_CLIENT + ";)Z");
    private static final MethodRef READ_BUFFER = new MethodRef(Stock.HA_CLIENT, "byteBufferRead", "L" + BYTE_BUFFER + ";");
    private static final MethodRef DISPATCH_POSITION = new MethodRef(Stock.HA_CLIENT, "dispatchPosition", "I");
    private static final MethodRef OUTER = new MethodRef(Stock.HA_CLIENT, "this$0", "L" + Stock.HA_SERVICE + ";");

    /**
     * What the codec mirrors of stock's dispatchReadRequest: the frame's offset and size read at dispatchPosition from
     * the read buffer, the store's max offset it is checked against, and the acknowledgement after each append.
     */
    private static final List<MethodRef> MIRRORED = Arrays.asList(READ_BUFFER, DISPATCH_POSITION,
        new MethodRef(BYTE_BUFFER, "getLong", "(I)J"), new MethodRef(BYTE_BUFFER, "getInt", "(I)I"),
        new MethodRef(Stock.DEFAULT_MESSAGE_STORE, "getMaxPhyOffset", "()J"), Stock.HA_CLIENT_REPORT_PLUS);

    @Override
    public String id() {
        return "P37";
    }

    @Override
    public String name() {
        return "ha-ack-per-read";
    }

    @Override
    public String buys() {
        return "a slave acknowledges once per read, not per transfer: fewer writes on the slave, fewer wake-ups of "
            + "the master's HA reader; the same offsets";
    }

    @Override
    public String effect() {
        return "A slave whose read brought several transfers acknowledges them with one write of its new max offset "
            + "after appending the last, instead of one write after each: the acknowledgement of each earlier "
            + "transfer is left to the next one's, which the same dispatch loop appends at once (only a whole next "
            + "transfer already read, with the offset stock's check accepts, defers it). The last transfer of a read, "
            + "a partial or malformed next one, an offset stock refuses and the report after the read loop run "
            + "stock's code: every acknowledgement stock writes is written, for the same or a higher offset, before "
            + "the slave's thread leaves the dispatch of that read. The master keeps only the highest acknowledged "
            + "offset, so what it answers SYNC_MASTER sends with is stock's, microseconds sooner or later. A slave "
            + "whose store fails returns false from the append (stock's failure paths log and return, none throws): "
            + "the next call then finds the offset stock refuses, or no next transfer, and reports at once; were an "
            + "append to throw, the offset deferred on it is reported at the end of the slave's next read loop, "
            + "not deferred twice.";
    }

    @Override
    public String why() {
        return "In the ms-sync profile of patched 4.9.8 the slave's 8-byte acknowledgement write was 35% of the "
            + "slave's samples and the master's HA reader (its select, read and the replica completions) 17% of the "
            + "master's (docs/results/eff-2026-11-29-mssync-profile-498-patched/flame-4.9.8-patched@8-slave.html, "
            + "flame-4.9.8-patched@8.html); perf stat on the slave's thread at 11,000 msg/s counted 90,078 "
            + "acknowledgement writes for 90,075 transfers brought by 1.33 transfers per read "
            + "(docs/results/ha-syscalls-2026-11-29/perf-stat.txt): about one acknowledgement in four is superseded "
            + "before the master could act on it.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset and SYNC_MASTER sends "
            + "are SEND_OK only once the slave holds them, with the patch on and with -Drmqpatch.disable=P37; "
            + "strace -f -e trace=write on the slave's HAClient thread shows fewer 8-byte writes than transfers read "
            + "where stock shows one per transfer.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT, PatchedClassesIT; codec: HaAckPerReadTest";
    }

    @Override
    public String benchmark() {
        return "HaAckPerReadBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P37 (variant 4.9.8-patched-without-P37)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new AddDelegate(Stock.HA_CLIENT_DISPATCH_READ, MIRRORED, ADDED_DEFER,
                Arrays.asList(Collections.singletonList(READ_BUFFER), Collections.singletonList(DISPATCH_POSITION),
                    Collections.singletonList(OUTER)),
                Codec.HA_ACK_PER_READ),
            EntryHook.ofAddedHook(Stock.HA_CLIENT_REPORT_PLUS, ADDED_DEFER));
    }
}
