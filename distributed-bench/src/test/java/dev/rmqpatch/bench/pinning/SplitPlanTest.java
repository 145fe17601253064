package dev.rmqpatch.bench.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The split placement: which thread goes to which CPU for 1, 2, 3, 4 and 8 CPUs, and how it is applied and re-applied. */
class SplitPlanTest {
    /** A broker's threads as the kernel names them (the first 15 characters of the Java names), by thread id. */
    private static Map<Long, String> brokerThreads() {
        Map<Long, String> t = new LinkedHashMap<>();
        t.put(1L, "NettyNIOBoss_1");
        t.put(2L, "NettyServerNIOS");   // NettyServerNIOSelector_3_1: an IO thread
        t.put(3L, "NettyServerCode");   // NettyServerCodecThread_1
        t.put(4L, "SendMessageThre");   // SendMessageThread_1
        t.put(5L, "ReputMessageSer");
        t.put(6L, "G1 Young RemSet");
        t.put(7L, "C2 CompilerThre");
        t.put(8L, "java");              // JDK 8 names nearly every thread so
        return t;
    }

    private static Map<Long, List<Integer>> expected(List<Integer> io, List<Integer> codec, List<Integer> send, List<Integer> rest) {
        Map<Long, List<Integer>> e = new LinkedHashMap<>();
        e.put(1L, io);
        e.put(2L, io);
        e.put(3L, codec);
        e.put(4L, send);
        for (long tid = 5; tid <= 8; tid++) {
            e.put(tid, rest);
        }
        return e;
    }

    @Test
    void oneCpuCannotBeSplitAndSaysWhy() {
        SplitPlan plan = SplitPlan.forCpus(List.of(3));
        assertFalse(plan.possible());
        assertTrue(plan.impossibleBecause().contains("only CPU 3"), plan.impossibleBecause());
        assertTrue(plan.describe().startsWith("no split possible"), plan.describe());
    }

    @Test
    void twoCpusPutIoAndCodecOnTheFirstAndSendOnTheSecond() {
        SplitPlan plan = SplitPlan.forCpus(List.of(0, 1));
        assertTrue(plan.possible());
        assertEquals(expected(List.of(0), List.of(0), List.of(1), List.of(0, 1)), plan.assign(brokerThreads()));
        assertEquals(List.of(0, 1), plan.otherCpus(), "no CPU is left for the rest: everything else on both");
        assertEquals("per broker: netty IO and codec threads on CPU 0, send threads on CPU 1, its other threads on CPU 0-1; "
            + "name servers, slaves, agents and the coordinator on CPU 0-1", plan.describe());
    }

    @Test
    void threeCpusGiveEachGroupOne() {
        SplitPlan plan = SplitPlan.forCpus(List.of(0, 1, 2));
        assertEquals(expected(List.of(0), List.of(1), List.of(2), List.of(0, 1, 2)), plan.assign(brokerThreads()));
        assertEquals(List.of(0, 1, 2), plan.otherCpus());
    }

    @Test
    void fourCpusLeaveOneForEverythingElse() {
        SplitPlan plan = SplitPlan.forCpus(List.of(0, 1, 2, 3));
        assertEquals(expected(List.of(1), List.of(2), List.of(3), List.of(1, 2, 3)), plan.assign(brokerThreads()));
        assertEquals(List.of(0), plan.otherCpus());
        SplitPlan gaps = SplitPlan.forCpus(CpuList.parse("2,4,6,8"));
        assertEquals(expected(List.of(4), List.of(6), List.of(8), List.of(4, 6, 8)), gaps.assign(brokerThreads()),
            "the CPUs this process may use, in their order");
        assertEquals(List.of(2), gaps.otherCpus());
    }

    @Test
    void eightCpusGiveTheRestHalfAndSendTheRemainderOfTheOtherHalf() {
        SplitPlan plan = SplitPlan.forCpus(CpuList.parse("0-7"));
        assertEquals(expected(List.of(4), List.of(5), List.of(6, 7), List.of(4, 5, 6, 7)), plan.assign(brokerThreads()));
        assertEquals(List.of(0, 1, 2, 3), plan.otherCpus());
        SplitPlan six = SplitPlan.forCpus(CpuList.parse("0-5"));
        assertEquals(expected(List.of(3), List.of(4), List.of(5), List.of(3, 4, 5)), six.assign(brokerThreads()));
        assertEquals(List.of(0, 1, 2), six.otherCpus());
    }

