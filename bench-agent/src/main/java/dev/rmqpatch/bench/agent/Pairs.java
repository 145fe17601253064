package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import java.util.List;

/**
 * Where a run's messages go, for every client kind: its targets (clusters), each target's pairs (topic, producer) in
 * the order every driver creates its producers (topic by topic, {@code producersPerTopic} producers each), which pair a
 * sender sends its next message to, and which stamp stream that message counts in.
 */
final class Pairs {
    private Pairs() {
    }

    /** The request's targets: its list, or the one given by {@code namesrv} and {@code topics}. */
    static List<PrepareRequest.Target> targets(PrepareRequest r) {
        return r.targets != null ? r.targets : Jdk8.listOf(new PrepareRequest.Target(r.namesrv, r.topics));
    }

    /** How many pairs a target has: topics x producersPerTopic. */
    static int count(PrepareRequest.Target target, int producersPerTopic) {
        return target.topics.size() * Math.max(1, producersPerTopic);
    }

    /** The topic of pair {@code pair}. */
    static String topic(PrepareRequest.Target target, int pair, int producersPerTopic) {
        return target.topics.get(pair / Math.max(1, producersPerTopic));
    }

    /** Topic and producer pairs of the (first) target of a request not yet validated: 0 without topics. */
    static int ofFirstTarget(PrepareRequest r) {
        List<String> topics = r.targets != null && !r.targets.isEmpty() ? r.targets.get(0).topics : r.topics;
        return (topics == null ? 0 : topics.size()) * Math.max(1, r.producersPerTopic);
    }

    /**
     * The pair that sender {@code sender} sends its {@code turn}-th message to: with at least as many senders as pairs,
     * always pair sender % pairs (several senders per pair); with more pairs, its own pairs sender, sender + senders,
     * ... in turn, so every pair gets messages and each pair has one sender.
     */
    static int pairOf(int sender, long turn, int pairs, int senders) {
        if (pairs <= senders) {
            return sender % pairs;
        }
        int share = (pairs - sender + senders - 1) / senders;
        return sender + senders * (int) (turn % share);
    }

    /**
     * The stamp's stream slot of a message: the sender's when senders are at least the pairs, else the pair's (each pair
     * then has one sender, and its topic is the stream's topic for the count check).
     */
    static int streamSlot(int sender, int pair, int pairs, int senders) {
        return pairs <= senders ? sender : pair;
    }

    /** How many stream slots the stamped sends use: one per sender, or one per pair when the pairs outnumber the senders. */
    static int streamSlots(int pairs, int senders) {
        return Math.max(pairs, senders);
    }

    /** The pair whose topic stream slot {@code slot} sends to (see {@link #pairOf}, {@link #streamSlot}). */
    static int pairOfSlot(int slot, int pairs, int senders) {
        return pairs <= senders ? slot % pairs : slot;
    }
}
