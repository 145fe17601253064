package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P38. Targets: {@code DefaultMessageStore$ReputMessageService.run()} (the store's dispatch thread: its
 * {@code Thread.sleep(1)} before each {@code doReput()}), {@code DefaultMessageStore.start()}, and the calls that
 * follow every append: {@code CommitLog.submitFlushRequest}, 4.9.0's {@code CommitLog.handleDiskFlush} (its synchronous
 * puts) and a slave's {@code HAService$HAClient.reportSlaveMaxOffsetPlus()}, all in rocketmq-store.
 * Replacement: codec's {@code ReputWakeups}: the sleep becomes {@code pause}, stock's sleep until five cycles in a row
 * found nothing, then a park until the next append (at most 10 ms); the three calls' entries signal the append;
 * the store's start turns parking off for stores whose appends take another path (transient store pool, DLedger).
 * Why: stock's dispatch thread wakes every millisecond whether or not anything was stored.
 * Ships off ({@link #onByDefault()}): it saves 14-17% of the pair's CPU at 50 msg/s and a third of an idle broker's,
 * but at 400-1,300 msg/s no saving was measured (0.93-1.12x of P38 off beside the harness's idle neighbours; 1.016
 * [0.971, 1.062] at 400 msg/s with them stopped).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ReputWakeupPatch implements Patch {

    @Override
    public String id() {
        return "P38";
    }

    @Override
    public String name() {
        return "reput-wakeup";
    }

    @Override
    public boolean onByDefault() {
        return false;
    }

    @Override
    public String buys() {
        return "the dispatch thread waits for the next append instead of waking every millisecond (idle: 100 "
            + "wake-ups a second, not 1,000)";
    }

    @Override
    public String effect() {
        return "The store's dispatch thread (ReputMessageService), which stock wakes every millisecond to look for new "
            + "CommitLog bytes, keeps stock's 1 ms sleep until five in a row found nothing; then it parks until the next "
            + "append or 10 ms, and dispatches at once. Every successful put (after the put lock is released: "
            + "CommitLog.submitFlushRequest, 4.9.0's handleDiskFlush) and every block a slave appends "
            + "(HAClient.reportSlaveMaxOffsetPlus) ends the park; one ended by an append less than 5 ms after it began "
            + "brings stock's sleep back. So an idle broker, or one whose appends come at least 5 ms apart, parks; a "
            + "busier one runs stock's cadence, a put costing it one volatile read. The dispatch itself is stock's; a "
            + "message can only be dispatched sooner (at once instead of up to 1 ms later) or, were an append path "
            + "missed, at most 10 ms later. A store with the transient store pool or the DLedger CommitLog "
            + "keeps stock's sleep (their bytes become readable without those calls); so does every other store's "
            + "dispatch thread in the same JVM while one parks.";
    }

    @Override
    public String why() {
        return "An idle stock 4.9.8 broker on JDK 8 spent 317 ms of CPU and 18,887 context switches in 20 s on its "
            + "dispatch thread alone, 38% of the broker's CPU and 57% of its switches; patched 4.9.0's dispatch thread "
            + "76 ms and 2,086, the whole broker 451 ms against 707 ms with P38 off "
            + "(docs/results/reput-idle-2026-11-29/); "
            + "master and slave both pay it, whatever their load. A first version that parked after one empty cycle "
            + "made each put at 700-1,000 msg/s unpark the thread, which cost more than the sleeps it saved "
            + "(docs/results/eff-2026-11-29-mssync-p38-first-design/: the slave's context switches per message 5.8 "
            + "against 2.7); hence the five empty cycles first. Measured (BENCHMARKS rows 106-109): at 50 msg/s the "
            + "pair costs 0.83-0.86x of P38 off, resolved; at 400-1,300 msg/s, where it runs stock's sleep (the same "
            + "dispatch-thread switches per message), 0.93-1.12x with the harness's other pairs idling beside it, "
            + "above 1 in 8 of 10 cells and resolved so in two, its master preempted more in every pinned cell; with "
            + "those neighbours stopped (--freeze-idle, 400 msg/s pinned, two runs) 1.016 [0.971, 1.062] and the "
            + "extra preemption gone. No saving there and none at higher rates to expect, so it "
            + "ships off, for idle and quiet brokers (-Drmqpatch.enable=P38).";
    }

    @Override
    public String verification() {
        return "The dispatch thread of an idle patched broker switches context at most about 100 times a second, "
            + "stock's about 1,000 (/proc/<pid>/task/*/status, thread ReputMessageService); a consumer receives every "
            + "message sent one by one to the idle broker, and a slave's consume queues are written as it replicates; "
            + "it runs only with -Drmqpatch.enable=P38; by default the dispatch thread sleeps stock's 1 ms.";
    }

    @Override
    public String tests() {
        return "IdleWakeupsIT, MasterSlaveIT; codec: ReputWakeupsTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency (single broker and --topology ms-sync) with and without "
            + "-Drmqpatch.enable=P38 (variants 4.9.8-patched-with-P38 and 4.9.8-patched); the idle wake-ups are counted "
            + "by its IT";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.variant(
            "4.9.1 to 4.9.8 have no synchronous CommitLog.putMessage, so no handleDiskFlush: every put ends in "
            + "submitFlushRequest (javap of 4.9.3, 4.9.4, 4.9.7, 4.9.8); the run loop's Thread.sleep(1) is 4.9.0's",
            common()) : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        List<MethodEdit> edits = new ArrayList<MethodEdit>(common());
        edits.add(new EntryHook(Stock.COMMIT_LOG_HANDLE_DISK_FLUSH, Codec.REPUT_DISK_FLUSHING));
        return edits;
    }

    /** The edits of every release: the sleep, the store's start, the asynchronous puts' and the slave's signals. */
    private static List<MethodEdit> common() {
        return Arrays.<MethodEdit>asList(
            new ReplaceCall(Stock.REPUT_RUN, Stock.THREAD_SLEEP, Codec.REPUT_PAUSE, 1),
            new EntryHook(Stock.STORE_START, Codec.REPUT_STORE_STARTING),
            new EntryHook(Stock.COMMIT_LOG_SUBMIT_FLUSH, Codec.REPUT_FLUSH_REQUESTED),
            new EntryHook(Stock.HA_CLIENT_REPORT_PLUS, Codec.REPUT_SLAVE_REPORTING));
    }
}
