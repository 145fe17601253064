package dev.rmqpatch.bench.delivery;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.ConsumeResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The count check of a run with consumers: every acknowledged send (by its stream and sequence, from the producers'
 * sets) must have been received at least once by every subscription. The sets of one subscription's consumers on
 * different agents are merged first (a message that reached two agents' consumers of one group is a duplicate, as is
 * one delivered twice to one agent). Memory is one bit per message per set.
 */
public final class DeliveryCheck {
    /** How many missing messages a subscription's report names. */
    private static final int SAMPLES = 5;

    private DeliveryCheck() {
    }

    /** The check's result; the run result carries it as {@code delivery}. */
    public static final class Report {
        /** Acknowledged sends of the whole run (warm-up included), all topics. */
        public long acknowledged;
        /** Summed over subscriptions: acknowledged sends a subscription never received. */
        public long missingMessages;
        /** Summed over subscriptions: deliveries beyond the first of a message. */
        public long duplicateMessages;
        /** Summed over subscriptions: messages received whose send was not acknowledged (timed out, yet stored). */
        public long receivedNotAcknowledged;
        /** Seconds the consumers were given after the producers stopped, and whether they caught up in that time. */
        public double drainSeconds;
        public boolean drained;
        public List<Subscription> subscriptions = new ArrayList<>();
        public String note;
    }

    /** One subscription (consumer group) over all agents. */
    public static final class Subscription {
        public String group;
        public String topic;
        /** Acknowledged sends to this subscription's topic (the whole run): what it must have received. */
        public long acknowledged;
        public int consumers;
        public long deliveries;
        public long received;
        public long missing;
        public long duplicates;
        public long receivedNotAcknowledged;
        /** A few missing messages as "stream/sequence" (stream = agent index * 65536 + sender thread). */
        public List<String> firstMissing = new ArrayList<>();
    }

    public static Report check(List<AgentResult> producers, List<ConsumeResult> consumers) {
        StreamSets all = new StreamSets();
        for (AgentResult p : producers) {
            if (p.ackedSequences != null) {
                all.addAll(StreamSets.decode(p.ackedSequences));
            }
        }
        Map<String, StreamSets> byTopic = byTopic(producers);
        Map<String, Subscription> bySubscription = new LinkedHashMap<>();
        Map<String, StreamSets> received = new LinkedHashMap<>();
        for (ConsumeResult c : consumers) {
            if (c.subscriptions == null) {
                continue;
            }
            for (ConsumeResult.SubscriptionResult s : c.subscriptions) {
                Subscription sub = bySubscription.computeIfAbsent(s.group, g -> {
                    Subscription x = new Subscription();
                    x.group = g;
                    x.topic = s.topic;
                    return x;
                });
                sub.consumers += s.consumers;
                sub.deliveries += s.deliveries;
                sub.duplicates += s.duplicates;
                StreamSets mine = received.computeIfAbsent(s.group, g -> new StreamSets());
                sub.duplicates += mine.addAll(StreamSets.decode(s.received));
            }
        }
        Report r = new Report();
        r.acknowledged = all.size();
        for (Subscription sub : bySubscription.values()) {
            // A subscription receives its own topic only; without the agents' stream topics, every acknowledged send counts.
            StreamSets acked = byTopic == null ? all : byTopic.getOrDefault(sub.topic, new StreamSets());
            sub.acknowledged = acked.size();
            StreamSets got = received.get(sub.group);
            sub.received = got.size();
            for (Map.Entry<Integer, SequenceSet> e : acked.streams().entrySet()) {
                SequenceSet g = got.stream(e.getKey());
                SequenceSet none = g == null ? new SequenceSet() : g;
                long missing = e.getValue().countNotIn(none);
                sub.missing += missing;
                if (missing > 0 && sub.firstMissing.size() < SAMPLES) {
                    for (long seq : e.getValue().firstNotIn(none, SAMPLES - sub.firstMissing.size())) {
                        sub.firstMissing.add(e.getKey() + "/" + seq);
                    }
                }
            }
            for (Map.Entry<Integer, SequenceSet> e : got.streams().entrySet()) {
                SequenceSet a = all.stream(e.getKey());
                sub.receivedNotAcknowledged += e.getValue().countNotIn(a == null ? new SequenceSet() : a);
            }
            r.missingMessages += sub.missing;
            r.duplicateMessages += sub.duplicates;
            r.receivedNotAcknowledged += sub.receivedNotAcknowledged;
            r.subscriptions.add(sub);
        }
        return r;
    }

    /**
     * The acknowledged sequences split by the topic each stream sent to (a sender keeps to one topic), from the agents'
     * {@code streamTopics}; null when an agent with acknowledged sequences did not say (then all count for every topic).
     */
    static Map<String, StreamSets> byTopic(List<AgentResult> producers) {
        Map<String, StreamSets> byTopic = new LinkedHashMap<>();
        for (AgentResult p : producers) {
            if (p.ackedSequences == null) {
                continue;
            }
            if (p.streamTopics == null) {
                return null;
            }
            StreamSets mine = StreamSets.decode(p.ackedSequences);
            for (Map.Entry<Integer, SequenceSet> e : mine.streams().entrySet()) {
                String topic = p.streamTopics.get(Integer.toString(e.getKey()));
                if (topic == null) {
                    return null;
                }
                byTopic.computeIfAbsent(topic, x -> new StreamSets()).streams()
                    .computeIfAbsent(e.getKey(), k -> new SequenceSet()).addAll(e.getValue());
            }
        }
        return byTopic;
    }

    /** Acknowledged sends per topic, for the drain's target per subscription; null when the agents did not say. */
    public static Map<String, Long> ackedByTopic(List<AgentResult> producers) {
        Map<String, StreamSets> byTopic = byTopic(producers);
        if (byTopic == null) {
            return null;
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        byTopic.forEach((t, sets) -> counts.put(t, sets.size()));
        return counts;
    }
}
