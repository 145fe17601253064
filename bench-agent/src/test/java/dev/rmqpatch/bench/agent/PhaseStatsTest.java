package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.Counts;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.junit.jupiter.api.Test;

class PhaseStatsTest {

    @Test
    void outcomesAddUpToSends() {
        PhaseStats p = new PhaseStats(0);
        for (int i = 0; i < 10; i++) {
            p.onSent();
        }
        for (int i = 0; i < 6; i++) {
            p.onAcked("SEND_OK", 2_000_000, -1);
        }
        p.onAcked("FLUSH_DISK_TIMEOUT", 3_000_000, -1);
        p.onFailed(new MQBrokerException(14, "broker busy"));
        p.onFailed(new MQBrokerException(14, "broker busy"));
        p.onUnconfirmed(1000, -1);
        Counts c = p.counts(0);
        assertEquals(10, c.sent);
        assertEquals(7, c.acked);
        assertEquals(2, c.failed);
        assertEquals(1, c.unconfirmed);
        assertTrue(c.balanced());
        assertEquals(6L, p.byStatus().get("SEND_OK"));
        assertEquals(1L, p.byStatus().get("FLUSH_DISK_TIMEOUT"));
        assertEquals(2L, p.byError().get("MQBrokerException(code=14)"));
        assertTrue(p.errorSamples().get("MQBrokerException(code=14)").contains("broker busy"));
    }

    @Test
    void unbalancedCountsAreDetected() {
        PhaseStats p = new PhaseStats(0);
        p.onSent();
        p.onSent();
        p.onAcked("SEND_OK", 1, -1);
        assertEquals(false, p.counts(0).balanced(), "one send without an outcome");
        assertEquals(true, p.counts(1).balanced(), "unless it is still in flight");
    }

    @Test
    void intervalsReportDeltasAndAccumulate() {
        PhaseStats p = new PhaseStats(1_000);
        p.onSent();
        p.onAcked("SEND_OK", 1_000_000, -1);
        PhaseStats.Interval first = p.drainInterval(2_000);
        assertEquals(1_000, first.nanos);
        assertEquals(1, first.sent);
        assertEquals(1, first.acked);
        assertEquals(1, first.latency.getTotalCount());
        p.onSent();
        p.onSent();
        p.onAcked("SEND_OK", 5_000_000, -1);
        p.onFailed(new RuntimeException("x"));
        PhaseStats.Interval second = p.drainInterval(5_000);
        assertEquals(3_000, second.nanos);
        assertEquals(2, second.sent);
        assertEquals(1, second.acked);
        assertEquals(1, second.failed);
        assertEquals(1, second.latency.getTotalCount());
        assertEquals(2, p.cumulativeLatency().getTotalCount(), "cumulative holds both intervals");
        assertEquals(5_000, p.cumulativeLatency().getMaxValue(), 5);
    }

    @Test
    void sendDelayIsOnlyRecordedWhenRateLimited() {
        PhaseStats p = new PhaseStats(0);
        p.onSent();
        p.onAcked("SEND_OK", 1_000, -1);
        assertEquals(0, p.cumulativeSendDelay().getTotalCount());
        p.onSent();
        p.onAcked("SEND_OK", 1_000, 40_000_000);
        assertEquals(1, p.cumulativeSendDelay().getTotalCount());
        assertEquals(40_000, p.cumulativeSendDelay().getMaxValue(), 40);
    }

    @Test
    void errorKeysNameTypeCodeAndCause() {
        assertEquals("MQBrokerException(code=2)", PhaseStats.errorKey(new MQBrokerException(2, "system error")));
        assertEquals("MQClientException/RemotingTimeoutException",
            PhaseStats.errorKey(new MQClientException("send failed", new RemotingTimeoutException("timeout"))));
        assertEquals("MQClientException(code=17)", PhaseStats.errorKey(new MQClientException(17, "no route")));
        assertEquals("IllegalStateException", PhaseStats.errorKey(new IllegalStateException()));
    }
}
