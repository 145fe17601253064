package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.workload.Workload;
import java.time.Instant;

/**
 * A run's result as it starts: what was asked for (label, run id, the workload as run after command-line overrides,
 * client, name server, topics) and when; the figures are filled in as the run measures them.
 */
final class ResultHeader {
    private ResultHeader() {
    }

    static RunResult open(RunSpec spec) {
        RunResult result = new RunResult();
        result.label = spec.label;
        result.runId = spec.runId;
        result.startedAt = Instant.now().toString();
        result.workload = view(spec.workload);
        result.clientMode = spec.workload.client().label();
        result.namesrv = spec.namesrv;
        result.topics = spec.topics();
        return result;
    }

    static RunResult.WorkloadView view(Workload w) {
        RunResult.WorkloadView v = new RunResult.WorkloadView();
        v.name = w.name();
        v.topics = w.topics();
        v.partitionsPerTopic = w.partitionsPerTopic();
        v.messageSize = w.messageSize();
        v.producersPerTopic = w.producersPerTopic();
        v.producerRate = w.producerRate();
        v.warmupDurationSeconds = w.warmupDurationSeconds();
        v.testDurationSeconds = w.testDurationSeconds();
        v.threadsPerAgent = w.threadsPerAgent();
        v.sendMode = w.sendMode().label();
        v.subscriptionsPerTopic = w.subscriptionsPerTopic();
        v.consumerPerSubscription = w.consumerPerSubscription();
        v.consumerBacklogSizeGB = w.consumerBacklogSizeGB();
        v.client = w.client().label();
        v.messageTags = w.messageTags();
        v.messageKeys = w.messageKeys();
        v.keyDistributor = w.keyDistributor().name();
        v.payload = w.payload().toString();
        v.backlogDrainRatio = w.backlogDrainRatio();
        v.maxRateSearch = w.maxRateSearch();
        return v;
    }
}