    @Test
    void splittingPlacesEachThreadThenOnlyThoseStartedSince() {
        FakeAffinity affinity = new FakeAffinity(List.of(0, 1));
        brokerThreads().forEach((tid, name) -> affinity.thread(100, tid, name, List.of(0, 1)));
        affinity.thread(200, 201, "java", List.of(0, 1));
        CpuPinning pinning = new CpuPinning(affinity, PinningPlan.of(affinity));
        assertTrue(pinning.split(List.of(100L), List.of(200L)));
        assertEquals(Placement.SPLIT, pinning.placement());
        assertEquals(List.of(0, 1), affinity.pinned.get(200L), "agents and name servers on both CPUs");
        assertEquals(List.of(0, 1), affinity.pinned.get(100L), "the whole broker first on its CPUs");
        assertEquals(List.of(1L, 2L, 3L, 4L), affinity.threadCalls, "then IO, codec and send threads one by one");
        assertEquals(List.of(0), affinity.threadCpus.get(2L));
        assertEquals(List.of(0), affinity.threadCpus.get(3L));
        assertEquals(List.of(1), affinity.threadCpus.get(4L));
        assertEquals(List.of(0, 1), affinity.threadCpus.get(5L));
        ThreadSplit.Report r = pinning.splitReports().get(100L);
        assertEquals(2, r.placed(SplitPlan.Role.IO));
        assertEquals(1, r.placed(SplitPlan.Role.CODEC));
        assertEquals(1, r.placed(SplitPlan.Role.SEND));
        assertEquals(4, r.placed(SplitPlan.Role.REST));
        assertEquals(0, r.notPlaced);
        assertTrue(pinning.describe().startsWith("split (per broker: netty IO and codec threads on CPU 0"), pinning.describe());

        // The send executor grows: its new thread, started by a codec thread, inherits CPU 0 until the next window start.
        affinity.thread(100, 9, "SendMessageThre", List.of(0));
        assertEquals(Placement.SPLIT, pinning.reapply(100));
        assertEquals(List.of(1L, 2L, 3L, 4L, 9L), affinity.threadCalls, "only the new thread");
        assertEquals(List.of(1), affinity.threadCpus.get(9L));
        assertEquals(2, pinning.splitReports().get(100L).placed(SplitPlan.Role.SEND));
        assertEquals(5, pinning.threadCalls());
        assertEquals(Placement.SPLIT, pinning.reapply(100));
        assertEquals(5, affinity.threadCalls.size(), "nothing to do when nothing started");

        // Pinned next: the whole broker onto CPU 1 again; split after that places every thread anew.
        assertTrue(pinning.pin(List.of(100L), List.of(200L)));
        assertEquals(List.of(1), affinity.threadCpus.get(2L));
        assertEquals(Placement.PINNED, pinning.reapply(100), "re-applying does nothing outside split");
        assertTrue(pinning.split(List.of(100L), List.of(200L)));
        assertEquals(List.of(0), affinity.threadCpus.get(2L));
        assertEquals(List.of(1), affinity.threadCpus.get(9L));
    }

    @Test
    void whereAThreadCannotBePlacedTheRunFallsBackToUnpinned() {
        FakeAffinity affinity = new FakeAffinity(List.of(0, 1));
        brokerThreads().forEach((tid, name) -> affinity.thread(100, tid, name, List.of(0, 1)));
        CpuPinning pinning = new CpuPinning(affinity, PinningPlan.of(affinity));
        assertTrue(pinning.split(List.of(100L), List.of(200L)));
        affinity.failFromCall = affinity.calls + 1;
        affinity.thread(100, 9, "SendMessageThre", List.of(0));
        assertEquals(Placement.UNPINNED, pinning.reapply(100), "the window then runs (and is recorded) unpinned");
        assertFalse(pinning.available());
        assertTrue(pinning.failure().contains("Operation not permitted"), pinning.failure());
        int calls = affinity.calls;
        assertFalse(pinning.split(List.of(100L), List.of(200L)), "no second attempt");
        assertEquals(calls, affinity.calls);
    }

    @Test
    void oneCpuTouchesNothing() {
        FakeAffinity affinity = new FakeAffinity(List.of(3));
        CpuPinning pinning = new CpuPinning(affinity, PinningPlan.of(affinity));
        assertFalse(pinning.split(List.of(100L), List.of(200L)));
        assertEquals(0, affinity.calls);
        assertEquals(Placement.UNPINNED, pinning.placement());
    }
}
