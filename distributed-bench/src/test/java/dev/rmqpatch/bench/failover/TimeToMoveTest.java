package dev.rmqpatch.bench.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The time to move off a stalled broker, from made-up sends around one 500 ms stall at t = 10,000. */
class TimeToMoveTest {
    static final String A = "broker-a";
    static final String B = "broker-b";

    static SendRecord send(long start, String first, long latencyMs) {
        return new SendRecord(start, latencyMs * 1000, first, first, 1, SendOutcome.SEND_OK, null);
    }

    @Test
    void producersThatLeaveEarlyMoveWhenTheirFirstSendElsewhereBegins() {
        List<SendRecord> sends = List.of(send(9_990, A, 510), send(10_020, A, 480), send(10_100, A, 200), send(10_130, B, 1),
            send(10_140, B, 1), send(10_160, B, 1), send(10_600, A, 1));
        TimeToMove t = TimeToMove.of(1, 10_000, 500, A, sends);
        assertEquals(2, t.sendsToStalled, "begun during the stall: 10,020 and 10,100 (9,990 began before, 10,600 after)");
        assertEquals(3, t.sendsElsewhere);
        assertEquals(100L, t.lastToStalledMs);
        assertEquals(130L, t.moveMs, "the first send to broker-b after the last one to broker-a");
        assertTrue(t.movedWithinStall);
    }

    @Test
    void producersBlockedOnTheStalledBrokerWaitItOutThoughTheirLastSendThereBeganEarly() {
        // Every thread went to broker-a within 40 ms and waited there; the next send elsewhere began after the stall.
        List<SendRecord> sends = List.of(send(10_010, A, 490), send(10_030, B, 1), send(10_040, A, 460), send(10_505, B, 1),
            send(10_510, A, 1));
        TimeToMove t = TimeToMove.of(3, 10_000, 500, A, sends);
        assertEquals(40L, t.lastToStalledMs, "issue 43's literal figure looks quick ...");
        assertEquals(505L, t.moveMs, "... the time to move says they waited the stall out");
        assertFalse(t.movedWithinStall);
        assertEquals(3, t.n);
    }

    @Test
    void noSendToTheStalledBrokerDuringTheStallMeansTheProducersHadMovedAlready() {
        TimeToMove t = TimeToMove.of(1, 10_000, 500, A, List.of(send(9_000, A, 1), send(10_005, B, 1), send(10_200, B, 1)));
        assertNull(t.lastToStalledMs);
        assertEquals(0, t.sendsToStalled);
        assertEquals(5L, t.moveMs);
        assertTrue(t.movedWithinStall);
    }

    @Test
    void noSendElsewhereAfterwardsLeavesTheMoveUnknown() {
        TimeToMove t = TimeToMove.of(1, 10_000, 500, A, List.of(send(10_010, A, 490), send(10_600, A, 1)));
        assertNull(t.moveMs);
        assertFalse(t.movedWithinStall);
    }

    @Test
    void sendsWithoutAnAttemptCountNowhere() {
        SendRecord noRoute = new SendRecord(10_050, 1_000, null, null, 0, SendOutcome.CLIENT_ERROR, "MQClientException");
        TimeToMove t = TimeToMove.of(1, 10_000, 500, A, List.of(noRoute, send(10_100, B, 1)));
        assertEquals(0, t.sendsToStalled);
        assertEquals(1, t.sendsElsewhere);
        assertEquals(100L, t.moveMs);
    }
}
