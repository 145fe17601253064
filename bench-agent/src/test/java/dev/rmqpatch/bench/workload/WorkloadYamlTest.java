package dev.rmqpatch.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workload files as YAML: the features OMB's files use, the shapes that are refused, and tags never instantiating a class. */
class WorkloadYamlTest {

    private static IllegalArgumentException refused(String text) {
        return assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(text));
    }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "'" + part + "' in: " + message);
        }
    }

    /** As OMB's own files are written: a licence header, blank lines, quoted strings, comments after values. */
    @Test
    void theYamlFeaturesOmbFilesUseAreRead() {
        Workload w = WorkloadParser.parse(String.join("\n",
            "#",
            "# Licensed to the Apache Software Foundation (ASF) under one",
            "#",
            "",
            "name: \"1 topic / 100 partitions: 10M\"   # quoted, with a colon",
            "",
            "topics: 1",
            "partitionsPerTopic: 100",
            "keyDistributor: 'KEY_ROUND_ROBIN'",
            "messageSize: 1024",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 1.0",
            "randomizedPayloadPoolSize: 1000",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 4",
            "producersPerTopic: 4",
            "producerRate: 10000000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 15",
            ""));
        assertEquals("1 topic / 100 partitions: 10M", w.name());
        assertEquals(KeyDistributor.KEY_ROUND_ROBIN, w.keyDistributor());
        assertEquals(10_000_000, w.producerRate());
        assertEquals(1.0, w.payload().randomBytesRatio());
        assertEquals(1000, w.payload().poolSize());
        assertEquals(900, w.testDurationSeconds());
        assertEquals(List.of(), w.notes(), "OMB runs it as written");
    }

    @Test
    void numbersBooleansAndStringsAreReadByTheFieldsType() {
        Workload w = WorkloadParser.parse(String.join("\n",
            "---",
            "name: 300",
            "topics : 2",
            "producerRate: 1e3",
            "messageSize: 1_024",
            "useRandomizedPayloads: True",
            "randomBytesRatio: \"0.5\"",
            "randomizedPayloadPoolSize: '7'",
            "messageTags: !!str 42",
            "..."));
        assertEquals("300", w.name(), "a name that YAML reads as a number stays its text");
        assertEquals(2, w.topics(), "a space before the colon, as in OMB's early files");
        assertEquals(1000, w.producerRate());
        assertEquals(1024, w.messageSize());
        assertTrue(w.payload().isRandomized());
        assertEquals(0.5, w.payload().randomBytesRatio(), "quoted numbers are numbers, as Jackson coerces them in OMB");
        assertEquals(7, w.payload().poolSize());
        assertEquals("42", w.messageTags(), "YAML's own !!str tag is a plain value");
        assertEquals(SendMode.SYNC, WorkloadParser.parse("sendMode: 'sync'  # quoted\n").sendMode());
    }

    @Test
    void jsonIsReadAsYamlIsAsInOmb() {
        Workload w = WorkloadParser.parse("{\"name\":\"j\",\"topics\":2,\"useRandomizedPayloads\":false,\n \"producerRate\": 10.0}");
        assertEquals("j", w.name());
        assertEquals(2, w.topics());
        assertEquals(10, w.producerRate());
        assertEquals(Map.of("a", "1"), WorkloadParser.fields("{a: 1}"));
    }

    @Test
    void aJavaTagIsRefusedAndNothingIsInstantiated() {
        IllegalArgumentException e = refused("name: x\ntopics: !!javax.script.ScriptEngineManager "
            + "[!!java.net.URLClassLoader [[!!java.net.URL [\"http://127.0.0.1:1/\"]]]]\n");
        assertContains(e.getMessage(), "line 2", "!!javax.script.ScriptEngineManager", "refused", "create objects of a class");
        e = refused("!!java.util.HashMap {topics: 1}\n");
        assertContains(e.getMessage(), "line 1", "!!java.util.HashMap", "refused");
        e = refused("name: !!java.lang.String x\n");
        assertContains(e.getMessage(), "!!java.lang.String", "refused");
        e = refused("name: !local x\n");
        assertContains(e.getMessage(), "field 'name'", "!local", "refused");
        e = refused("name: !!binary aGVsbG8=\n");
        assertContains(e.getMessage(), "field 'name'", "!!binary", "refused");
    }

    @Test
    void aRefusedTagInAFileNamesTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("evil.yaml");
        Files.writeString(file, "# looks harmless\nname: !!java.io.FileOutputStream [\"x\"]\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(file));
        assertContains(e.getMessage(), "evil.yaml", "line 2", "!!java.io.FileOutputStream", "refused");
        assertTrue(!Files.exists(dir.resolve("x")) && !Files.exists(Path.of("x")), "no object was made");
    }

    @Test
    void anUnknownFieldIsNamedWithTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("typo.yaml");
        Files.writeString(file, "name: t\nconsumersPerSubscription: 1\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkloadParser.parse(file));
        assertContains(e.getMessage(), "typo.yaml", "unknown workload field 'consumersPerSubscription'", "consumerPerSubscription");
    }

    @Test
    void shapesThatAreNotOneFlatMappingAreRefusedWithTheLine() {
        assertContains(refused("name: x\nmessageSize: {bytes: 1}\n").getMessage(), "line 2", "field 'messageSize'", "a mapping");
        assertContains(refused("name: x\n\ntopics: [1, 2]\n").getMessage(), "line 3", "field 'topics'", "a list");
        assertContains(refused("- name: x\n").getMessage(), "line 1", "mapping of 'field: value' lines", "a list");
        assertContains(refused("just text\n").getMessage(), "line 1", "not the value 'just text'");
        assertContains(refused("name: x\nname: y\n").getMessage(), "line 2", "'name' given twice");
        assertContains(refused("name: x\ntopics:\n").getMessage(), "field 'topics' has no value");
        assertContains(refused("topics: ~\n").getMessage(), "field 'topics' has no value");
        assertContains(refused("name: x\n---\nname: y\n").getMessage(), "single document");
        assertContains(refused("name: 'unclosed\n").getMessage(), "not valid as a workload file");
        assertContains(refused("[1, 2]: x\n").getMessage(), "field name must be plain text");
    }

    @Test
    void wrongTypesAreClearErrors() {
        assertContains(refused("topics: two\n").getMessage(), "topics must be a number, not 'two'");
        assertContains(refused("topics: 2.5\n").getMessage(), "topics must be a whole number, not 2.5");
        assertContains(refused("useRandomizedPayloads: 1\n").getMessage(), "useRandomizedPayloads must be true or false, not '1'");
        assertContains(refused("useRandomizedPayloads: on\n").getMessage(), "true or false", "'on'");
        assertContains(refused("producerRate: true\n").getMessage(), "producerRate must be a number, not 'true'");
        assertContains(refused("keyDistributor: 3\n").getMessage(), "keyDistributor", "KEY_ROUND_ROBIN");
    }

    @Test
    void anEmptyFileIsTheDefaults() {
        Workload w = WorkloadParser.parse("# nothing but a comment\n");
        assertEquals(Workload.defaults().toString(), w.toString());
        assertEquals(List.of(), w.notes());
    }
}
