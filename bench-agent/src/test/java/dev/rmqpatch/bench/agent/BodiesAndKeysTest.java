package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.KeyDistributor;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BodiesAndKeysTest {

    private static PrepareRequest request(int size) {
        PrepareRequest r = new PrepareRequest();
        r.messageSize = size;
        return r;
    }

    @Test
    void randomizedPayloadsAreThatShareOfRandomBytesThenZeros() throws Exception {
        PrepareRequest r = request(1000);
        r.randomizedPayloadPoolSize = 50;
        r.randomBytesRatio = 0.3;
        Bodies bodies = Bodies.of(r);
        assertEquals(50, bodies.size());
        Set<String> distinct = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            byte[] b = bodies.next();
            assertEquals(1000, b.length);
            for (int k = 300; k < 1000; k++) {
                assertEquals(0, b[k], "byte " + k + " after the random share");
            }
            int nonZero = 0;
            for (int k = 0; k < 300; k++) {
                nonZero += b[k] != 0 ? 1 : 0;
            }
            assertTrue(nonZero > 250, "the first 300 bytes are random: " + nonZero + " non-zero");
            distinct.add(Base64.getEncoder().encodeToString(b));
        }
        assertTrue(distinct.size() > 40, "bodies are picked from the whole pool: " + distinct.size());
    }

    @Test
    void aPayloadFileIsSentAsItIs() throws Exception {
        PrepareRequest r = request(4);
        r.payloadBase64 = Base64.getEncoder().encodeToString(new byte[] {1, 2, 3, 4});
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Bodies.of(r).single());
        r.messageSize = 5;
        assertThrows(PrepareException.class, () -> Bodies.of(r));
    }

    @Test
    void withoutPayloadFieldsOneRandomBody() throws Exception {
        Bodies b = Bodies.of(request(300));
        assertEquals(1, b.size());
        assertEquals(300, b.single().length);
    }

    @Test
    void keyDistributorsBehaveAsOmbs() {
        String[] set = MessageKeys.keySet(0);
        assertEquals(MessageKeys.UNIQUE_KEYS, set.length);
        assertEquals(10, set[0].length(), "7 bytes in unpadded base64");
        assertArrayEquals(set, MessageKeys.keySet(0), "seeded per agent");
        assertNotEquals(set[0], MessageKeys.keySet(1)[0]);

        assertNull(MessageKeys.of(KeyDistributor.NO_KEY, null).next());

        MessageKeys rr = MessageKeys.of(KeyDistributor.KEY_ROUND_ROBIN, set);
        String first = rr.next();
        for (int i = 1; i < MessageKeys.UNIQUE_KEYS; i++) {
            assertEquals(set[i], rr.next());
        }
        assertEquals(first, rr.next(), "round robin wraps around");

        MessageKeys nano = MessageKeys.of(KeyDistributor.RANDOM_NANO, set);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String k = nano.next();
            assertTrue(k != null && k.length() == 10);
            seen.add(k);
        }
        assertTrue(seen.size() > 1, "random keys vary");
        assertEquals(KeyDistributor.NO_KEY, MessageKeys.kind(null));
        assertThrows(IllegalArgumentException.class, () -> MessageKeys.kind("SOMETIMES"));
    }
}
