package dev.rmqpatch.bench.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/** Reads a topic back for the ITs: a stock 4.9.0 pull consumer over every queue from offset 0. */
final class PullAll {

    private PullAll() {
    }

    /**
     * Every message of {@code topic}, pulled until {@code expected} arrived or 30 s passed (the caller compares); the
     * consumer (group {@code group}, its own instance name) is shut down before this returns.
     */
    static List<MessageExt> messages(String namesrv, String group, String topic, long expected) throws Exception {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(group);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(group + "-" + System.nanoTime());
        consumer.start();
        List<MessageExt> all = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Map<MessageQueue, Long> offsets = new LinkedHashMap<>();
            for (MessageQueue q : consumer.fetchSubscribeMessageQueues(topic)) {
                offsets.put(q, 0L);
            }
            while (all.size() < expected && System.nanoTime() < deadline) {
                boolean progress = false;
                for (Map.Entry<MessageQueue, Long> e : offsets.entrySet()) {
                    PullResult p = consumer.pull(e.getKey(), "*", e.getValue(), 32);
                    if (p.getPullStatus() == PullStatus.FOUND) {
                        all.addAll(p.getMsgFoundList());
                        progress = true;
                    }
                    e.setValue(p.getNextBeginOffset());
                }
                if (!progress) {
                    Thread.sleep(100);
                }
            }
        } finally {
            consumer.shutdown();
        }
        return all;
    }
}
