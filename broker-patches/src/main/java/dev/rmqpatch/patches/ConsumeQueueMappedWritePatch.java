package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P12. Targets: {@code ConsumeQueue.putMessagePositionInfo(long, int, long, long)} and
 * {@code ConsumeQueue.fillPreBlank(MappedFile, long)} in rocketmq-store.
 * Replacement: their {@code mappedFile.appendMessage(byte[])} goes to {@code ConsumeQueueAppend.appendMessage}, which
 * copies the entry into the file's memory mapping while holding the file, and falls back to the stock append when
 * the file cannot be held (being deleted) or the copy fails.
 * Why: 4.9.0's {@code MappedFile.appendMessage(byte[])} sets the file channel's position and writes through it: two
 * system calls and a copy through a temporary direct buffer for every 20-byte entry, on the one dispatch thread that
 * makes every message visible to consumers. Upstream made the same change in 4.9.3 (apache/rocketmq#3657: consume
 * throughput 70k to 200k msg/s with 72 queues in its thread) and later had to hold the file around the write
 * (apache/rocketmq#10288: a deleted topic's unmapped queue file crashed the JVM), which this patch does from the start.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ConsumeQueueMappedWritePatch implements Patch {

    @Override
    public String id() {
        return "P12";
    }

    @Override
    public String name() {
        return "consume-queue-mapped-write";
    }

    @Override
    public String buys() {
        return "each 20-byte consume-queue entry copied into the mapping, not written with a seek and a write (two "
            + "system calls); the same bytes (upstream 4.9.3)";
    }

    @Override
    public String effect() {
        return "Consume-queue entries are copied into the queue file's memory mapping instead of written through its "
            + "file channel; the files hold the same bytes, and the consume-queue flush service flushes them as before "
            + "(MappedFile.flush forces the mapping when the channel was never written). A queue file being deleted "
            + "gets the stock write.";
    }

    @Override
    public String why() {
        return "Stock spends two system calls per message on the dispatch thread (ReputMessageService), which decides "
            + "how soon consumers see a message; the mapped copy is a memory store (ConsumeQueueAppendBenchmark).";
    }

    @Override
    public String verification() {
        return "Consumers read every message as from a stock broker; the consumequeue/ files of a patched broker and of "
            + "one started with -Drmqpatch.disable=P12 hold the same bytes for the same sends.";
    }

    @Override
    public String tests() {
        return "PullPathIT, CrashRecoveryIT, DropInIT; codec: ConsumeQueueAppendTest";
    }

    @Override
    public String benchmark() {
        return "ConsumeQueueAppendBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's MappedFile.appendMessage(byte[]) copies into the mapping, "
            + "not through the file channel (read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.CQ_PUT_POSITION_INFO, Stock.MAPPED_FILE_APPEND_BYTES, Opcodes.INVOKEVIRTUAL,
                Codec.CONSUME_QUEUE_APPEND, 1),
            ReplaceCall.ofInstanceCall(Stock.CQ_FILL_PRE_BLANK, Stock.MAPPED_FILE_APPEND_BYTES, Opcodes.INVOKEVIRTUAL,
                Codec.CONSUME_QUEUE_APPEND, 1));
    }
}
