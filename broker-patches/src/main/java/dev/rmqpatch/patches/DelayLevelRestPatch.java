package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.Opcodes;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P40. Targets: {@code ScheduleMessageService$DeliverDelayedMessageTimerTask} (a delay level's task: its
 * {@code cq.getIndexBuffer(offset)} in {@code executeOnTimeup()}, and its rescheduling, the timer's {@code schedule}
 * in {@code executeOnTimeup()} on 4.9.0-4.9.2, the executor's in {@code scheduleNextTimerTask} from 4.9.3) and
 * {@code DefaultMessageStore$CommitLogDispatcherBuildConsumeQueue.dispatch} (its {@code putMessagePositionInfo}), in
 * rocketmq-store. Replacement: codec's {@code DelayLevelRest}: a level whose run found its queue delivered to the end
 * rests until the next dispatch to that queue, which schedules it at once.
 * Why: a master's 18 delay levels each look for work every 100 ms whether or not any delayed message is stored.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class DelayLevelRestPatch implements Patch {

    @Override
    public String id() {
        return "P40";
    }

    @Override
    public String name() {
        return "delay-level-rest";
    }

    @Override
    public String buys() {
        return "a master's delay level with nothing to deliver waits for its next delayed message instead of looking "
            + "every 100 ms (18 levels: 180 looks a second)";
    }

    @Override
    public String effect() {
        return "The master's schedule service (ScheduleMessageService) runs one task per delay level, which reads the "
            + "level's consume queue, delivers what is due and looks again 100 ms later. A run that found the queue "
            + "delivered to its end schedules its next task nowhere: the task rests until a delayed message of that "
            + "level is dispatched to the queue (CommitLogDispatcherBuildConsumeQueue), which runs it at once, after "
            + "the entry is written. Any other run, and a longer delay (4.9.3+'s 10 s back-off after a throw), is "
            + "scheduled as stock's, so messages stored for a level are polled every 100 ms and delivered when due, as "
            + "stock delivers them; the first look after a dispatch comes at the dispatch, not up to 100 ms later. A "
            + "rest and a dispatch that race are settled by each writing before it reads: the task publishes its rest "
            + "and reads the queue's end again. A stopped service's rests are never run (its executor refuses them).";
    }

    @Override
    public String why() {
        return "On a master the 18 delay levels' runs find nothing 180 times a second when no delayed message is "
            + "stored: on 4.9.8's pool of 18 threads about 430 context switches and 8-13 ms of CPU a second on JDK 8 "
            + "(docs/results/idle-timers-2026-11-30/ and p40-2026-11-30/; 4.9.0's one timer thread serves them "
            + "together, 15-27 switches a second), whatever the master's load: a fixed cost that weighs most at the "
            + "low rates where the pair's ratio to stock 4.9.8 is least favourable (BENCHMARKS rows 109 and 112). With "
            + "P40 the idle pool used 2 ms of CPU and 7-9 switches in 20 s (row 114); side by side under load (400 "
            + "msg/s, the pair) its saving, about 4% of the pair there, was not resolved (1.018, 0.964-1.075).";
    }

    @Override
    public String verification() {
        return "The schedule service's threads of an idle patched master hardly switch context (none in 1-3 s in "
            + "the tests), stock's (and with -Drmqpatch.disable=P40) about 430 times a second on 4.9.3+'s pool and "
            + "15-27 on 4.9.0's timer (/proc/<pid>/task/*/status, threads ScheduleMessageTimerThread*); "
            + "a consumer still receives every delayed message sent to the idle broker, on 4.9.0 and each later release; "
            + "upstream's ScheduleMessageServiceTest passes on the patched jars.";
    }

    @Override
    public String tests() {
        return "IdleWakeupsIT, PatchLibIT, BrokerFeaturesIT; codec: DelayLevelRestTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --topology ms-sync, variants 4.9.8-patched and "
            + "4.9.8-patched-without-P40; the idle threads' CPU and switches by "
            + "docs/results/reput-idle-2026-11-29/idle-threads.sh";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.variant(
            "4.9.3 moved the delay levels from one java.util.Timer to a ScheduledExecutorService of 18 threads: the "
            + "task reschedules itself in scheduleNextTimerTask (javap of 4.9.3, 4.9.4, 4.9.7, 4.9.8)",
            Arrays.<MethodEdit>asList(
                readOfTheQueue(),
                ReplaceCall.ofInstanceCall(Stock.SCHEDULE_TASK_NEXT, Stock.SCHEDULE_ONCE, Opcodes.INVOKEINTERFACE,
                    Codec.DELAY_SCHEDULE, 1),
                dispatch())) : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            readOfTheQueue(),
            ReplaceCall.ofInstanceCall(Stock.SCHEDULE_TASK_EXECUTE, Stock.TIMER_SCHEDULE, Opcodes.INVOKEVIRTUAL,
                Codec.DELAY_TIMER_SCHEDULE, 4),
            dispatch());
    }

    private static MethodEdit readOfTheQueue() {
        return ReplaceCall.ofInstanceCall(Stock.SCHEDULE_TASK_EXECUTE, Stock.CQ_GET_INDEX_BUFFER, Opcodes.INVOKEVIRTUAL,
            Codec.DELAY_INDEX_BUFFER, 1);
    }

    private static MethodEdit dispatch() {
        return ReplaceCall.ofInstanceCall(Stock.BUILD_CQ_DISPATCH, Stock.STORE_PUT_POSITION_INFO, Opcodes.INVOKEVIRTUAL,
            Codec.DELAY_DISPATCHED, 1);
    }
}
