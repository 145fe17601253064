package dev.rmqpatch.patches;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/** A stock 4.9.0 pull consumer reading a topic from its first offset, for the tests that check nothing was lost. */
final class ConsumeAll {

    private ConsumeAll() {
    }

    /**
     * Reads {@code topic} with a new group from the first offset until every {@code expected} key was seen (or a
     * minute passes); returns the keys of the messages {@code intact} accepts.
     */
    static Set<String> keys(String namesrvAddr, String group, String topic, Set<String> expected, Predicate<MessageExt> intact)
        throws Exception {
        Set<String> seen = new HashSet<>();
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.start();
        try {
            long deadline = System.currentTimeMillis() + 60_000;
            while (!seen.containsAll(expected) && System.currentTimeMillis() < deadline) {
                for (MessageExt m : consumer.poll(1000)) {
                    if (intact.test(m)) {
                        seen.add(m.getKeys());
                    }
                }
            }
        } finally {
            consumer.shutdown();
        }
        return seen;
    }
}
