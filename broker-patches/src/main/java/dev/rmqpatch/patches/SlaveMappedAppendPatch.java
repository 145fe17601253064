package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P14. Target: {@code CommitLog.appendData(long, byte[])} in rocketmq-store, which a SLAVE runs for every block its
 * master replicates.
 * Replacement: its {@code mappedFile.appendMessage(byte[])} goes to codec's {@code SlaveCommitLogAppend}, which
 * copies the block into the CommitLog file's memory mapping (the file held during the copy), with the stock write as
 * the fallback.
 * Why: 4.9.0 writes each block through the file channel: a copy into a temporary direct buffer and a positioned
 * write system call on the slave's one replication thread. Upstream made the same change in 4.9.3
 * (apache/rocketmq#3657), after P12's consume-queue half.
 * Ships off ({@link #onByDefault()}): at fixed rates on JDK 8 it doubled the pair's p99.9 for 5.5% of the pair's CPU
 * (BENCHMARKS rows 73 and 76); with it off, P19 still hands the block to the channel without the copy into an array.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class SlaveMappedAppendPatch implements Patch {

    @Override
    public String id() {
        return "P14";
    }

    @Override
    public String name() {
        return "slave-mapped-append";
    }

    @Override
    public boolean onByDefault() {
        return false;
    }

    @Override
    public String buys() {
        return "a slave's replicated block copied into the CommitLog mapping, not a channel write per block; the "
            + "same bytes (upstream 4.9.3)";
    }

    @Override
    public String effect() {
        return "A slave copies each block its master replicates into the CommitLog file's memory mapping instead of "
            + "writing it through the file channel; the files hold the same bytes.";
    }

    @Override
    public String why() {
        return "The channel write costs a copy into a temporary direct buffer and a system call per block on the slave's "
            + "replication thread; the mapped copy is one memory copy. It ships off: at fixed rates on JDK 8 "
            + "(SYNC_MASTER + SLAVE, ASYNC_FLUSH, 7,500 msg/s) the pair's p99.9 was 31.1 ms with it and 16.9 without, for "
            + "a 5.5% saving of the pair's CPU per message (BENCHMARKS.md rows 73 and 76). With it off, P19 still hands "
            + "the slave's block to the file channel without copying it into an array first. Turn it on with "
            + "-Drmqpatch.enable=P14 where CPU matters more than the replicated sends' tail.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset, with the patch off (the "
            + "default) and with -Drmqpatch.enable=P14; the start-up log lists P14 as active only when enabled.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT; codec: SlaveCommitLogAppendTest";
    }

    @Override
    public String benchmark() {
        return "SlaveCommitLogAppendBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync --variants "
            + "4.9.0-patched,4.9.0-patched-with-P14";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's slave append takes an offset and length into the block, "
            + "CommitLog.appendData(long, byte[], int, int) (javap), the mapped append of 4.9.3") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(ReplaceCall.ofInstanceCall(Stock.COMMIT_LOG_APPEND_DATA,
            Stock.MAPPED_FILE_APPEND_BYTES, Opcodes.INVOKEVIRTUAL, Codec.SLAVE_COMMIT_LOG_APPEND, 1));
    }
}
