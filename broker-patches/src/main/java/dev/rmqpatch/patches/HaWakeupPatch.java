package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P16. Targets: {@code WaitNotifyObject.wakeupAll()}, {@code allWaitForRunning(long)} and
 * {@code removeFromWaitingThreadTable()} in rocketmq-store: the object through which a SYNC_MASTER's puts wake the HA
 * connections' write threads.
 * Replacement: codec's {@code HaWakeups}: one atomic state per write thread (running, notified, parked); a put only
 * reads it when the thread is already notified, sets it with a compare-and-set when not, and unparks the thread only
 * when it was parked. No monitor, no {@code notifyAll}.
 * Why: stock enters the object's monitor on every synchronous put ({@code CommitLog.submitReplicaRequest} and
 * {@code handleHA}), also while the write thread is busy, and the send threads contend for it with each other and with
 * the write thread returning from its wait. 4.9.1's #2885 made the same object lock-free (docs/send-path.md, its
 * upstream table).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HaWakeupPatch implements Patch {

    @Override
    public String id() {
        return "P16";
    }

    @Override
    public String name() {
        return "ha-wakeup";
    }

    @Override
    public String buys() {
        return "on a SYNC_MASTER, no monitor per put to wake the HA write thread, a volatile read while it is busy; "
            + "no wake-up lost (4.9.1's #2885)";
    }

    @Override
    public String effect() {
        return "On a SYNC_MASTER, each put wakes the HA connections' write threads through a per-thread atomic state "
            + "instead of under the WaitNotifyObject's monitor: a busy write thread costs the put one volatile read, a "
            + "waiting one a compare-and-set and an unpark; a thread's first wait returns at once instead of possibly "
            + "missing a put for 100 ms.";
    }

    @Override
    public String why() {
        return "Stock enters the monitor, walks a HashMap and may notifyAll on every synchronous put, contending with the "
            + "other send threads and the write thread; upstream removed the lock in 4.9.1 (docs/send-path.md, "
            + "#2885 in its upstream table).";
    }

    @Override
    public String verification() {
        return "Sends to a SYNC_MASTER are answered SEND_OK once the slave holds them, with no pause of a write thread's "
            + "100 ms interval after a put; -Drmqpatch.disable=P16 restores the monitor.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT; codec: HaWakeupsTest";
    }

    @Override
    public String benchmark() {
        return "HaWakeupBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and without "
            + "-Drmqpatch.disable=P16";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's WaitNotifyObject sets AtomicBoolean flags by compare-and-set and enters the "
            + "monitor only when one was clear (read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new EntryHook(Stock.WNO_WAKEUP_ALL, Codec.HA_WAKEUP_ALL),
            new EntryHook(Stock.WNO_ALL_WAIT_FOR_RUNNING, Codec.HA_ALL_WAIT_FOR_RUNNING),
            new EntryHook(Stock.WNO_REMOVE_WAITING_THREAD, Codec.HA_REMOVE_WAITING_THREAD));
    }
}
