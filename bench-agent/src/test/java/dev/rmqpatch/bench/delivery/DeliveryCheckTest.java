package dev.rmqpatch.bench.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.ConsumeResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryCheckTest {
    @Test
    void stampRoundTripsAndIsRecognised() {
        byte[] body = new byte[300];
        java.util.Arrays.fill(body, (byte) 7);
        int stream = BodyStamp.stream(3, 17);
        BodyStamp.write(body, 0, stream, 123_456_789_012L, 1_700_000_000_123_456L);
        assertTrue(BodyStamp.present(body));
        assertEquals(3 * 65536 + 17, BodyStamp.stream(body));
        assertEquals(123_456_789_012L, BodyStamp.sequence(body));
        assertEquals(1_700_000_000_123_456L, BodyStamp.sendMicros(body));
        assertEquals(7, body[BodyStamp.LENGTH], "the rest of the body is untouched");
        assertFalse(BodyStamp.present(new byte[300]), "random or zero bodies are not stamped");
        assertFalse(BodyStamp.present(new byte[10]));
        assertFalse(BodyStamp.present(null));
        assertThrows(IllegalArgumentException.class, () -> BodyStamp.stream(0, 65536));
    }

    @Test
    void sequenceSetCountsAndSurvivesEncoding() {
        SequenceSet s = new SequenceSet();
        assertTrue(s.add(0));
        assertTrue(s.add(65_535));
        assertTrue(s.add(65_536));
        assertTrue(s.add(10_000_000));
        assertFalse(s.add(65_536), "a second add is a duplicate");
        assertEquals(4, s.size());
        SequenceSet copy = SequenceSet.decode(s.encode());
        assertEquals(4, copy.size());
        assertTrue(copy.contains(10_000_000) && copy.contains(0) && !copy.contains(1));
        SequenceSet other = new SequenceSet();
        other.add(0);
        other.add(5);
        assertEquals(3, s.countNotIn(other));
        assertEquals(List.of(65_535L, 65_536L), s.firstNotIn(other, 2));
        assertEquals(1, s.addAll(other), "overlap of 0");
        assertEquals(5, s.size());
        assertThrows(IllegalArgumentException.class, () -> SequenceSet.decode("bm90IGRlZmxhdGVk"));
    }

    @Test
    void aMillionAcknowledgedSendsShipSmall() {
        SequenceSet s = new SequenceSet();
        for (long i = 0; i < 1_000_000; i++) {
            s.add(i);
        }
        assertTrue(s.encode().length() < 20_000, "nearly all ones deflate well: " + s.encode().length());
    }

    private static AgentResult producer(int agent, int threads, long perThread) {
        StreamSets acked = new StreamSets();
        for (int t = 0; t < threads; t++) {
            for (long q = 0; q < perThread; q++) {
                acked.add(BodyStamp.stream(agent, t), q);
            }
        }
        AgentResult r = new AgentResult();
        r.ackedSequences = acked.encode();
        return r;
    }

    private static ConsumeResult.SubscriptionResult received(String group, StreamSets got, long deliveries, long duplicates) {
        ConsumeResult.SubscriptionResult s = new ConsumeResult.SubscriptionResult();
        s.group = group;
        s.topic = "t";
        s.consumers = 1;
        s.deliveries = deliveries;
        s.duplicates = duplicates;
        s.received = got.encode();
        return s;
    }

    private static ConsumeResult consumer(ConsumeResult.SubscriptionResult... subs) {
        ConsumeResult c = new ConsumeResult();
        c.subscriptions = new ArrayList<>(List.of(subs));
        return c;
    }

    @Test
    void consumersOnTwoAgentsAreMergedPerSubscription() {
        // Agent 0 and agent 1 produce 2 threads x 100 each: 400 acknowledged.
        List<AgentResult> producers = List.of(producer(0, 2, 100), producer(1, 2, 100));
        // Group A: agent 0's consumer got agent 0's messages, agent 1's consumer got agent 1's, and both got (0,0)/5.
        StreamSets a0 = new StreamSets();
        StreamSets a1 = new StreamSets();
        for (int t = 0; t < 2; t++) {
            for (long q = 0; q < 100; q++) {
                a0.add(BodyStamp.stream(0, t), q);
                a1.add(BodyStamp.stream(1, t), q);
            }
        }
        a1.add(BodyStamp.stream(0, 0), 5);
        // Group B lost agent 1 thread 1's sequences 90..99 and received one message never acknowledged (a timed-out send).
        StreamSets b = new StreamSets();
        for (int t = 0; t < 2; t++) {
            for (long q = 0; q < 100; q++) {
                b.add(BodyStamp.stream(0, t), q);
                if (t == 0 || q < 90) {
                    b.add(BodyStamp.stream(1, t), q);
                }
            }
        }
        b.add(BodyStamp.stream(1, 1), 100);
        List<ConsumeResult> consumers = List.of(
            consumer(received("A", a0, 201, 1), received("B", b, 392, 0)),
            consumer(received("A", a1, 201, 0)));

        DeliveryCheck.Report r = DeliveryCheck.check(producers, consumers);
        assertEquals(400, r.acknowledged);
        DeliveryCheck.Subscription a = r.subscriptions.get(0);
        assertEquals("A", a.group);
        assertEquals(2, a.consumers);
        assertEquals(400, a.received);
        assertEquals(0, a.missing);
        assertEquals(2, a.duplicates, "one within agent 0, one across the agents");
        DeliveryCheck.Subscription bb = r.subscriptions.get(1);
        assertEquals(10, bb.missing);
        assertEquals(1, bb.receivedNotAcknowledged);
        assertEquals(5, bb.firstMissing.size());
        assertEquals((65536 + 1) + "/90", bb.firstMissing.get(0));
        assertEquals(10, r.missingMessages);
        assertEquals(2, r.duplicateMessages);
        assertEquals(1, r.receivedNotAcknowledged);
    }

    @Test
    void eachSubscriptionIsCheckedAgainstItsOwnTopicsSends() {
        // Agent 0, threads 0 and 2 send to topic t0, threads 1 and 3 to t1 (thread t uses producer t % 2), 50 each.
        AgentResult p = producer(0, 4, 50);
        p.streamTopics = new java.util.TreeMap<>();
        for (int t = 0; t < 4; t++) {
            p.streamTopics.put(Integer.toString(BodyStamp.stream(0, t)), t % 2 == 0 ? "t0" : "t1");
        }
        StreamSets got0 = new StreamSets();
        StreamSets got1 = new StreamSets();
        for (int t = 0; t < 4; t++) {
            for (long q = 0; q < 50; q++) {
                (t % 2 == 0 ? got0 : got1).add(BodyStamp.stream(0, t), q);
            }
        }
        ConsumeResult.SubscriptionResult s0 = received("g0", got0, 100, 0);
        s0.topic = "t0";
        ConsumeResult.SubscriptionResult s1 = received("g1", got1, 100, 0);
        s1.topic = "t1";
        DeliveryCheck.Report r = DeliveryCheck.check(List.of(p), List.of(consumer(s0, s1)));
        assertEquals(200, r.acknowledged);
        assertEquals(0, r.missingMessages, "each subscription received all of its topic's sends");
        for (DeliveryCheck.Subscription sub : r.subscriptions) {
            assertEquals(100, sub.acknowledged, sub.group);
            assertEquals(100, sub.received, sub.group);
        }
        assertEquals(java.util.Map.of("t0", 100L, "t1", 100L), DeliveryCheck.ackedByTopic(List.of(p)));

        // A message of t1 that g1 never received is missing from g1 only.
        StreamSets short1 = new StreamSets();
        for (int t : new int[] {1, 3}) {
            for (long q = 0; q < (t == 3 ? 49 : 50); q++) {
                short1.add(BodyStamp.stream(0, t), q);
            }
        }
        ConsumeResult.SubscriptionResult s1b = received("g1", short1, 99, 0);
        s1b.topic = "t1";
        r = DeliveryCheck.check(List.of(p), List.of(consumer(s0, s1b)));
        assertEquals(1, r.missingMessages);
        assertEquals(List.of(BodyStamp.stream(0, 3) + "/49"), r.subscriptions.get(1).firstMissing);
        assertEquals(null, DeliveryCheck.ackedByTopic(List.of(producer(0, 1, 1))), "agents that do not say: no split");
    }
}
