package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;

/** One run: the workload, where to send it, and how it is labelled in progress lines and results. */
public final class RunSpec {
    public Workload workload = Workload.defaults();
    public String namesrv;
    /** Short id; topics and the producer group carry it so runs against a shared cluster do not mix. */
    public String runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
    /** Shown in front of every progress line, e.g. "4.9.0-tuned r2/3" or "sink". */
    public String label = "run";
    public int sendTimeoutMs = 3000;
    public int maxOutstanding = 1000;
    public int routeWaitMs = 15_000;
    /** Wire client: netty event-loop threads per agent; 0 = the agent's default (one). */
    public int ioThreads;
    /** Create the topics with partitionsPerTopic queues on every master before preparing the agents. */
    public boolean createTopics = true;
    /**
     * Runs with consumers: at most this long after the producers stopped for every subscription to catch up; 0 = the
     * default for the workload ({@link #defaultDrainTimeoutSeconds}).
     */
    public int drainTimeoutSeconds;

    /**
     * 60 s, plus 1 s per 100 queues (topics x partitionsPerTopic): stock 4.9 push consumers settle a group over 10,000
     * queues (OMB's 10,000-partition files) only after tens of seconds of rebalancing, fetching each queue's offset and
     * retrying pulls the broker refused while their subscription version was new.
     */
    public static int defaultDrainTimeoutSeconds(Workload w) {
        return 60 + (int) Math.min(3_600, (long) w.topics() * w.partitionsPerTopic() / 100);
    }

    public int drainTimeoutSeconds() {
        return drainTimeoutSeconds > 0 ? drainTimeoutSeconds : defaultDrainTimeoutSeconds(workload);
    }
    /** Where a workload's relative payloadFile is looked for after the workload file's folder (--payload-dir); null = nowhere else. */
    public java.nio.file.Path payloadDir;
    /** The "driver" of the OMB-format result: the legend of OMB's charts (e.g. the distribution's folder name). */
    public String ombDriver = "rocketmq";

    public List<String> topics() {
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < workload.topics(); i++) {
            topics.add("bench-" + runId + "-" + i);
        }
        return topics;
    }
}
