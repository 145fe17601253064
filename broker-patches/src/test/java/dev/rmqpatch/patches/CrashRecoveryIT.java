package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} of the patched broker while producers are sending, then a restart on the same store: every
 * message whose send was acknowledged must be consumable afterwards, with its properties.
 */
class CrashRecoveryIT {

    private static final String TOPIC = "CrashRecoveryIT";
    private static final int THREADS = 4;
    /** Acknowledged sends before the kill; enough that the kill lands mid-load, with more sends in flight. */
    private static final int ACKED_BEFORE_KILL = 1500;

    @Test
    void everyAcknowledgedMessageSurvivesKillMinus9() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf").start()) {
            Set<String> acked = ConcurrentHashMap.newKeySet();
            AtomicInteger failed = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            DefaultMQProducer producer = new DefaultMQProducer("crash-it-producer");
            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setSendMsgTimeout(3000);
            producer.setRetryTimesWhenSendFailed(0);
            producer.start();
            List<Thread> senders = new ArrayList<>();
            try {
                for (int t = 0; t < THREADS; t++) {
                    final int thread = t;
                    Thread sender = new Thread(() -> {
                        for (int i = 0; !stop.get(); i++) {
                            String key = "k-" + thread + "-" + i;
                            Message m = new Message(TOPIC, "crash", key, ("body of " + key).getBytes(StandardCharsets.UTF_8));
                            m.putUserProperty("origin", key);
                            try {
                                SendResult r = producer.send(m);
                                if (r.getSendStatus() == SendStatus.SEND_OK) {
                                    acked.add(key);
                                }
                            } catch (Exception e) {
                                failed.incrementAndGet();
                            }
                        }
                    }, "crash-it-sender-" + t);
                    sender.start();
                    senders.add(sender);
                }
                long deadline = System.currentTimeMillis() + 120_000;
                while (acked.size() < ACKED_BEFORE_KILL && System.currentTimeMillis() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(acked.size() >= ACKED_BEFORE_KILL, "load did not get going: " + acked.size() + " acked");
                cluster.killBroker();
                // Sends in flight at the kill fail or time out; let them finish before counting.
                Thread.sleep(500);
            } finally {
                stop.set(true);
                for (Thread s : senders) {
                    s.join(30_000);
                }
                producer.shutdown();
            }
            Set<String> ackedAtKill = new HashSet<>(acked);
            System.out.printf("[CrashRecoveryIT] acknowledged before kill -9: %d, failed sends: %d%n",
                ackedAtKill.size(), failed.get());
            assertTrue(failed.get() > 0 || ackedAtKill.size() > ACKED_BEFORE_KILL, "the kill happened under load");

            cluster.startBroker();
            Set<String> consumed = ConsumeAll.keys(cluster.namesrvAddr(), "crash-it-consumer", TOPIC, ackedAtKill,
                m -> m.getKeys().equals(m.getUserProperty("origin"))
                    && new String(m.getBody(), StandardCharsets.UTF_8).equals("body of " + m.getKeys()));
            Set<String> missing = new HashSet<>(ackedAtKill);
            missing.removeAll(consumed);
            assertTrue(missing.isEmpty(), missing.size() + " acknowledged messages lost, e.g. "
                + missing.stream().limit(5).toList());
        }
    }
}
