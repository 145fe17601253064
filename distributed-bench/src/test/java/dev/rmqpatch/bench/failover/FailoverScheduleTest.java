package dev.rmqpatch.bench.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of the runs and the latency-fault setting's values. */
class FailoverScheduleTest {
    @Test
    void roundsAlternateTheVariantsOrderWithinEachSetting() {
        List<String> labels = FailoverSchedule.of(List.of("A", "B"), 3, LatencyFault.parse("both")).stream()
            .map(FailoverSchedule.Run::label).toList();
        assertEquals(List.of("A lf on r1", "B lf on r1", "A lf off r1", "B lf off r1",
            "B lf on r2", "A lf on r2", "B lf off r2", "A lf off r2",
            "A lf on r3", "B lf on r3", "A lf off r3", "B lf off r3"), labels);
        assertEquals("2-4.9.0-tuned@8-lf-off", new FailoverSchedule.Run(2, "4.9.0-tuned@8", LatencyFault.OFF).folder());
    }

    @Test
    void latencyFaultIsOnOffOrBoth() {
        assertEquals(List.of(LatencyFault.ON), LatencyFault.parse("on"));
        assertEquals(List.of(LatencyFault.OFF), LatencyFault.parse("off"));
        assertEquals(List.of(LatencyFault.ON, LatencyFault.OFF), LatencyFault.parse("both"));
        assertEquals("--latency-fault must be on, off or both, not 'yes'",
            assertThrows(IllegalArgumentException.class, () -> LatencyFault.parse("yes")).getMessage());
    }

    @Test
    void failuresAreClassifiedByTheBrokersAnswerFirstThenTimeouts() {
        var busy = new org.apache.rocketmq.client.exception.MQBrokerException(2, "[TIMEOUT_CLEAN_QUEUE]broker busy", "127.0.0.1:1");
        assertEquals(SendOutcome.SYSTEM_BUSY, SendOutcome.of(busy));
        assertEquals("MQBrokerException(2)", SendOutcome.detail(busy));
        var wrapped = new org.apache.rocketmq.client.exception.MQClientException("Send [3] times, still failed", busy);
        assertEquals(SendOutcome.SYSTEM_BUSY, SendOutcome.of(wrapped));
        assertEquals(SendOutcome.BROKER_ERROR,
            SendOutcome.of(new org.apache.rocketmq.client.exception.MQBrokerException(14, "no permission", "x")));
        assertEquals(SendOutcome.TIMEOUT, SendOutcome.of(new org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException(
            "sendDefaultImpl call timeout")));
        var timeout = new org.apache.rocketmq.remoting.exception.RemotingTimeoutException("wait response on the channel <x> timeout, 3000(ms)");
        assertEquals(SendOutcome.TIMEOUT, SendOutcome.of(new org.apache.rocketmq.client.exception.MQClientException("failed", timeout)));
        assertEquals("MQClientException<RemotingTimeoutException>",
            SendOutcome.detail(new org.apache.rocketmq.client.exception.MQClientException("failed", timeout)));
        assertEquals(SendOutcome.CLIENT_ERROR, SendOutcome.of(new IllegalStateException("closed")));
    }
}
