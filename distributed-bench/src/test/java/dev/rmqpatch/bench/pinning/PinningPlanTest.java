package dev.rmqpatch.bench.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pinning plan, and what happens where affinity cannot be set; no real process is touched. */
class PinningPlanTest {

    @Test
    void twoCoresGiveTheBrokersCoreOneAndEverythingElseCoreZero() {
        PinningPlan plan = PinningPlan.forCpus(List.of(0, 1));
        assertTrue(plan.possible());
        assertEquals(List.of(1), plan.brokerCpus());
        assertEquals(List.of(0), plan.otherCpus());
        assertEquals(2, plan.machineCpus(), "the JVMs are told the unpinned count");
        assertEquals("brokers on CPU 1, name servers, agents and the coordinator on CPU 0", plan.describe());
    }

    @Test
    void largerMachinesSplitInHalvesOfTheAllowedCpus() {
        PinningPlan eight = PinningPlan.forCpus(CpuList.parse("0-7"));
        assertEquals(List.of(4, 5, 6, 7), eight.brokerCpus());
        assertEquals(List.of(0, 1, 2, 3), eight.otherCpus());
        PinningPlan three = PinningPlan.forCpus(CpuList.parse("2,4,6"));
        assertEquals(List.of(4, 6), three.brokerCpus(), "an odd CPU goes to the brokers");
        assertEquals(List.of(2), three.otherCpus());
    }

    @Test
    void oneCpuMeansNoPinningAndSaysWhy() {
        PinningPlan plan = PinningPlan.forCpus(List.of(3));
        assertFalse(plan.possible());
        assertTrue(plan.impossibleBecause().contains("only CPU 3"), plan.impossibleBecause());
        FakeAffinity affinity = new FakeAffinity(List.of(3));
        CpuPinning pinning = new CpuPinning(affinity, plan);
        assertFalse(pinning.pin(List.of(10L), List.of(20L)));
        assertTrue(affinity.pinned.isEmpty(), "nothing touched");
        assertTrue(pinning.describe().startsWith("not pinned (this process may use only CPU 3"), pinning.describe());
    }

    @Test
    void unreadableAffinityIsAnImpossiblePlanNotAFailure() {
        PinningPlan plan = PinningPlan.of(new FakeAffinity(null));
        assertFalse(plan.possible());
        assertTrue(plan.impossibleBecause().contains("/proc/self/status"), plan.impossibleBecause());
        assertEquals(1, plan.machineCpus());
    }

    @Test
    void pinsBrokersAndOthersThenRestoresAllCpus() {
        FakeAffinity affinity = new FakeAffinity(List.of(0, 1));
        CpuPinning pinning = new CpuPinning(affinity, PinningPlan.of(affinity));
        assertTrue(pinning.pin(List.of(100L, 101L), List.of(200L, 300L)));
        assertTrue(pinning.pinned());
        assertEquals(List.of(1), affinity.pinned.get(100L));
        assertEquals(List.of(1), affinity.pinned.get(101L));
        assertEquals(List.of(0), affinity.pinned.get(200L));
        assertEquals(List.of(0), affinity.pinned.get(300L));
        assertTrue(pinning.describe().startsWith("pinned (brokers on CPU 1"), pinning.describe());
        pinning.unpin(List.of(100L, 101L, 200L, 300L));
        assertFalse(pinning.pinned());
        affinity.pinned.values().forEach(cpus -> assertEquals(List.of(0, 1), cpus));
        assertNull(pinning.failure());
    }

    @Test
    void whereTasksetIsRefusedTheRunFallsBackToUnpinnedAndStaysThere() {
        FakeAffinity affinity = new FakeAffinity(List.of(0, 1));
        affinity.failFromCall = 3;
        CpuPinning pinning = new CpuPinning(affinity, PinningPlan.of(affinity));
        List<Long> brokers = List.of(100L, 101L);
        List<Long> others = new ArrayList<>(List.of(200L));
        assertFalse(pinning.pin(brokers, others), "the third process could not be pinned");
        assertFalse(pinning.pinned());
        assertFalse(pinning.available());
        assertTrue(pinning.failure().contains("Operation not permitted"), pinning.failure());
        assertTrue(pinning.describe().startsWith("not pinned (taskset"), pinning.describe());
        int calls = affinity.calls;
        assertFalse(pinning.pin(brokers, others), "no second attempt");
        assertEquals(calls, affinity.calls);
    }

    @Test
    void cpuListsReadAndWriteTheKernelNotation() {
        assertEquals(List.of(0, 1, 2, 5, 8, 9), CpuList.parse(" 0-2,5,8-9\n"));
        assertEquals("0-2,5,8-9", CpuList.format(List.of(9, 8, 5, 2, 1, 0)));
        assertEquals("3", CpuList.format(List.of(3)));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("3-1"));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("x"));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse(""));
    }
}
