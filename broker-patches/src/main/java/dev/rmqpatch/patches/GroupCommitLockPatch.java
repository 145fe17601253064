package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateFields;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.ReplaceAllocation;

/**
 * P22. Targets: {@code CommitLog$GroupCommitService} (the SYNC_FLUSH flush thread) in rocketmq-store: its constructor
 * (the two request lists), {@code putRequest}, {@code swapRequests} and {@code doCommit}.
 * Replacement: codec's {@code GroupCommitQueue}: the constructor's two {@code new ArrayList()} become queues (an
 * ArrayList, the fields' type, holding the write and read lists and a spin lock); {@code putRequest} (still
 * synchronized, as in 4.9.1) adds under the spin lock and wakes the flush thread, {@code swapRequests} swaps the
 * lists under it, and {@code doCommit} is stock's loop on the read list without {@code synchronized(requestsRead)}.
 * The lists' fields and {@code run()} (whose final swap stays in {@code synchronized(this)}) are unchanged.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class GroupCommitLockPatch implements Patch {

    @Override
    public String id() {
        return "P22";
    }

    @Override
    public String name() {
        return "group-commit-lock";
    }

    @Override
    public String buys() {
        return "SYNC_FLUSH: a sender's request is queued under a spin lock held for a few instructions, never behind "
            + "the flush thread's monitor during an fsync (upstream 4.9.1)";
    }

    @Override
    public String effect() {
        return "Under SYNC_FLUSH each put queues a GroupCommitRequest for the flush thread; the add and the flush "
            + "thread's list swap now exclude each other with a spin lock instead of the lists' monitors, and the flush "
            + "thread completes its swapped list without a monitor; every request is still flushed and completed in "
            + "order, PUT_OK or FLUSH_DISK_TIMEOUT as in stock.";
    }

    @Override
    public String why() {
        return "Stock's doCommit holds synchronized(requestsRead) through the flush (an fsync); a sender that read the "
            + "write list just before the swap waits on that monitor inside the synchronized putRequest, so every "
            + "other sender waits for the fsync too, and the monitors inflate under contention. Upstream replaced them "
            + "with a spin lock around the add and the swap in 4.9.1 (apache/rocketmq#2885).";
    }

    @Override
    public String verification() {
        return "A SYNC_FLUSH store from the stock and from the patched jars, loaded side by side, answers the same random "
            + "puts from one and from several threads with the same statuses and stores the same CommitLog bytes (one "
            + "thread); the codec's queue loses and reorders no request under concurrent adds and swaps; "
            + "-Drmqpatch.disable=P22 keeps stock's lists and monitors.";
    }

    @Override
    public String tests() {
        return "GroupCommitIT; codec: GroupCommitQueueTest";
    }

    @Override
    public String benchmark() {
        return "GroupCommitBenchmark; end to end: scripts/compare.sh --efficiency with flushDiskType=SYNC_FLUSH, with "
            + "and without -Drmqpatch.disable=P22";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.1 queues group-commit requests under a spin lock: no new ArrayList() in "
            + "GroupCommitService.<init> (witness only, not read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        List<MethodRef> queue = Collections.singletonList(Stock.GCS_REQUESTS_WRITE);
        List<MethodRef> self = Collections.emptyList();
        return Arrays.<MethodEdit>asList(
            new ReplaceAllocation(Stock.GCS_INIT, "java/util/ArrayList", "()V", Codec.GROUP_COMMIT_NEW_QUEUE, 2),
            new DelegateFields(Stock.GCS_PUT_REQUEST, Arrays.asList(queue, self), Codec.GROUP_COMMIT_PUT),
            new DelegateFields(Stock.GCS_SWAP_REQUESTS, Collections.singletonList(queue), Codec.GROUP_COMMIT_SWAP),
            new DelegateFields(Stock.GCS_DO_COMMIT, Arrays.asList(queue,
                Arrays.asList(Stock.GCS_THIS0, Stock.COMMIT_LOG_MAPPED_FILE_QUEUE),
                Arrays.asList(Stock.GCS_THIS0, Stock.COMMIT_LOG_STORE)), Codec.GROUP_COMMIT_DO_COMMIT));
    }
}
