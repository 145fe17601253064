package dev.rmqpatch.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadParserTest {

    @Test
    void ombStyleYamlIsRead() {
        Workload w = WorkloadParser.parse(String.join("\n",
            "# the article's produce workload",
            "name: 1-topic-18-partitions-300b",
            "",
            "topics: 1",
            "partitionsPerTopic: 18",
            "messageSize: 300   # bytes",
            "producersPerTopic: 2",
            "producerRate: 50000",
            "subscriptionsPerTopic: 0",
            "consumerPerSubscription: 0",
            "keyDistributor: \"NO_KEY\"",
            "warmupDurationSeconds: 3",
            "testDurationSeconds: 30",
            "threadsPerAgent: 16",
            "sendMode: async"));
        assertEquals("1-topic-18-partitions-300b", w.name());
        assertEquals(1, w.topics());
        assertEquals(18, w.partitionsPerTopic());
        assertEquals(300, w.messageSize());
        assertEquals(2, w.producersPerTopic());
        assertEquals(50000, w.producerRate());
        assertEquals(3, w.warmupDurationSeconds());
        assertEquals(30, w.testDurationSeconds());
        assertEquals(16, w.threadsPerAgent());
        assertEquals(SendMode.ASYNC, w.sendMode());
    }

    @Test
    void jsonIsReadAndMissingFieldsKeepDefaults() {
        Workload w = WorkloadParser.parse("{\"name\": \"small\", \"messageSize\": 1024, \"producerRate\": 1000.5}");
        Workload d = Workload.defaults();
        assertEquals("small", w.name());
        assertEquals(1024, w.messageSize());
        assertEquals(1000.5, w.producerRate());
        assertEquals(d.partitionsPerTopic(), w.partitionsPerTopic());
        assertEquals(d.testDurationSeconds(), w.testDurationSeconds());
        assertEquals(SendMode.SYNC, w.sendMode());
    }

    @Test
    void defaultsAreTheArticlesWorkload() {
        Workload d = Workload.defaults();
        assertEquals(18, d.partitionsPerTopic());
        assertEquals(300, d.messageSize());
        assertEquals(0, d.producerRate());
        assertEquals(SendMode.SYNC, d.sendMode());
    }

    @Test
    void ombMinutesAreConverted() {
        Workload w = WorkloadParser.parse("testDurationMinutes: 2\nwarmupDurationMinutes: 0.5\n");
        assertEquals(120, w.testDurationSeconds());
        assertEquals(30, w.warmupDurationSeconds());
    }

    @Test
    void secondsAndMinutesTogetherAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("testDurationMinutes: 2\ntestDurationSeconds: 5\n"));
        assertTrue(e.getMessage().contains("not both"), e.getMessage());
    }

    @Test
    void unknownFieldIsAnErrorNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("partitionPerTopic: 18\n"));
        assertTrue(e.getMessage().contains("partitionPerTopic"), e.getMessage());
    }

    @Test
    void consumerFieldsAreRead() {
        Workload w = WorkloadParser.parse(String.join("\n",
            "topics: 2",
            "subscriptionsPerTopic: 2",
            "consumerPerSubscription: 3",
            "consumerBacklogSizeGB: 0.5"));
        assertEquals(2, w.subscriptionsPerTopic());
        assertEquals(3, w.consumerPerSubscription());
        assertEquals(0.5, w.consumerBacklogSizeGB());
        assertTrue(w.hasConsumers());
        assertTrue(w.toString().contains("2 subscription(s)/topic x 3 consumer(s), backlog 0.5 GB"), w.toString());
        // Overrides keep them; produceOnly drops them (the sink serves no pulls).
        Workload sized = w.withMessageSize(1000).withThreadsPerAgent(8);
        assertEquals(3, sized.consumerPerSubscription());
        assertEquals(0.5, sized.consumerBacklogSizeGB());
        assertEquals(1000, sized.messageSize());
        assertTrue(!sized.produceOnly().hasConsumers());
        assertEquals(1000, sized.produceOnly().messageSize());

        Workload none = WorkloadParser.parse("{\"subscriptionsPerTopic\": 0, \"consumerPerSubscription\": 0, \"consumerBacklogSizeGB\": 0}");
        assertTrue(!none.hasConsumers());
    }

    @Test
    void inconsistentConsumerFieldsAreRefused() {
        // A subscription without consumerPerSubscription is OMB's default of 0 consumers: read, not refused (see
        // subscriptionWithoutConsumerPerSubscriptionRunsProduceOnly).
        Workload noConsumers = WorkloadParser.parse("subscriptionsPerTopic: 1\n");
        assertTrue(!noConsumers.hasConsumers());
        assertTrue(String.join(" ", noConsumers.notes()).contains("consumerPerSubscription 0"), noConsumers.notes().toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("consumerBacklogSizeGB: 1\n"));
        assertTrue(e.getMessage().contains("needs consumers"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("subscriptionsPerTopic: 1\nconsumerPerSubscription: 1\nconsumerBacklogSizeGB: -1\n"));
        assertTrue(e.getMessage().contains("consumerBacklogSizeGB"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("subscriptionsPerTopic: 1.5\nconsumerPerSubscription: 1\n"));
        assertTrue(e.getMessage().contains("whole number"), e.getMessage());
    }

    /** Written here in the shape of OMB's backlog workloads: every field of its Workload class. */
    @Test
    void everyOmbFieldIsRead() {
        Workload w = WorkloadParser.parse(String.join("\n",
            "name: Backlog with 4 producers and 4 consumers on 1 topic / 100 partitions",
            "topics: 1",
            "partitionsPerTopic: 100",
            "keyDistributor: \"KEY_ROUND_ROBIN\"",
            "messageSize: 1024",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.25",
            "randomizedPayloadPoolSize: 100",
            "payloadFile: \"payload/payload-1Kb.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 4",
            "producersPerTopic: 4",
            "producerRate: 200000",
            "consumerBacklogSizeGB: 2",
            "backlogDrainRatio: 0.9",
            "testDurationMinutes: 5",
            "warmupDurationMinutes: 2"));
        assertEquals(100, w.partitionsPerTopic());
        assertEquals(KeyDistributor.KEY_ROUND_ROBIN, w.keyDistributor());
        assertTrue(w.payload().isRandomized(), "randomized payloads win over payloadFile, as in OMB");
        assertEquals(0.25, w.payload().randomBytesRatio());
        assertEquals(100, w.payload().poolSize());
        assertEquals(4, w.consumerPerSubscription());
        assertEquals(4, w.producersPerTopic());
        assertEquals(200000, w.producerRate());
        assertEquals(2, w.consumerBacklogSizeGB());
        assertEquals(0.9, w.backlogDrainRatio());
        assertEquals(300, w.testDurationSeconds());
        assertEquals(120, w.warmupDurationSeconds());
        assertEquals(false, w.maxRateSearch());
    }

    @Test
    void ombFilesWithoutWarmupGetOmbsMinute() {
        assertEquals(60, WorkloadParser.parse("testDurationMinutes: 15\n").warmupDurationSeconds());
        assertEquals(Workload.defaults().warmupDurationSeconds(), WorkloadParser.parse("testDurationSeconds: 15\n").warmupDurationSeconds());
    }

    @Test
    void producerRateZeroInAFileIsTheRateSearchAndTheCommandLineRateEndsIt() {
        Workload w = WorkloadParser.parse("producerRate: 0\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\n");
        assertTrue(w.maxRateSearch());
        assertTrue(w.withTestDurationSeconds(2).withWarmupDurationSeconds(1).maxRateSearch(), "other overrides keep the search");
        assertEquals(false, w.withProducerRate(0).maxRateSearch(), "--rate 0 means unlimited");
        assertEquals(false, WorkloadParser.parse("producerRate: 10\n").maxRateSearch());
        assertEquals(false, WorkloadParser.parse("name: x\n").maxRateSearch(), "no producerRate in the file: the harness default, unlimited");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(
            "producerRate: 0\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\nconsumerBacklogSizeGB: 1\n"));
        assertTrue(e.getMessage().contains("producerRate 0") && e.getMessage().contains("consumerBacklogSizeGB"), e.getMessage());
    }

    @Test
    void ombFieldValuesAreChecked() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("keyDistributor: ROUND\n"));
        assertTrue(e.getMessage().contains("NO_KEY, KEY_ROUND_ROBIN or RANDOM_NANO"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("useRandomizedPayloads: true\nrandomBytesRatio: 0.5\n"));
        assertTrue(e.getMessage().contains("randomizedPayloadPoolSize"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("useRandomizedPayloads: true\nrandomBytesRatio: 1.5\nrandomizedPayloadPoolSize: 3\n"));
        assertTrue(e.getMessage().contains("randomBytesRatio"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("useRandomizedPayloads: yes\n"));
        assertTrue(e.getMessage().contains("true or false"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("backlogDrainRatio: 2\n"));
        assertTrue(e.getMessage().contains("backlogDrainRatio"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("keyDistributor: RANDOM_NANO\nmessageKeys: k\n"));
        assertTrue(e.getMessage().contains("give one"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("producerStartRate: 1000\n"));
        assertTrue(e.getMessage().contains("unknown workload field 'producerStartRate'"), e.getMessage());
    }

    @Test
    void payloadFileIsFoundNextToTheWorkloadThenInThePayloadDir(@TempDir Path dir) throws Exception {
        Path workloads = Files.createDirectories(dir.resolve("workloads"));
        Path file = workloads.resolve("w.yaml");
        Files.writeString(file, "messageSize: 16\npayloadFile: \"payload/p-16b.data\"\n");
        Workload w = WorkloadParser.parse(file);
        assertTrue(w.payload().isFile());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.payload().readFile(16, null));
        assertTrue(e.getMessage().contains(workloads.resolve("payload/p-16b.data").toString()), e.getMessage());
        assertTrue(e.getMessage().contains("--payload-dir"), e.getMessage());

        Path payloadDir = Files.createDirectories(dir.resolve("omb"));
        Files.createDirectories(payloadDir.resolve("payload"));
        Files.write(payloadDir.resolve("payload/p-16b.data"), new byte[16]);
        assertEquals(16, w.payload().readFile(16, payloadDir).length);
        e = assertThrows(IllegalArgumentException.class, () -> w.payload().readFile(17, payloadDir));
        assertTrue(e.getMessage().contains("has 16 bytes, but messageSize is 17"), e.getMessage());

        Files.createDirectories(workloads.resolve("payload"));
        byte[] local = new byte[16];
        local[0] = 7;
        Files.write(workloads.resolve("payload/p-16b.data"), local);
        assertEquals(7, w.payload().readFile(16, payloadDir)[0], "the workload file's folder comes first");
    }

    @Test
    void badValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("partitionsPerTopic: 0\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("messageSize: -1\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("messageSize: 1.5\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("messageSize: big\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("producerRate: -5\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("sendMode: batch\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("testDurationSeconds: 0\n"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("[1, 2]"));
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("{\"topics\": [1]}"));
    }

    @Test
    void nestedOrMalformedYamlIsRefusedWithTheLine() {
        IllegalArgumentException nested = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("name: x\ntopics:\n  - a\n"));
        assertTrue(nested.getMessage().contains("line 3"), nested.getMessage());
        IllegalArgumentException noColon = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("name x\n"));
        assertTrue(noColon.getMessage().contains("line 1"), noColon.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse("topics: 1\ntopics: 2\n"));
    }

    @Test
    void hashInsideQuotesIsNotAComment(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, "name: 'run #1' # comment\n");
        assertEquals("run #1", WorkloadParser.parse(file).name());
    }

    @Test
    void fileErrorsNameTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "topics: zero\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(file));
        assertTrue(e.getMessage().contains("bad.yaml"), e.getMessage());
    }

    @Test
    void overridesReplaceOneFieldEach() {
        Workload w = Workload.defaults().withMessageSize(1000).withThreadsPerAgent(4).withProducerRate(10)
            .withWarmupDurationSeconds(0).withTestDurationSeconds(3).withSendMode(SendMode.ONEWAY).withTopics(2)
            .withPartitionsPerTopic(4);
        assertEquals(1000, w.messageSize());
        assertEquals(4, w.threadsPerAgent());
        assertEquals(10, w.producerRate());
        assertEquals(0, w.warmupDurationSeconds());
        assertEquals(3, w.testDurationSeconds());
        assertEquals(SendMode.ONEWAY, w.sendMode());
        assertEquals(2, w.topics());
        assertEquals(4, w.partitionsPerTopic());
    }

    @Test
    void clientTagsAndKeysAreReadAndSurviveOverrides() {
        Workload w = WorkloadParser.parse("client: wire\nmessageTags: TagA\nmessageKeys: k1 k2\n");
        assertEquals(ClientMode.WIRE, w.client());
        assertEquals("TagA", w.messageTags());
        assertEquals("k1 k2", w.messageKeys());
        Workload changed = w.withThreadsPerAgent(3).withSendMode(SendMode.ASYNC).withProducersPerTopic(2);
        assertEquals(ClientMode.WIRE, changed.client());
        assertEquals("TagA", changed.messageTags());
        assertEquals("k1 k2", changed.messageKeys());
        assertEquals(ClientMode.ROCKETMQ, WorkloadParser.parse("topics: 1\n").client(), "rocketmq is the default");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("client: fast\n"));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("rocketmq or wire"), e.getMessage());
    }

    /** The repository's workloads/ folder: every file parses, and together they use every field of OMB's format. */
    @Test
    void theRepositorysWorkloadsParseAndTogetherUseEveryOmbField() throws Exception {
        Path folder = Path.of("..", "workloads");
        java.util.Set<String> used = new java.util.TreeSet<>();
        int files = 0;
        try (var list = Files.list(folder)) {
            for (Path f : (Iterable<Path>) list.filter(p -> p.toString().endsWith(".yaml"))::iterator) {
                Workload w = WorkloadParser.parse(f);
                assertTrue(w.name().length() > 0, f.toString());
                used.addAll(WorkloadParser.fields(Files.readString(f)).keySet());
                files++;
            }
        }
        assertTrue(files >= 5, "workload files: " + files);
        assertEquals(new java.util.TreeSet<>(WorkloadParser.OMB_FIELDS), used, "only OMB's fields, and all of them");
    }
}
