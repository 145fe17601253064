package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P25. Target: {@code HAConnection$WriteSocketService.run()} in rocketmq-store, the master's HA write loop.
 * Replacement: the {@code selector.select(1000)} that starts each round goes to codec's {@code HaWriteSelect.select},
 * which selects only when the thread's last write (seen by P23's {@code HaGatherWrite}) left bytes unsent, that is
 * when {@code transferData()} returned false, and answers 0 without a system call otherwise.
 * Why: the socket is registered for OP_WRITE and has room after every round but one that left bytes unsent, so stock's
 * select returns at once, twice per transfer (after the transfer and after the wait for the next put).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HaWriteSelectPatch implements Patch {

    @Override
    public String id() {
        return "P25";
    }

    @Override
    public String name() {
        return "ha-write-select";
    }

    @Override
    public String buys() {
        return "no select system call per round of the master's HA write loop while the socket took every byte "
            + "(two per transfer); with P23 on";
    }

    @Override
    public String effect() {
        return "A SYNC_MASTER's HA write thread selects on its socket only after a write that left bytes unsent "
            + "(transferData() returned false), where stock waits there for room as before; after a transfer sent "
            + "whole, a heartbeat or a round with nothing to send it goes on without the select, which returns at once "
            + "while the socket has room. It learns how the last write went from P23's gathering write, so with P23 switched "
            + "off every select is stock's.";
    }

    @Override
    public String why() {
        return "In the ms-sync profile the master's HA write thread spent 1.9% of the master's samples in "
            + "Selector.select returning at once (docs/results/eff-2026-11-25-mssync-cells/flame-4.9.0-patched.html). "
            + "The one difference from stock: after a transfer sent whole, stock's select also waits while the socket "
            + "has less room than the kernel calls writable; here that round writes what fits, and the three "
            + "zero-length writes stock's loop makes when the socket is full come before the select instead of "
            + "after it. So while the slave falls behind and the socket fills, the write thread makes up to three more "
            + "write calls each time it fills (HaWriteSelectTest prints how often); the same bytes go out in the same "
            + "order, none later than stock sends them.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset, with the patch on and "
            + "with -Drmqpatch.disable=P25; strace -f -e trace=epoll_wait on the master shows no epoll_wait of the HA "
            + "write thread between transfers while the slave keeps up.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT, PatchedClassesIT; codec: HaWriteSelectTest";
    }

    @Override
    public String benchmark() {
        return "HaWriteSelectBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P25";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            ReplaceCall.ofInstanceCall(Stock.HA_WRITE_RUN, Stock.SELECTOR_SELECT, Opcodes.INVOKEVIRTUAL,
                Codec.HA_WRITE_SELECT, 1));
    }
}
