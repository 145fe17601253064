package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.workload.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * OMB's backlog test second by second: resumed when the backlog reaches its size, drained at OMB's level, then
 * testDuration more; a backlog that stalls ends the run. The agents here run no consumers (an empty plan), so
 * suspending and resuming calls none of them: what is tested is when, not how.
 */
class ConsumerBacklogTest {
    /** 300-byte messages and a backlog of 30,000,000 bytes: 100,000 messages; drained at half of it left, 50,000. */
    private static final long REQUESTED = 30_000_000L;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private AgentGroup group;
    private RunSpec spec;
    private RunResult result;

    @BeforeEach
    void setUp() {
        group = new AgentGroup(List.of(new AgentClient("agent-1", "127.0.0.1:1", AgentToken.generate(), null)));
        spec = new RunSpec();
        spec.label = "t";
        spec.workload = Workload.defaults().withTestDurationSeconds(20).withConsumers(1, 1, REQUESTED / (double) (1L << 30))
            .withBacklogDrainRatio(0.5);
        result = new RunResult();
    }

    @AfterEach
    void tearDown() {
        group.close();
    }

    private ConsumerBacklog suspend() throws Exception {
        RunSpec produceOnly = new RunSpec();
        produceOnly.workload = Workload.defaults();
        return ConsumerBacklog.suspend(spec, group, SubscriptionPlan.deal(produceOnly, 1), result,
            new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    @Test
    void buildsResumesDrainsThenMeasuresTestDurationMore() throws Exception {
        ConsumerBacklog backlog = suspend();
        RunResult.BacklogView b = result.backlog;
        assertEquals(REQUESTED, b.requestedBytes);
        assertEquals(0, b.pausedAtSecond);
        assertEquals(Integer.MAX_VALUE, backlog.lastSecond(), "open-ended until drained");

        backlog.step(1, 50_000);
        assertNull(b.resumedAtSecond);
        assertEquals(15_000_000L, b.peakBytes);
        backlog.step(2, 100_000);
        assertEquals(2, b.resumedAtSecond);
        backlog.step(3, 80_000);
        assertNull(b.drainedAtSecond, "80,000 left is above the 50,000 limit");
        backlog.step(4, 50_000);
        assertEquals(4, b.drainedAtSecond);
        assertEquals(4 + 20, backlog.lastSecond());
        assertEquals(30_000_000L, b.peakBytes);

        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("[t] consumers suspended until the backlog reaches 30,000,000 bytes"), out);
        assertTrue(out.contains("[t] backlog of 30,000,000 bytes built after 2 s: consumers resumed"), out);
        assertTrue(out.contains("[t] backlog drained 2 s after the consumers resumed (50,000 messages left, limit 50,000); measuring 20 s more"),
            out);
    }

    @Test
    void aBacklogThatStopsGrowingEndsTheRun() throws Exception {
        ConsumerBacklog backlog = suspend();
        backlog.step(1, 10);
        assertDoesNotThrow(() -> backlog.step(ConsumerBacklog.STALL_SECONDS, 10), "59 s without growth");
        String e = assertThrows(Coordinator.Abort.class, () -> backlog.step(1 + ConsumerBacklog.STALL_SECONDS, 10)).getMessage();
        assertEquals("the backlog stopped growing at 3000 of 30000000 bytes for 60 s", e);
    }

    @Test
    void aBacklogThatStopsShrinkingEndsTheRun() throws Exception {
        ConsumerBacklog backlog = suspend();
        backlog.step(1, 100_000);
        backlog.step(2, 90_000);
        backlog.step(3, 95_000);
        String e = assertThrows(Coordinator.Abort.class, () -> backlog.step(2 + ConsumerBacklog.STALL_SECONDS, 91_000)).getMessage();
        assertEquals("the backlog stopped shrinking at 90000 messages for 60 s", e);
    }

    @Test
    void consumersStillSuspendedAfterTheWindowAreResumed() throws Exception {
        ConsumerBacklog backlog = suspend();
        backlog.step(1, 10);
        assertDoesNotThrow(backlog::resumeIfStillSuspended);
        assertNull(result.backlog.resumedAtSecond, "the view records the backlog test's resumption only");
    }
}
