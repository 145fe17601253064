package dev.rmqpatch.bench.failover;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Nothing acknowledged may be lost: a stock pull consumer reads every queue of the topic on both brokers from its start
 * and counts the acknowledged keys it does not find (as StoreStallIT does). A message stored but not yet dispatched to
 * its consume queue (a dispatch stall) is found by a later pass: passes repeat while keys are missing, up to a limit.
 */
final class ReadBack {
    private ReadBack() {
    }

    /** What the read-back found. */
    record Result(long stored, long missing, int passes) {
    }

    static Result check(String namesrv, String topic, String instance, Set<String> acked, long patienceMillis) throws Exception {
        DefaultMQPullConsumer c = new DefaultMQPullConsumer("failover-readback");
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(instance + "-readback");
        c.start();
        try {
            Set<String> stored = new HashSet<>();
            Map<MessageQueue, Long> offsets = new HashMap<>();
            long deadline = System.currentTimeMillis() + patienceMillis;
            int passes = 0;
            while (true) {
                passes++;
                for (MessageQueue mq : c.fetchSubscribeMessageQueues(topic)) {
                    long offset = offsets.getOrDefault(mq, 0L);
                    long max = c.maxOffset(mq);
                    while (offset < max) {
                        PullResult r = c.pull(mq, "*", offset, 32, 5_000);
                        if (r.getPullStatus() != PullStatus.FOUND) {
                            break;
                        }
                        for (MessageExt m : r.getMsgFoundList()) {
                            stored.add(m.getKeys());
                        }
                        offset = r.getNextBeginOffset();
                    }
                    offsets.put(mq, offset);
                }
                long missing = acked.stream().filter(k -> !stored.contains(k)).count();
                if (missing == 0 || System.currentTimeMillis() > deadline) {
                    return new Result(stored.size(), missing, passes);
                }
                Thread.sleep(1_000);
            }
        } finally {
            c.shutdown();
        }
    }
}
