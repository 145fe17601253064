package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rmqpatch.cluster.Topology;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.body.BrokerStatsData;
import org.apache.rocketmq.common.protocol.body.BrokerStatsItem;
import org.apache.rocketmq.common.protocol.header.ViewBrokerStatsDataRequestHeader;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.junit.jupiter.api.Test;

/**
 * P18 and P21 on a real SYNC_MASTER + SLAVE from the patched distribution: the same random sends (single messages and batches,
 * several topics, random body sizes, one sending thread and one queue per topic so the stored bytes are the same in
 * both runs), once with the patches on and once with {@code -Drmqpatch.disable=P18,P21}; the put statistics the
 * master and the slave report in their runtime info (what {@code mqadmin brokerStatus} prints) must be the same, and
 * must be what was sent: as many messages as were answered SEND_OK, and as many bytes as the CommitLog holds. So must
 * the master's StatsItem figures (P21) that VIEW_BROKER_STATS_DATA returns (what {@code mqadmin statsAll} and
 * {@code brokerConsumeStats}-style tools read): each topic's TOPIC_PUT_NUMS and TOPIC_PUT_SIZE and the broker's
 * BROKER_PUT_NUMS, once the broker's 10-second sampling has run after the last send.
 */
class StatsCountersIT {

    /** Queue 0 of the topic's route (created with the first send from the default route). */
    private static final FirstQueue FIRST_QUEUE = new FirstQueue();

    private static final String[] KEYS = {"putMessageTimesTotal", "putMessageSizeTotal", "commitLogMaxOffset"};

    @Test
    void runtimeInfoReportsTheSamePutStatisticsAsStockOnMasterAndSlave() throws Exception {
        long seed = new Random().nextLong();
        Map<String, String> patched = run("", seed);
        Map<String, String> stock = run("-Drmqpatch.disable=P18,P21", seed);
        assertEquals(stock, patched, "seed " + seed);
    }

    /** Sends the seed's messages and returns the two brokers' put statistics, prefixed "master." and "slave.". */
    private static Map<String, String> run(String javaOpt, long seed) throws Exception {
        TestCluster tc = new TestCluster(TestCluster.dist("patched"), "ms-sync/broker-a.conf").topology(Topology.MS_SYNC)
            .preferJdk8();
        if (!javaOpt.isEmpty()) {
            tc.javaOpt(javaOpt);
        }
        try (TestCluster started = tc.start()) {
            Random r = new Random(seed);
            DefaultMQProducer producer = new DefaultMQProducer("stats-counters-it");
            producer.setNamesrvAddr(started.namesrvAddr());
            producer.setSendMsgTimeout(10_000);
            producer.setRetryTimesWhenSendFailed(0);
            producer.start();
            long sent = 0;
            Map<String, Long> perTopic = new java.util.TreeMap<>();
            try {
                for (int t = 0; t < 3; t++) {
                    // A single message first: the topic's route (and its first queue) exists from then on.
                    sent += ok(producer.send(message("StatsCountersIT" + t, "first", r), FIRST_QUEUE, null), seed);
                    perTopic.merge("StatsCountersIT" + t, 1L, Long::sum);
                }
                for (int i = 0; i < 400; i++) {
                    String topic = "StatsCountersIT" + r.nextInt(3);
                    if (r.nextInt(10) == 0) {
                        List<Message> batch = new ArrayList<>();
                        int n = 1 + r.nextInt(8);
                        for (int j = 0; j < n; j++) {
                            batch.add(message(topic, i + "-" + j, r));
                        }
                        sent += ok(producer.send(batch, FIRST_QUEUE.select(producer, topic)), seed) * n;
                        perTopic.merge(topic, (long) n, Long::sum);
                    } else {
                        sent += ok(producer.send(message(topic, Integer.toString(i), r), FIRST_QUEUE, null), seed);
                        perTopic.merge(topic, 1L, Long::sum);
                    }
                }
            } finally {
                producer.shutdown();
            }
            Map<String, String> master = stats(started.cluster().master().addr());
            assertEquals(Long.toString(sent), master.get("putMessageTimesTotal"), "master, seed " + seed + " " + javaOpt);
            assertEquals(master.get("commitLogMaxOffset"), master.get("putMessageSizeTotal"), "master, seed " + seed + " " + javaOpt);
            // The slave's reput dispatches (and counts) what it received shortly after the master's SEND_OK.
            Map<String, String> slave = stats(started.cluster().slave().addr());
            long deadline = System.currentTimeMillis() + 20_000;
            while (!slave.get("putMessageTimesTotal").equals(master.get("putMessageTimesTotal"))
                && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
                slave = stats(started.cluster().slave().addr());
            }
            Map<String, String> both = new LinkedHashMap<>();
            master.forEach((k, v) -> both.put("master." + k, v));
            slave.forEach((k, v) -> both.put("slave." + k, v));
            assertEquals(master, slave, "slave against master, seed " + seed + " " + javaOpt);
            both.putAll(statsItems(started.cluster().master().addr(), perTopic, sent,
                Long.parseLong(master.get("putMessageSizeTotal")), seed + " " + javaOpt));
            System.out.println("[StatsCountersIT] " + (javaOpt.isEmpty() ? "P18, P21 on" : javaOpt) + ": " + both);
            return both;
        }
    }

