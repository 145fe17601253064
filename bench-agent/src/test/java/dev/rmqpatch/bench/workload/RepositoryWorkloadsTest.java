package dev.rmqpatch.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every file under workloads/ reads exactly as it did with the hand-written parser that SnakeYAML replaced: each value
 * below is what that parser made of the file (pinned from a run of it just before it was removed), and no file has a note.
 * Files added since (capacity-16-producers) are pinned to what their fields say.
 */
class RepositoryWorkloadsTest {
    /** File name to every field of its Workload, as the hand-written parser read it. */
    private static final Map<String, String> READ_BEFORE = Map.of(
        "article-1-topic-18-queues-300b.yaml", "article-1-topic-18-queues-300b|1|18|300|1|20000.0|60|300|32|SYNC|1|1|0.0|ROCKETMQ|null|null|NO_KEY|true|payload/payload-300b.data|false|0.0|0|1.0|false",
        "backlog-1-topic-6-queues-1kb.yaml", "backlog-1-topic-6-queues-1kb|1|6|1024|1|20000.0|60|300|32|SYNC|1|2|1.0|ROCKETMQ|null|null|NO_KEY|true|payload/payload-1Kb.data|false|0.0|0|0.9|false",
        "capacity-16-producers-1-topic-18-queues-300b.yaml", "capacity-16-producers-1-topic-18-queues-300b|1|18|300|16|10000.0|60|300|32|SYNC|0|0|0.0|ROCKETMQ|null|null|NO_KEY|true|payload/payload-300b.data|false|0.0|0|1.0|false",
        "keys-round-robin-1kb-2p-2c.yaml", "keys-round-robin-1-topic-6-queues-1kb-2p-2c|1|6|1024|2|5000.0|60|300|32|SYNC|1|2|0.0|ROCKETMQ|null|null|KEY_ROUND_ROBIN|true|payload/payload-1Kb.data|false|0.0|0|1.0|false",
        "max-rate-1-topic-18-queues-300b.yaml", "max-rate-1-topic-18-queues-300b|1|18|300|1|0.0|60|300|32|SYNC|1|1|0.0|ROCKETMQ|null|null|NO_KEY|false|null|true|1.0|100|1.0|true",
        "produce-only-1-topic-18-queues-300b.yaml", "produce-only-1-topic-18-queues-300b|1|18|300|1|10000.0|60|300|32|SYNC|0|0|0.0|ROCKETMQ|null|null|NO_KEY|true|payload/payload-300b.data|false|0.0|0|1.0|false",
        "randomized-random-nano-2-subscriptions.yaml", "randomized-random-nano-2-topics-4-queues-512b-2p-2x2c|2|4|512|2|4000.0|60|300|32|SYNC|2|2|0.0|ROCKETMQ|null|null|RANDOM_NANO|false|null|true|0.5|200|1.0|false");

    /** Every field of a workload, in one line, so that any change in how a file is read shows. */
    static String fields(Workload w) {
        return String.join("|", w.name(), "" + w.topics(), "" + w.partitionsPerTopic(), "" + w.messageSize(), "" + w.producersPerTopic(),
            "" + w.producerRate(), "" + w.warmupDurationSeconds(), "" + w.testDurationSeconds(), "" + w.threadsPerAgent(), w.sendMode().name(),
            "" + w.subscriptionsPerTopic(), "" + w.consumerPerSubscription(), "" + w.consumerBacklogSizeGB(), w.client().name(),
            "" + w.messageTags(), "" + w.messageKeys(), w.keyDistributor().name(), "" + w.payload().isFile(), "" + w.payload().fileName(),
            "" + w.payload().isRandomized(), "" + w.payload().randomBytesRatio(), "" + w.payload().poolSize(), "" + w.backlogDrainRatio(),
            "" + w.maxRateSearch());
    }

    @Test
    void everyRepositoryWorkloadReadsAsBefore() throws Exception {
        Map<String, String> now = new TreeMap<>();
        try (var list = Files.list(Path.of("..", "workloads"))) {
            for (Path f : (Iterable<Path>) list.filter(p -> p.toString().endsWith(".yaml"))::iterator) {
                Workload w = WorkloadParser.parse(f);
                now.put(f.getFileName().toString(), fields(w));
                assertEquals(java.util.List.of(), w.notes(), f + ": OMB runs it as this harness does");
            }
        }
        assertEquals(new TreeMap<>(READ_BEFORE), now);
    }
}
