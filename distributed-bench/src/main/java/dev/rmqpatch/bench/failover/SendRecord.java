package dev.rmqpatch.bench.failover;

/**
 * One send as the failover tool saw it: when it began (epoch ms), how long the stock client's {@code send} took, the
 * broker its first attempt went to (the producer's choice of queue) and the broker of its last attempt (a retry may go
 * to the other broker; for an acknowledged send, SendResult's queue's), how many attempts, and how it ended.
 */
public record SendRecord(long startMillis, long latencyMicros, String firstBroker, String lastBroker, int attempts,
                         SendOutcome outcome, String detail) {

    public double latencyMs() {
        return latencyMicros / 1000.0;
    }

    /** One line of sends.csv. */
    String csv() {
        return startMillis + "," + latencyMicros + "," + (firstBroker == null ? "" : firstBroker) + ","
            + (lastBroker == null ? "" : lastBroker) + "," + attempts + "," + outcome + "," + (detail == null ? "" : detail);
    }

    static final String CSV_HEADER = "startEpochMs,latencyUs,firstBroker,lastBroker,attempts,outcome,detail";
}
