package dev.rmqpatch.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fields a workload file leaves out take OpenMessaging Benchmark's defaults (its Workload class: keyDistributor NO_KEY,
 * consumerPerSubscription 0, producerRate 0, consumerBacklogSizeGB 0, backlogDrainRatio 1.0, warmupDurationMinutes 1,
 * everything else 0, false or null), and {@link Workload#notes()} says where OMB would read or run the file otherwise.
 */
class OmbDefaultsTest {

    private static String notes(Workload w) {
        return String.join(" | ", w.notes());
    }

    /** OMB's workloads/1-topic-3-partition-100b-3producers.yaml as of its commit 0ce093f (March 2018), licence header cut. */
    private static final String OMB_WITHOUT_CONSUMER_PER_SUBSCRIPTION = String.join("\n",
        "#",
        "# Licensed to the Apache Software Foundation (ASF) under one",
        "#",
        "",
        "name: 1 topic / 3 partition / 100b / 3 producers",
        "",
        "topics: 1",
        "partitionsPerTopic: 3",
        "messageSize: 100",
        "payloadFile: \"payload/payload-100b.data\"",
        "subscriptionsPerTopic: 1",
        "producersPerTopic: 3",
        "producerRate: 0",
        "consumerBacklogSizeGB: 0",
        "testDurationMinutes: 15",
        "");

    @Test
    void subscriptionWithoutConsumerPerSubscriptionRunsProduceOnly() {
        Workload w = WorkloadParser.parse(OMB_WITHOUT_CONSUMER_PER_SUBSCRIPTION);
        assertEquals(1, w.subscriptionsPerTopic(), "kept as the file says");
        assertEquals(0, w.consumerPerSubscription(), "OMB's default");
        assertFalse(w.hasConsumers());
        assertEquals(3, w.producersPerTopic());
        assertTrue(w.maxRateSearch(), "producerRate 0: OMB's rate search, which runs without consumers too");
        assertFalse(w.toString().contains("subscription"), w.toString());
        assertEquals(1, w.notes().size(), notes(w));
        assertTrue(notes(w).startsWith("subscriptionsPerTopic 1 with consumerPerSubscription 0 (OMB's default"), notes(w));
        assertTrue(notes(w).contains("runs produce-only"), notes(w));

        Workload consumed = w.withConsumers(1, 2, 0);
        assertTrue(consumed.hasConsumers(), "--consumers 2 gives the subscription its consumers");
        assertEquals(List.of(), consumed.notes());
        assertEquals(List.of(), w.produceOnly().notes());
        assertTrue(w.withMessageSize(200).notes().equals(w.notes()), "other overrides keep the note");
    }

    @Test
    void consumersWithoutSubscriptionsRunProduceOnly() {
        Workload w = WorkloadParser.parse("subscriptionsPerTopic: 0\nconsumerPerSubscription: 2\n");
        assertFalse(w.hasConsumers());
        assertTrue(notes(w).contains("consumerPerSubscription 2 with subscriptionsPerTopic 0") && notes(w).contains("produce-only"),
            notes(w));
    }

    @Test
    void aBacklogStillNeedsConsumers() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> WorkloadParser.parse("subscriptionsPerTopic: 1\nconsumerBacklogSizeGB: 1\nproducerRate: 100\n"));
        assertTrue(e.getMessage().contains("needs consumers"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Workload.defaults().withConsumers(1, 0, 0.5));
        assertTrue(e.getMessage().contains("needs consumers"), e.getMessage());
    }

    /** A file in OMB's form (it gives testDurationMinutes) that leaves everything else but its consumers out. */
    @Test
    void anOmbFileGetsOmbsDefaultsAndSaysWhereTheyMakeNoRun() {
        Workload w = WorkloadParser.parse("testDurationMinutes: 1\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\n");
        assertTrue(w.maxRateSearch(), "no producerRate: OMB's 0, the rate search");
        assertEquals(0, w.producerRate());
        assertEquals(60, w.warmupDurationSeconds(), "OMB's warmupDurationMinutes = 1");
        assertEquals(60, w.testDurationSeconds());
        assertEquals(KeyDistributor.NO_KEY, w.keyDistributor());
        assertEquals(0, w.consumerBacklogSizeGB());
        assertEquals(1.0, w.backlogDrainRatio());
        assertFalse(w.payload().isRandomized());
        Workload d = Workload.defaults();
        assertEquals(d.topics(), w.topics());
        assertEquals(d.partitionsPerTopic(), w.partitionsPerTopic());
        assertEquals(d.messageSize(), w.messageSize());
        assertEquals(d.producersPerTopic(), w.producersPerTopic());
        assertEquals(d.name(), w.name());
        assertEquals(List.of(
            "topics not given: OMB's default of 0 makes no run; runs with this harness's default of 1",
            "partitionsPerTopic not given: OMB's default of 0 makes no run; runs with this harness's default of 18",
            "messageSize not given: OMB's default of 0 makes no run; runs with this harness's default of 300",
            "producersPerTopic not given: OMB's default of 0 makes no run; runs with this harness's default of 1",
            "neither payloadFile nor useRandomizedPayloads: OMB would fail to load a payload; sends one random body of messageSize "
                + "bytes per agent (this harness's default)",
            "producerRate not given: OMB's default of 0, its search for the maximum sustainable rate, as OMB runs it"), w.notes());

        Workload overridden = w.withTopics(2).withPartitionsPerTopic(4).withMessageSize(100).withProducersPerTopic(2)
            .withProducerRate(10).withPayload(Payload.randomized(0.5, 3));
        assertEquals(List.of(), overridden.notes(), "each override drops the note on its field");
        assertFalse(overridden.maxRateSearch());
        assertEquals(6, w.withThreadsPerAgent(2).withSendMode(SendMode.ASYNC).notes().size(), "other overrides keep them");
    }

    @Test
    void aFileNotInOmbsFormKeepsTheHarnessDefaults() {
        Workload w = WorkloadParser.parse("name: x\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\n");
        assertFalse(w.maxRateSearch());
        assertEquals(Workload.defaults().warmupDurationSeconds(), w.warmupDurationSeconds());
        assertEquals(List.of(), w.notes());
    }

    @Test
    void anOmbFileWithoutProducerRateCannotBuildABacklog() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(
            "testDurationMinutes: 1\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\nconsumerBacklogSizeGB: 1\n"));
        assertTrue(e.getMessage().startsWith("no producerRate (OMB's default: producerRate 0, search for the maximum sustainable rate)")
            && e.getMessage().contains("consumerBacklogSizeGB"), e.getMessage());
    }

    @Test
    void fractionsInFieldsOmbReadsAsWholeNumbersAreKeptAndNoted() {
        Workload w = WorkloadParser.parse(String.join("\n",
            "messageSize: 100", "topics: 1", "partitionsPerTopic: 1", "producersPerTopic: 1", "useRandomizedPayloads: true",
            "randomBytesRatio: 1.0", "randomizedPayloadPoolSize: 1", "subscriptionsPerTopic: 1", "consumerPerSubscription: 1",
            "producerRate: 1000.5", "consumerBacklogSizeGB: 0.5", "warmupDurationMinutes: 0.5", "testDurationMinutes: 2"));
        assertEquals(1000.5, w.producerRate());
        assertEquals(0.5, w.consumerBacklogSizeGB());
        assertEquals(30, w.warmupDurationSeconds());
        assertEquals(List.of(
            "producerRate 1000.5 is not a whole number: OMB's field is an integer, so OMB would read 1000; runs with 1000.5 here",
            "consumerBacklogSizeGB 0.5 is not a whole number: OMB's field is an integer, so OMB would read 0, no backlog; runs with "
                + "0.5 here",
            "warmupDurationMinutes 0.5 is not a whole number: OMB's field is an integer, so OMB would read 0, no warm-up; runs with "
                + "0.5 here"), w.notes());
        assertEquals(3, w.withConsumers(1, 4, 0.5).notes().size(), "--consumers keeps the backlog, and its note");
        assertEquals(List.of(), w.withProducerRate(1000).withConsumers(1, 1, 1).withWarmupDurationSeconds(60).notes());
    }
}
