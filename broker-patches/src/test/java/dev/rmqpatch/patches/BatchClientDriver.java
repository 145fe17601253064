package dev.rmqpatch.patches;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Runs inside a stock client's loader ({@link DriverLoader} over the client's jars, e.g. rocketmq-client 4.9.7): sends
 * {@link #BATCHES} batches ({@code send(Collection<Message>)}) of {@link #PER_BATCH} messages, each with
 * {@link #PROPERTIES} user properties (one value non-ASCII), and reads them back with a lite pull consumer of the same
 * client from the first offset. Returns what came back, one fact a line: how many were sent and received, and how many
 * kept every property the client wrote (the user's, and the client's own: unique key, tags, WAIT) with its value; the
 * first message that did not, with what it carried.
 */
public final class BatchClientDriver {

    static final int BATCHES = 3;
    static final int PER_BATCH = 10;
    static final int PROPERTIES = 4;
    private static final long CONSUME_WAIT_MS = 60_000;

    private BatchClientDriver() {
    }

    public static List<String> run(String namesrv, String topic) throws Exception {
        List<String> out = new ArrayList<>();
        String instance = "batch-client-" + System.nanoTime();
        DefaultMQProducer producer = new DefaultMQProducer("batch-client-producer");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(instance);
        producer.setSendMsgTimeout(15_000);
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("batch-client-pull");
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(instance);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        Map<String, Map<String, String>> sent = new HashMap<>();
        try {
            producer.start();
            int ok = 0;
            for (int b = 0; b < BATCHES; b++) {
                List<Message> batch = new ArrayList<>();
                for (int m = 0; m < PER_BATCH; m++) {
                    String seq = b + "-" + m;
                    Message msg = new Message(topic, "TagA", ("batch body " + seq).getBytes(StandardCharsets.UTF_8));
                    Map<String, String> props = new TreeMap<>();
                    props.put("seq", seq);
                    for (int p = 1; p < PROPERTIES; p++) {
                        props.put("p" + p, p == PROPERTIES - 1 ? "v\u00e9\u4e2d" + seq : "v" + p + "-" + seq);
                    }
                    props.forEach(msg::putUserProperty);
                    batch.add(msg);
                }
                SendResult r = producer.send(batch);
                if (r.getSendStatus().name().equals("SEND_OK")) {
                    ok++;
                }
                // Every property the client wrote: the user's, and its own (unique key, tags, WAIT).
                for (Message msg : batch) {
                    sent.put(msg.getUserProperty("seq"), new TreeMap<>(msg.getProperties()));
                }
            }
            out.add("batches: " + ok + " of " + BATCHES + " SEND_OK");
            consumer.subscribe(topic, "*");
            consumer.start();
            Map<String, MessageExt> received = new TreeMap<>();
            List<MessageExt> unknown = new ArrayList<>();
            long deadline = System.currentTimeMillis() + CONSUME_WAIT_MS;
            while (received.size() + unknown.size() < BATCHES * PER_BATCH && System.currentTimeMillis() < deadline) {
                for (MessageExt m : consumer.poll(200)) {
                    String seq = new String(m.getBody(), StandardCharsets.UTF_8).substring("batch body ".length());
                    received.put(seq, m);
                }
            }
            out.add("received: " + received.size() + " of " + BATCHES * PER_BATCH);
            int intact = 0;
            String firstDiffering = null;
            for (Map.Entry<String, MessageExt> e : received.entrySet()) {
                Map<String, String> want = sent.get(e.getKey());
                Map<String, String> got = new TreeMap<>();
                for (String key : want.keySet()) {
                    String v = e.getValue().getProperty(key);
                    if (v != null) {
                        got.put(key, v);
                    }
                }
                if (got.equals(want)) {
                    intact++;
                } else if (firstDiffering == null) {
                    firstDiffering = e.getKey() + " sent " + want + ", got " + got + ", all properties "
                        + new TreeMap<>(e.getValue().getProperties());
                }
            }
            out.add("every property kept: " + intact + " of " + received.size());
            if (firstDiffering != null) {
                out.add("info: first differing message " + firstDiffering);
            }
            return out;
        } finally {
            try {
                consumer.shutdown();
            } catch (RuntimeException e) {
                out.add("info: consumer shutdown failed: " + e);
            }
            producer.shutdown();
        }
    }
}