    /**
     * The master's StatsItem figures for the sends (minute snapshots: sum and average per send), read with
     * VIEW_BROKER_STATS_DATA once a sampling after the last send has them all: each topic's message count, the
     * broker's, and the topics' bytes adding up to the store's.
     */
    private static Map<String, String> statsItems(String brokerAddr, Map<String, Long> perTopic, long sent, long bytes,
                                                  String seed) throws Exception {
        long deadline = System.currentTimeMillis() + 45_000;
        Map<String, String> picked = new LinkedHashMap<>();
        while (true) {
            picked.clear();
            long topicBytes = 0;
            boolean complete = true;
            for (Map.Entry<String, Long> e : perTopic.entrySet()) {
                BrokerStatsItem nums = statsMinute(brokerAddr, "TOPIC_PUT_NUMS", e.getKey());
                BrokerStatsItem size = statsMinute(brokerAddr, "TOPIC_PUT_SIZE", e.getKey());
                complete &= nums != null && nums.getSum() == e.getValue();
                topicBytes += size == null ? 0 : size.getSum();
                picked.put("master.TOPIC_PUT_NUMS." + e.getKey(), nums == null ? null : nums.getSum() + " avg " + nums.getAvgpt());
                picked.put("master.TOPIC_PUT_SIZE." + e.getKey(), size == null ? null : size.getSum() + " avg " + size.getAvgpt());
            }
            BrokerStatsItem broker = statsMinute(brokerAddr, "BROKER_PUT_NUMS", "DefaultCluster");
            picked.put("master.BROKER_PUT_NUMS", broker == null ? null : Long.toString(broker.getSum()));
            complete &= broker != null && broker.getSum() == sent && topicBytes == bytes;
            if (complete) {
                return picked;
            }
            if (System.currentTimeMillis() > deadline) {
                assertEquals(perTopic + " messages, " + sent + " in all, " + bytes + " bytes", picked.toString(),
                    "StatsItem figures after the last sampling, seed " + seed);
            }
            Thread.sleep(1_000);
        }
    }

    /** VIEW_BROKER_STATS_DATA's minute figures of one StatsItem, or null while the broker has none. */
    private static BrokerStatsItem statsMinute(String brokerAddr, String statsName, String statsKey) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            ViewBrokerStatsDataRequestHeader header = new ViewBrokerStatsDataRequestHeader();
            header.setStatsName(statsName);
            header.setStatsKey(statsKey);
            RemotingCommand response = client.invokeSync(brokerAddr,
                RemotingCommand.createRequestCommand(RequestCode.VIEW_BROKER_STATS_DATA, header), 10_000);
            if (response.getCode() != ResponseCode.SUCCESS) {
                return null;
            }
            return RemotingSerializable.decode(response.getBody(), BrokerStatsData.class).getStatsMinute();
        } finally {
            client.shutdown();
        }
    }

    /** Every send to its topic's first queue, so the queue offsets (and so the stored bytes) do not depend on timing. */
    private static final class FirstQueue implements MessageQueueSelector {
        @Override
        public MessageQueue select(List<MessageQueue> mqs, Message msg, Object arg) {
            return mqs.get(0);
        }

        /** The first queue of a topic the producer has sent to (batches have no selector overload in 4.9). */
        MessageQueue select(DefaultMQProducer producer, String topic) throws Exception {
            return producer.getDefaultMQProducerImpl().getTopicPublishInfoTable().get(topic).getMessageQueueList().get(0);
        }
    }

    private static Message message(String topic, String key, Random r) {
        byte[] body = new byte[1 + r.nextInt(2_000)];
        Arrays.fill(body, (byte) ('a' + r.nextInt(26)));
        return new Message(topic, "t", key, body);
    }

    private static int ok(SendResult result, long seed) {
        assertEquals(SendStatus.SEND_OK, result.getSendStatus(), "seed " + seed);
        return 1;
    }

    /** The put statistics of a broker's runtime info (GET_BROKER_RUNTIME_INFO, as mqadmin brokerStatus asks). */
    private static Map<String, String> stats(String brokerAddr) throws Exception {
        Map<String, String> table = RuntimeInfo.of(brokerAddr);
        Map<String, String> picked = new LinkedHashMap<>();
        for (String k : KEYS) {
            picked.put(k, table.get(k));
        }
        return picked;
    }
}
