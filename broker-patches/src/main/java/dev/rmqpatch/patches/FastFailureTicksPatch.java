package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.Opcodes;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P39. Targets: {@code BrokerFastFailure.start()} (its {@code scheduleAtFixedRate} of the check, every 10 ms) and the
 * check itself, {@code BrokerFastFailure$1.run()} (its read of {@code BrokerController.getBrokerConfig()}), in
 * rocketmq-broker. Replacement: codec's {@code FastFailureTicks}: the same check, rescheduled at stock's period while
 * a request is queued or a put holds the CommitLog's lock, else after the quiet interval (at most 100 ms, never
 * longer than the shortest queue limit or the page-cache busy limit); the config read tells it which broker it checks.
 * Why: the check wakes 100 times a second on every broker, idle or not, master and slave.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class FastFailureTicksPatch implements Patch {

    @Override
    public String id() {
        return "P39";
    }

    @Override
    public String name() {
        return "fast-failure-ticks";
    }

    @Override
    public String buys() {
        return "the fast-failure check runs every 10 ms only while a request is queued or a put holds the lock "
            + "(idle: 10 wake-ups a second, not 100)";
    }

    @Override
    public String effect() {
        return "BrokerFastFailure's check (SYSTEM_BUSY to sends queued while the page cache is busy and to requests "
            + "queued past their queue's limit) runs as stock's, the same Runnable and the same answers, but is "
            + "rescheduled after each run: 10 ms after the last planned run (stock's fixed rate) while the send, pull, "
            + "heartbeat or end-transaction queue holds a request or a put holds the CommitLog's lock; otherwise after "
            + "the quiet interval, the shortest of 100 ms, the four queues' limits and osPageCacheBusyTimeOutMills "
            + "(never under 10 ms). A request queued after a quiet check cannot expire, nor the page cache become "
            + "busy, before that interval has passed, so every request is answered when stock would answer it, to "
            + "within stock's own 10 ms. A plug-in store, or a check that has not yet run, keeps stock's period; a "
            + "throw or the executor's shutdown ends the check, as it ends stock's periodic task.";
    }

    @Override
    public String why() {
        return "An idle broker's BrokerFastFailure thread wakes 100 times a second: 2,129-2,160 context switches and "
            + "70-106 ms of CPU in 20 s on JDK 8, idle stock 4.9.8 and patched 4.9.0 "
            + "(docs/results/reput-idle-2026-11-29/), on every broker, master and slave, whatever its load: a fixed "
            + "cost that weighs most at the low rates where the pair's ratio to stock 4.9.8 is least favourable "
            + "(BENCHMARKS rows 107 and 109, 400 msg/s).";
    }

    @Override
    public String verification() {
        return "The BrokerFastFailure thread of an idle patched broker switches context about 10 times a second, "
            + "stock's (and with -Drmqpatch.disable=P39) about 100 (/proc/<pid>/task/*/status); sends queued behind a "
            + "stalled put are still answered SYSTEM_BUSY while the queue holds them, as stock's are.";
    }

    @Override
    public String tests() {
        return "IdleWakeupsIT; codec: FastFailureTicksTest; stall-agent: FastFailureStallIT";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency (single broker and --topology ms-sync), variants "
            + "4.9.8-patched and 4.9.8-patched-without-P39; the idle wake-ups are counted by its tests";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.FAST_FAILURE_START, Stock.SCHEDULE_AT_FIXED_RATE, Opcodes.INVOKEINTERFACE,
                Codec.FAST_FAILURE_SCHEDULE, 1),
            ReplaceCall.ofInstanceCall(Stock.FAST_FAILURE_CHECK_RUN, Stock.GET_BROKER_CONFIG, Opcodes.INVOKEVIRTUAL,
                Codec.FAST_FAILURE_BROKER_CONFIG, 1));
    }
}
