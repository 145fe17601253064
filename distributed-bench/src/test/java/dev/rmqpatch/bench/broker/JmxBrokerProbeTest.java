package dev.rmqpatch.bench.broker;

import dev.rmqpatch.cluster.FreePorts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JmxBrokerProbeTest {

    @Test
    void targetsAreParsedFromACommaList() {
        assertEquals(List.of("10.0.0.1:10914", "host2:11014", "[::1]:10914"),
            JmxBrokerProbe.parseTargets(" 10.0.0.1:10914, host2:11014,,[::1]:10914,10.0.0.1:10914"));
    }

    @Test
    void badTargetsAreRejectedByName() {
        for (String bad : List.of("10.0.0.1", ":10914", "host:0", "host:70000", "host:x", "::1:10914", ",")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmxBrokerProbe.parseTargets(bad), bad);
            assertTrue(e.getMessage().contains(bad.equals(",") ? "no HOST:PORT" : bad), e.getMessage());
        }
    }

    @Test
    void totalsSumAllBrokersOrNone() {
        List<String> targets = List.of("a:1", "b:1");
        JmxBrokerProbe.Totals both = JmxBrokerProbe.Totals.of(Map.of(
            "a:1", new JmxBrokerProbe.Reading(1_000, 10, 2),
            "b:1", new JmxBrokerProbe.Reading(3_000, 5, 1)), targets);
        assertEquals(4_000L, both.cpuNanos());
        assertEquals(15.0, both.gcMillis());
        assertEquals(3.0, both.gcCollections());
        // One broker's CPU divided by both brokers' messages would understate the cost: no figure instead.
        JmxBrokerProbe.Totals one = JmxBrokerProbe.Totals.of(Map.of("a:1", new JmxBrokerProbe.Reading(1_000, 10, 2)), targets);
        assertNull(one.cpuNanos());
        assertNull(one.gcMillis());
        assertNull(one.gcCollections());
    }

    @Test
    void cpuPerMessageIsTheSumOverMastersPerMessageStored() {
        List<String> targets = List.of("a:1", "b:1");
        BrokerSample start = sample(0, 1_000_000, JmxBrokerProbe.Totals.of(Map.of(
            "a:1", new JmxBrokerProbe.Reading(5_000_000_000L, 100, 4),
            "b:1", new JmxBrokerProbe.Reading(7_000_000_000L, 50, 3)), targets));
        BrokerSample end = sample(10_000_000_000L, 1_200_000, JmxBrokerProbe.Totals.of(Map.of(
            "a:1", new JmxBrokerProbe.Reading(6_500_000_000L, 130, 6),
            "b:1", new JmxBrokerProbe.Reading(9_500_000_000L, 60, 4)), targets));
        BrokerFigures f = BrokerFigures.between(start, end);
        // (1.5 s + 2.5 s) of CPU over 200,000 messages = 20 us each; 4 s of CPU in 10 s = 0.4 cores.
        assertEquals(20.0, f.cpuUsPerMsg, 1e-9);
        assertEquals(0.4, f.brokerCores, 1e-9);
        assertEquals(40.0, f.gcPauseMillis);
        assertEquals(3.0, f.gcCollections);
    }

    private static BrokerSample sample(long wallNanos, long puts, JmxBrokerProbe.Totals t) {
        BrokerSample s = new BrokerSample();
        s.wallNanos = wallNanos;
        s.putMessages = puts;
        s.brokerCpuNanos = t.cpuNanos();
        s.gcPauseMillis = t.gcMillis();
        s.gcCollections = t.gcCollections();
        return s;
    }

    @Test
    void anUnreachableBrokerIsAWarningNamingItNotAnError() throws Exception {
        String target = "127.0.0.1:" + FreePorts.any();
        try (JmxBrokerProbe probe = new JmxBrokerProbe(List.of(target), Duration.ofSeconds(5))) {
            assertEquals(List.of(), probe.connect());
            BrokerSample s = new BrokerSample();
            s.brokerCpuNanos = 1L;
            probe.fill(s);
            assertNull(s.brokerCpuNanos);
            assertNull(s.gcPauseMillis);
            assertEquals(1, probe.warnings().size(), probe.warnings().toString());
            assertTrue(probe.warnings().get(0).contains(target), probe.warnings().get(0));
        }
    }

    @Test
    void readsCpuAndGcOfAnotherJvm() throws Exception {
        try (JmxTestJvm jvm = JmxTestJvm.start();
             JmxBrokerProbe probe = new JmxBrokerProbe(List.of(jvm.target()), Duration.ofSeconds(20))) {
            assertEquals(List.of(jvm.target()), probe.connect(), probe.warnings().toString());
            JmxBrokerProbe.Totals first = probe.sample();
            assertNotNull(first.cpuNanos(), probe.warnings().toString());
            assertTrue(first.cpuNanos() > 0, "cpu " + first.cpuNanos());
            // The child ran System.gc() three times before it said ready.
            assertTrue(first.gcCollections() >= 3, "collections " + first.gcCollections());
            jvm.burn();
            JmxBrokerProbe.Totals second = probe.sample();
            assertTrue(second.cpuNanos() > first.cpuNanos(), first.cpuNanos() + " -> " + second.cpuNanos());
            assertTrue(second.gcCollections() >= first.gcCollections());
            assertEquals(List.of(), probe.warnings());
        }
    }
}
