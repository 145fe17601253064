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
            + "replication thread; the mapped copy is one memory copy.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset, with the patch on and "
            + "with -Drmqpatch.disable=P14.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT; codec: SlaveCommitLogAppendTest";
    }

    @Override
    public String benchmark() {
        return "SlaveCommitLogAppendBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P14";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(ReplaceCall.ofInstanceCall(Stock.COMMIT_LOG_APPEND_DATA,
            Stock.MAPPED_FILE_APPEND_BYTES, Opcodes.INVOKEVIRTUAL, Codec.SLAVE_COMMIT_LOG_APPEND, 1));
    }
}
