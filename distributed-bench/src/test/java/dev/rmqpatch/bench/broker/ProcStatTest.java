package dev.rmqpatch.bench.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcStatTest {

    @Test
    void processTicksAreCountedFromTheLastParenthesis() {
        // A command name with spaces and a ')' must not shift the fields.
        String line = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 567 0 0 20 0 50 0 100 0 0";
        assertEquals(1234 + 567, ProcStat.parseProcessCpuTicks(line));
    }

    @Test
    void machineIdleIsIdleIowaitAndStealOverEveryCpu() {
        // user nice system idle iowait irq softirq steal guest guest_nice; guest (7) is already inside user.
        ProcStat.MachineIdle m = ProcStat.parseMachineIdle(java.util.List.of("cpu  100 5 50 1000 20 1 2 3 7 0",
            "cpu0 50 2 25 500 10 0 1 2 3 0", "cpu1 50 3 25 500 10 1 1 1 4 0", "intr 12345 0 0", "ctxt 999"));
        assertEquals(2, m.cpus());
        assertEquals(ProcStat.ticksToNanos(1000 + 20 + 3), m.idleNanos());
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parseMachineIdle(java.util.List.of("intr 1")));
    }

    @Test
    void ownProcessAndMachineAreReadable() {
        Long self = ProcStat.processCpuNanos(ProcessHandle.current().pid());
        assertNotNull(self);
        assertTrue(self > 0);
        assertNull(ProcStat.processCpuNanos(Long.MAX_VALUE));
        ProcStat.MachineIdle machine = ProcStat.machineIdle();
        assertNotNull(machine);
        assertTrue(machine.cpus() >= Runtime.getRuntime().availableProcessors(), "every online CPU: " + machine.cpus());
        assertTrue(machine.idleNanos() > 0);
    }

    @Test
    void jstatLinesAreParsed() {
        String header = "    S0C    S1C    S0U    S1U      EC       EU        OC         OU       MC     MU    CCSC   CCSU   YGC     YGCT    FGC    FGCT     CGC    CGCT     GCT   ";
        String line = "     0.0    0.0    0.0    0.0 114688.0  16384.0  1982464.0      0.0      0.0    0.0    0.0    0.0     12    0.150     1    0.020     4    0.010    0.180";
        double[] gc = GcMonitor.parse(header, line);
        assertEquals(180.0, gc[0], 1e-9);
        assertEquals(17.0, gc[1], 1e-9);
        assertNull(GcMonitor.parse(header, "     0.0    0.0  12"), "a half-written line is skipped");
        assertNull(GcMonitor.parse(header, header), "the header itself is no sample");
    }

    @Test
    void figuresDivideByMessagesStoredInTheWindow() {
        BrokerSample a = new BrokerSample();
        a.wallNanos = 0;
        a.putMessages = 1_000L;
        a.commitLogMaxOffset = 500_000L;
        a.brokerCpuNanos = 10_000_000_000L;
        a.gcPauseMillis = 100.0;
        a.gcCollections = 3.0;
        a.machine = new ProcStat.MachineIdle(0L, 2);
        a.roleCpuNanos = new java.util.LinkedHashMap<>(java.util.Map.of("broker", 10_000_000_000L));
        BrokerSample b = new BrokerSample();
        b.wallNanos = 10_000_000_000L;
        b.putMessages = 201_000L;
        b.commitLogMaxOffset = 500_000L + 200_000L * 450;
        b.brokerCpuNanos = 20_000_000_000L;
        b.gcPauseMillis = 160.0;
        b.gcCollections = 7.0;
        b.machine = new ProcStat.MachineIdle(5_000_000_000L, 2);
        b.roleCpuNanos = new java.util.LinkedHashMap<>(java.util.Map.of("broker", 20_000_000_000L));
        BrokerFigures f = BrokerFigures.between(a, b);
        assertEquals(200_000L, f.messagesStored);
        assertEquals(20_000.0, f.storedPerSecond, 1e-9);
        assertEquals(50.0, f.cpuUsPerMsg, 1e-9);
        assertEquals(450.0, f.storedBytesPerMsg, 1e-9);
        assertEquals(60.0, f.gcPauseMillis, 1e-9);
        assertEquals(4.0, f.gcCollections, 1e-9);
        assertEquals(1.0, f.brokerCores, 1e-9);
        assertEquals(1.5, f.machineBusyCores, 1e-9);
        assertEquals(0.5, f.otherCores, 1e-9);
    }

    @Test
    void missingCountersGiveNullFiguresNotZero() {
        BrokerSample a = new BrokerSample();
        BrokerSample b = new BrokerSample();
        b.wallNanos = 1_000_000_000L;
        a.putMessages = 0L;
        b.putMessages = 0L;
        BrokerFigures f = BrokerFigures.between(a, b);
        assertEquals(0L, f.messagesStored);
        assertNull(f.cpuUsPerMsg);
        assertNull(f.storedBytesPerMsg);
        assertNull(f.gcPauseMillis);
    }
}
