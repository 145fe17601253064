package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * P36 with real servers (issue 42's "Mixed-version fleets"): a stock 4.9.7 client (rocketmq-client 4.9.7 from Maven
 * Central with its own dependencies, in a class loader of its own) sends batches ({@code send(Collection<Message>)})
 * whose messages carry several user properties, and reads them back with its own lite pull consumer
 * ({@link BatchClientDriver}), against three single-broker clusters on loopback, one after the other:
 * <ul>
 *   <li>stock 4.9.0, the control: every batch is acknowledged and every message comes back, and none keeps all of
 *       its properties (the last one runs into the batch's CLUSTER), so the test proves the bug exists;</li>
 *   <li>patched 4.9.0: every message keeps every property;</li>
 *   <li>patched 4.9.0 with {@code -Drmqpatch.disable=P36}: as stock.</li>
 * </ul>
 */
class BatchClientBrokersIT {

    private static final int MESSAGES = BatchClientDriver.BATCHES * BatchClientDriver.PER_BATCH;

    private static URLClassLoader client497;

    @BeforeAll
    static void loadTheClient() throws Exception {
        client497 = LibLoaders.of(Path.of(System.getProperty("rmqpatch.lib497")));
    }

    @AfterAll
    static void close() throws Exception {
        if (client497 != null) {
            client497.close();
        }
    }

    @Test
    void stock490LosesTheLastPropertyOfEveryBatchedMessage() throws Exception {
        List<String> facts = run(TestCluster.dist("stock"), null);
        assertEquals(List.of("batches: 3 of 3 SEND_OK", "received: " + MESSAGES + " of " + MESSAGES,
            "every property kept: 0 of " + MESSAGES), facts, "the control: stock 4.9.0 has the bug");
    }

    @Test
    void patched490KeepsEveryProperty() throws Exception {
        List<String> facts = run(TestCluster.dist("patched"), null);
        assertEquals(List.of("batches: 3 of 3 SEND_OK", "received: " + MESSAGES + " of " + MESSAGES,
            "every property kept: " + MESSAGES + " of " + MESSAGES), facts);
    }

    @Test
    void patched490WithP36OffLosesItAsStock() throws Exception {
        List<String> facts = run(TestCluster.dist("patched"), "-Drmqpatch.disable=P36");
        assertEquals(List.of("batches: 3 of 3 SEND_OK", "received: " + MESSAGES + " of " + MESSAGES,
            "every property kept: 0 of " + MESSAGES), facts);
    }

    private static List<String> run(Path dist, String javaOpt) throws Exception {
        boolean patched = dist.equals(TestCluster.dist("patched"));
        TestCluster cluster = new TestCluster(dist, patched ? "broker-tuned.conf" : "broker.conf");
        if (javaOpt != null) {
            cluster.javaOpt(javaOpt);
        }
        try (TestCluster c = cluster.start()) {
            List<String> lines = runDriver(c.namesrvAddr(), "BatchTopic497");
            String label = dist.getFileName() + (javaOpt == null ? "" : " " + javaOpt);
            lines.forEach(l -> System.out.println("[BatchClientBrokersIT] " + label + ": " + l));
            if (javaOpt != null) {
                assertTrue(java.nio.file.Files.readAllLines(c.brokerLog()).stream()
                    .anyMatch(l -> l.contains("disabled by -Drmqpatch.disable: [P36]")),
                    "the broker reports P36 off");
            }
            List<String> facts = new ArrayList<>(lines);
            facts.removeIf(l -> l.startsWith("info: "));
            return facts;
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> runDriver(String namesrv, String topic) throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(client497);
        try (DriverLoader driver = new DriverLoader(client497, BatchClientDriver.class.getName())) {
            return (List<String>) Class.forName(BatchClientDriver.class.getName(), true, driver)
                .getMethod("run", String.class, String.class).invoke(null, namesrv, topic);
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
    }
}
