package dev.rmqpatch.bench.failover;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.engine.Variant;
import java.nio.file.Path;
import java.util.List;

/** What {@code bench failover} runs, as its command line said (command/FailoverCommand parses it). */
public final class FailoverOptions {
    public List<Variant> variants;
    public int rounds;
    public StoreStalls.Plan stall;
    /** At most this many stalls per broker-a JVM ({@code Long.MAX_VALUE}: as many as fall in the run). */
    public long stallTimes = Long.MAX_VALUE;
    public List<LatencyFault> faults;
    public int producers;
    public double rate;
    public int size;
    public int warmupSeconds;
    public int durationSeconds;
    public int sendTimeoutMillis;
    public int retries;
    public String brokerHeap;
    public Path distDir;
    public Path stallAgentJar;
    public Path outDir;
    public String commandLine;

    /** Queues per broker of the run's topic (a 4.9 topic's default). */
    public static final int QUEUES_PER_BROKER = 4;
    public static final String TOPIC = "FailoverTopic";

    /**
     * No stall before this long after broker-a's JVM started: both brokers' start-up (counted as the harness counts one,
     * {@link StoreStalls#START_UP_MILLIS}, each) and the warm-up, so that stalls fall in the measured window.
     */
    public long stallAfterMillis() {
        return 2 * StoreStalls.START_UP_MILLIS + warmupSeconds * 1000L;
    }

    /** A run's length, roughly: start-up, warm-up, measured window, read-back and stop (start-up and the rest: 10 s here). */
    public long estimatedRunSeconds() {
        return 10 + warmupSeconds + durationSeconds;
    }
}
