package dev.rmqpatch.bench.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rmqpatch.bench.broker.StoreStalls;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run's figures from made-up sends and stalls: the window, the split by stalls, outcomes, medians and the pooling. */
class FailoverFiguresTest {
    static final String A = "broker-a";
    static final String B = "broker-b";

    static StoreStalls.Stall stall(int n, long at, long ms) {
        StoreStalls.Stall s = new StoreStalls.Stall();
        s.n = n;
        s.at = at;
        s.ms = ms;
        s.thread = "SendMessageThread_1";
        s.threadGroup = "send";
        return s;
    }

    static SendRecord send(long start, String first, String last, long latencyMs, SendOutcome outcome, String detail) {
        return new SendRecord(start, latencyMs * 1000, first, last, first == null ? 0 : first.equals(last) ? 1 : 2, outcome, detail);
    }

    static FailoverFigures.RunData run() {
        List<SendRecord> sends = new ArrayList<>();
        sends.add(send(500, A, A, 1, SendOutcome.SEND_OK, null)); // warm-up: before the window
        sends.add(send(1_100, A, A, 2, SendOutcome.SEND_OK, null));
        sends.add(send(1_200, B, B, 1, SendOutcome.SEND_OK, null));
        // stall 1: 2,000-2,500; one send to A busy, one moved by a retry, B fast
        sends.add(send(2_010, A, A, 200, SendOutcome.SYSTEM_BUSY, "MQBrokerException(2)"));
        sends.add(send(2_050, A, B, 300, SendOutcome.SEND_OK, null));
        sends.add(send(2_220, B, B, 3, SendOutcome.SEND_OK, null));
        sends.add(send(2_300, B, B, 1, SendOutcome.SEND_OK, null));
        // stall 2: 4,000-4,500; the producers wait it out
        sends.add(send(4_001, A, A, 499, SendOutcome.SEND_OK, null));
        sends.add(send(4_510, B, B, 1, SendOutcome.SEND_OK, null));
        sends.add(send(5_000, A, A, 3_000, SendOutcome.TIMEOUT, "RemotingTimeoutException"));
        sends.add(send(6_500, A, A, 1, SendOutcome.SEND_OK, null)); // after the window
        // stall 3 begins in the window but ends after it: left out
        return new FailoverFigures.RunData(A, sends, List.of(stall(1, 2_000, 500), stall(2, 4_000, 500), stall(3, 5_900, 500)),
            1_000, 6_000, 8, 1, 3);
    }

    @Test
    void oneRunsFigures() {
        FailoverFigures f = FailoverFigures.of(List.of(run()));
        assertEquals(9, f.sends, "begun in [1,000, 6,000)");
        assertEquals(5.0, f.seconds);
        assertEquals(1.8, f.sendsPerSecond, 1e-9);
        assertEquals(7L, f.outcomes.get("SEND_OK"));
        assertEquals(1L, f.outcomes.get("SYSTEM_BUSY"));
        assertEquals(1L, f.outcomes.get("TIMEOUT"));
        assertEquals(0L, f.outcomes.get("CLIENT_ERROR"), "every outcome listed, zeros too");
        assertEquals(1L, f.failuresByKind.get("SYSTEM_BUSY MQBrokerException(2)"));
        assertEquals(1L, f.failuresByKind.get("TIMEOUT RemotingTimeoutException"));
        assertEquals(1, f.retriedElsewhere);
        assertEquals(2, f.stalls, "the third ends after the window");
        assertEquals(3, f.toStalledDuringStalls);
        assertEquals(2, f.elsewhereDuringStalls);
        assertEquals(2, f.toStalledOutsideStalls);
        assertEquals(2, f.elsewhereOutsideStalls);
        assertEquals(0.6, f.shareToStalledDuringStalls, 1e-9);
        assertEquals(0.5, f.shareToStalledOutsideStalls, 1e-9);
        // stall 1: last to A at +50, first B after it at +220; stall 2: last to A at +1, first B after at +510.
        assertEquals(List.of(220L, 510L), f.perStall.stream().map(t -> t.moveMs).toList());
        assertEquals(365.0, f.timeToMoveMedianMs);
        assertEquals(510.0, f.timeToMoveMaxMs);
        assertEquals(1, f.stallsWaitedOut);
        assertEquals(25.5, f.lastToStalledMedianMs);
        assertEquals(50.0, f.lastToStalledMaxMs);
        assertEquals(2, f.elsewhereDuringStallsMs.count);
        assertEquals(3.0, f.elsewhereDuringStallsMs.max, 0.01);
        assertEquals(2, f.elsewhereOutsideStallsMs.count, "1,200 and 4,510");
        assertEquals(3_000.0, f.latencyMs.max, 3.0);
        assertEquals(8, f.acked);
        assertEquals(1, f.missing);
        assertEquals(3, f.skippedSlots);
    }

    @Test
    void roundsArePooled() {
        FailoverFigures f = FailoverFigures.of(List.of(run(), run()));
        assertEquals(18, f.sends);
        assertEquals(4, f.stalls);
        assertEquals(365.0, f.timeToMoveMedianMs);
        assertEquals(2, f.missing);
        assertEquals(10.0, f.seconds);
    }

    @Test
    void nothingRecordedGivesNoFigures() {
        FailoverFigures f = FailoverFigures.of(List.of(new FailoverFigures.RunData(A, List.of(), List.of(), 0, 1_000, 0, 0, 0)));
        assertEquals(0, f.sends);
        assertNull(f.timeToMoveMedianMs);
        assertNull(f.shareToStalledDuringStalls);
        assertNull(f.latencyMs.p99);
        assertEquals(0, f.stalls);
    }

    @Test
    void medianOfEvenAndOddCounts() {
        assertEquals(2.0, FailoverFigures.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, FailoverFigures.median(List.of(4.0, 1.0, 2.0, 3.0)));
        assertNull(FailoverFigures.median(List.of()));
    }
}
