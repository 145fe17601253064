package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which topic and producer pair each sender thread uses: with more pairs than threads (OMB's 100-topic files against 32
 * threads per agent) every pair must get messages, each from one thread, so the count check knows each stream's topic.
 */
class SenderPairsTest {
    @Test
    void atLeastAsManyThreadsAsPairsKeepsThreadModPairs() {
        for (int t = 0; t < 32; t++) {
            for (long turn = 0; turn < 5; turn++) {
                assertEquals(t % 6, Pairs.pairOf(t, turn, 6, 32));
            }
            assertEquals(t, Pairs.streamSlot(t, t % 6, 6, 32), "one stream per thread, as before");
        }
        assertEquals(32, Pairs.streamSlots(6, 32));
    }

    @Test
    void morePairsThanThreadsCoversEveryPairOnceFromOneThread() {
        int pairs = 100;
        int threads = 32;
        Map<Integer, Integer> owner = new HashMap<>();
        for (int t = 0; t < threads; t++) {
            Set<Integer> mine = new HashSet<>();
            for (long turn = 0; turn < 40; turn++) {
                int k = Pairs.pairOf(t, turn, pairs, threads);
                assertTrue(k >= 0 && k < pairs, "pair " + k);
                assertEquals(t, k % threads, "thread " + t + " sends to its own pairs only");
                Integer before = owner.put(k, t);
                assertTrue(before == null || before == t, "pair " + k + " has one thread");
                assertEquals(k, Pairs.streamSlot(t, k, pairs, threads), "the stream is the pair's");
                mine.add(k);
            }
            assertEquals(t < pairs % threads ? 4 : 3, mine.size(), "thread " + t + " takes its pairs in turn");
        }
        assertEquals(pairs, owner.size(), "every pair gets messages");
        assertEquals(100, Pairs.streamSlots(pairs, threads));
    }
}
