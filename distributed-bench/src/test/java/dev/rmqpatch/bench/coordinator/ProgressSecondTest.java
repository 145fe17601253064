package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.stats.Histograms;
import dev.rmqpatch.bench.workload.Workload;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** One second of progress over all agents: rates per agent interval summed, counts summed, histograms merged. */
class ProgressSecondTest {
    private static final List<AgentClient> AGENTS = List.of(new AgentClient("agent-1", "127.0.0.1:1", AgentToken.generate(), null),
        new AgentClient("agent-2", "127.0.0.1:2", AgentToken.generate(), null));

    private static String hist(long... values) {
        Histogram h = Histograms.create();
        for (long v : values) {
            h.recordValue(v);
        }
        return Histograms.encode(h);
    }

    private static ProgressReport report(long intervalNanos, long acked, long consumed) {
        ProgressReport r = new ProgressReport();
        r.state = "MEASURING";
        r.intervalNanos = intervalNanos;
        r.acked = acked;
        r.consumed = consumed;
        return r;
    }

    @Test
    void agentsAreSummedEachOverItsOwnInterval() throws Exception {
        ProgressReport a = report(500_000_000, 100, 50);
        a.failed = 2;
        a.errorsByKind = Map.of("Timeout", 2L);
        a.latencyHistogram = hist(100, 200);
        a.ackedSinceStart = 1_000;
        a.receivedByGroup = Map.of("g0", 700L, "g1", 600L);
        ProgressReport b = report(1_000_000_000, 300, 0);
        b.failed = 1;
        b.errorsByKind = Map.of("Timeout", 1L, "NoRoute", 3L);
        b.latencyHistogram = hist(300);
        b.endToEndHistogram = hist(5, 6);
        b.ackedSinceStart = 2_000;

        ProgressSecond p = ProgressSecond.of(List.of(a, b), AGENTS);
        assertEquals(100 * 2 + 300, p.tps, 1e-9);
        assertEquals(50 * 2, p.consumeTps, 1e-9);
        assertEquals(3, p.errors);
        assertEquals(Map.of("Timeout", 3L, "NoRoute", 3L), p.errorsByKind);
        assertEquals(3, p.latency.getTotalCount());
        assertNull(p.sendDelay, "no agent was rate-limited");
        assertEquals(2, p.endToEnd.getTotalCount());
        assertEquals(1_000_000_000, p.intervalNanos, "the longest interval");
        assertEquals(400, p.acked);
        assertEquals(50, p.consumed);
        assertEquals(3_000, p.ackedSinceStart);
        assertEquals(1_300, p.receivedAll);

        Workload twoSubscriptions = Workload.defaults().withConsumers(2, 1, 0);
        assertEquals(2 * 3_000 - 1_300, p.backlogMessages(twoSubscriptions), "OMB's backlog: subscriptions x published - received");
        assertEquals(1_300 / 2, p.receivedPerSubscription(twoSubscriptions));
        assertEquals(3_000, p.receivedPerSubscription(Workload.defaults()), "produce only: the acknowledged");
    }

    @Test
    void nothingYetIsEmptyNotMissing() throws Exception {
        ProgressSecond p = ProgressSecond.of(List.of(report(0, 0, 0)), AGENTS);
        assertEquals(0, p.tps, 0);
        assertEquals(0, p.latency.getTotalCount());
        assertNull(p.endToEnd);
        assertEquals(Map.of(), p.errorsByKind);
        assertEquals(0, p.backlogMessages(Workload.defaults().withConsumers(1, 1, 0)));
    }

    @Test
    void moreReceivedThanPublishedIsNoBacklog() throws Exception {
        ProgressReport r = report(1_000_000_000, 10, 10);
        r.ackedSinceStart = 10;
        r.receivedByGroup = Map.of("g0", 12L);
        assertEquals(0, ProgressSecond.of(List.of(r), AGENTS).backlogMessages(Workload.defaults().withConsumers(1, 1, 0)));
    }

    @Test
    void aFailedAgentEndsTheRunNamed() {
        ProgressReport failed = report(1_000_000_000, 0, 0);
        failed.state = "FAILED";
        failed.error = "no usable route";
        AgentFailure e = assertThrows(AgentFailure.class, () -> ProgressSecond.of(List.of(report(1, 1, 0), failed), AGENTS));
        assertEquals("agent-2", e.agent());
        assertEquals("agent-2 failed: no usable route", e.getMessage());
    }
}
