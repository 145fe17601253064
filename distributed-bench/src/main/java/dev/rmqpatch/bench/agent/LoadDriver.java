package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.ProgressReport;

/**
 * What an agent runs for one prepared run: {@link LoadGenerator} (stock {@code DefaultMQProducer}s, {@code --client
 * rocketmq}) or {@link WireLoadGenerator} (pre-encoded frames over netty, {@code --client wire}). Both charge sends to
 * {@link PhaseStats} phases the same way, so their results mean the same.
 */
interface LoadDriver {
    /** Begins sending (warm-up phase) after the delay. */
    void start(long delayMs);

    /** Sends to target {@code index} ({@link LoadGenerator#PAUSE}: none) at {@code ratePerSecond}; the interval ending here. */
    ProgressReport switchTarget(int index, double ratePerSecond);

    int targetCount();

    /** Starts the measurement window. */
    void beginMeasurement();

    ProgressReport progress();

    /** Why the run cannot go on (crashed sender, brokers gone), or null. */
    String failure();

    /** Stops sending, waits for the answers in flight, and reports the measurement window. */
    AgentResult stop(String host, long pid);

    /** Sends acknowledged since start, all phases (with the consumers' receipts: the coordinator's view of the lag). */
    long ackedSinceStart();

    /** Stops everything without a report. */
    void abort();

    /** The arguments of {@link #switchTarget}, checked against {@code targets} prepared targets. */
    static void checkSwitch(int index, int targets, double ratePerSecond) {
        if (index != LoadGenerator.PAUSE && (index < 0 || index >= targets)) {
            throw new IllegalArgumentException("target " + index + " does not exist; prepared targets: 0.." + (targets - 1)
                + ", or " + LoadGenerator.PAUSE + " to pause");
        }
        if (ratePerSecond < 0 || Double.isNaN(ratePerSecond) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be 0 (unlimited) or a positive number of msg/s, not " + ratePerSecond);
        }
    }
}
