package dev.rmqpatch.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.Payload;
import dev.rmqpatch.bench.workload.SendMode;
import dev.rmqpatch.bench.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the agents are prepared with: the workload's part that bench run and compare --efficiency share, and bench run's own. */
class PrepareRequestsTest {
    private static Workload shaped() {
        return Workload.defaults().withTopics(3).withPartitionsPerTopic(8).withMessageSize(512).withProducersPerTopic(2).withThreadsPerAgent(4)
            .withSendMode(SendMode.ASYNC).withClient(ClientMode.WIRE).withMessageTagsAndKeys("tagA", null)
            .withKeyDistributor(KeyDistributor.KEY_ROUND_ROBIN).withPayload(Payload.randomized(0.5, 7));
    }

    @Test
    void theWorkloadsPartCarriesItsShapeKeysAndBodies() {
        PrepareRequest r = PrepareRequests.forWorkload(shaped(), "r9", null);
        assertEquals("r9", r.runId);
        assertEquals(8, r.partitionsPerTopic);
        assertEquals(512, r.messageSize);
        assertEquals(2, r.producersPerTopic);
        assertEquals(4, r.threads);
        assertEquals("async", r.mode);
        assertEquals("wire", r.client);
        assertEquals("tagA", r.tags);
        assertNull(r.keys);
        assertEquals("KEY_ROUND_ROBIN", r.keyDistributor);
        assertNull(r.payloadBase64);
        assertEquals(7, r.randomizedPayloadPoolSize);
        assertEquals(0.5, r.randomBytesRatio);
        assertNull(r.namesrv, "where to send is the caller's");
        assertNull(r.topics);
        assertEquals(0, r.ratePerSecond);

        PrepareRequest plain = PrepareRequests.forWorkload(Workload.defaults(), "r1", "AAAA");
        assertNull(plain.keyDistributor, "NO_KEY is sent as none");
        assertEquals("AAAA", plain.payloadBase64);
        assertEquals(0, plain.randomizedPayloadPoolSize);
    }

    @Test
    void thePayloadFileIsReadOnceAsBase64(@TempDir Path dir) throws Exception {
        assertNull(PrepareRequests.payloadBase64(Workload.defaults(), dir), "no payload file");
        byte[] body = new byte[300];
        body[0] = 7;
        Files.write(dir.resolve("p.bin"), body);
        Workload w = Workload.defaults().withPayload(Payload.file("p.bin", dir));
        assertArrayEquals(body, Base64.getDecoder().decode(PrepareRequests.payloadBase64(w, null)));
        Workload wrongSize = w.withMessageSize(299);
        String e = assertThrows(IllegalArgumentException.class, () -> PrepareRequests.payloadBase64(wrongSize, null)).getMessage();
        assertTrue(e.contains("has 300 bytes, but messageSize is 299"), e);
    }

    @Test
    void eachAgentGetsItsPlaceShareClockAndSubscriptions() {
        RunSpec spec = new RunSpec();
        spec.workload = Workload.defaults().withTopics(2).withProducerRate(1_000).withConsumers(1, 1, 0);
        spec.runId = "r2";
        spec.namesrv = "127.0.0.1:9876";
        spec.sendTimeoutMs = 1234;
        spec.maxOutstanding = 56;
        spec.routeWaitMs = 789;
        spec.ioThreads = 2;
        SubscriptionPlan plan = SubscriptionPlan.deal(spec, 4);

        PrepareRequest first = PrepareRequests.forAgent(spec, "AAAA", 0, 4, plan, -42);
        assertEquals(0, first.agentIndex);
        assertEquals("r2", first.runId);
        assertEquals("AAAA", first.payloadBase64);
        assertEquals("127.0.0.1:9876", first.namesrv);
        assertEquals(List.of("bench-r2-0", "bench-r2-1"), first.topics);
        assertEquals(250, first.ratePerSecond, 1e-9, "a quarter of the rate");
        assertTrue(first.stampBodies, "a run with consumers stamps its bodies");
        assertEquals(-42, first.clockOffsetMicros);
        assertEquals(1, first.subscriptions.size());
        assertEquals(1234, first.sendTimeoutMs);
        assertEquals(56, first.maxOutstanding);
        assertEquals(789, first.routeWaitMs);
        assertEquals(2, first.ioThreads);

        PrepareRequest third = PrepareRequests.forAgent(spec, null, 2, 4, plan, 0);
        assertEquals(2, third.agentIndex);
        assertNull(third.subscriptions, "2 consumers on 4 agents: the third runs none");

        spec.workload = Workload.defaults().withMaxRateSearch();
        PrepareRequest search = PrepareRequests.forAgent(spec, null, 0, 4, SubscriptionPlan.deal(spec, 4), 0);
        assertEquals(RateSearch.START_RATE / 4, search.ratePerSecond, 1e-9, "the search starts every agent at its share of the start rate");
        assertFalse(search.stampBodies);
        assertNull(search.subscriptions);
    }
}
