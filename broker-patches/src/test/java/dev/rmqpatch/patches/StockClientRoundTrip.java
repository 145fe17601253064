package dev.rmqpatch.patches;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * Runs in its own JVM on the jars of a STOCK client only (4.9.0, or 4.9.1 for RemotingPatchesIT): sends N messages with tags, keys, user properties and
 * non-ASCII values, reads them back with a stock consumer and compares. Prints one summary line; exit 0 when
 * every message came back identical. Args: namesrvAddr topic count. With -Drt.accessKey and -Drt.secretKey the
 * clients sign their requests for the broker's ACL (AclClientRPCHook); TLS is the client's own -Dtls.enable.
 */
public final class StockClientRoundTrip {

    /**
     * The send timeout of the ITs' producers: the client's default (3 s) also covers the first send's route lookup and
     * connection, which a loaded test machine (test classes run two at a time) can take longer than; what the tests
     * check is what comes back, never how fast.
     */
    static final int SEND_TIMEOUT_MS = 10_000;

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            // The client's non-daemon threads would keep this JVM alive after an exception: exit explicitly.
            t.printStackTrace(System.out);
            System.out.println("ROUNDTRIP failed: " + t);
            System.exit(2);
        }
    }

    private static void run(String[] args) throws Exception {
        // Read at run time from the client jar on the class path (not a compile-time constant): which client ran.
        System.out.println("CLIENT_VERSION " + MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION));
        String namesrv = args[0];
        String topic = args[1];
        int n = Integer.parseInt(args[2]);
        // With rt.delayLevel every message is a delayed one: stored in SCHEDULE_TOPIC_XXXX, delivered by the broker's
        // schedule service when due (level 1: 1 s), and read back from its topic as the others are.
        int delayLevel = Integer.getInteger("rt.delayLevel", 0);
        RPCHook acl = System.getProperty("rt.accessKey") == null ? null : new AclClientRPCHook(
            new SessionCredentials(System.getProperty("rt.accessKey"), System.getProperty("rt.secretKey")));
        DefaultMQProducer producer = new DefaultMQProducer("rt-producer", acl);
        producer.setNamesrvAddr(namesrv);
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        producer.start();
        Map<String, Message> sent = new HashMap<>();
        int notOk = 0;
        for (int i = 0; i < n; i++) {
            Message m = new Message(topic, "tag-" + (i % 3), "key-" + i, ("body " + i + " ✓ 消息 \uD83D\uDE80").getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("seq", Integer.toString(i));
            m.putUserProperty("city", "Zürich-東京-" + i);
            m.putUserProperty("spaces", " a b ");
            if (delayLevel > 0) {
                m.setDelayTimeLevel(delayLevel);
            }
            SendResult r = producer.send(m);
            if (r.getSendStatus() != SendStatus.SEND_OK) {
                notOk++;
            }
            sent.put("key-" + i, m);
        }
        producer.shutdown();

        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer("rt-consumer-" + topic, acl);
        consumer.setNamesrvAddr(namesrv);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.start();
        int received = 0;
        int mismatches = 0;
        long deadline = System.currentTimeMillis() + 60_000;
        while (received < n && System.currentTimeMillis() < deadline) {
            List<MessageExt> batch = consumer.poll(1000);
            for (MessageExt got : batch) {
                received++;
                Message want = sent.get(got.getKeys());
                String why = compare(want, got);
                if (why == null && delayLevel > 0 && !topic.equals(got.getProperty(MessageConst.PROPERTY_REAL_TOPIC))) {
                    why = "not delivered by the schedule service (no " + MessageConst.PROPERTY_REAL_TOPIC + ")";
                }
                if (why != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + got.getKeys() + ": " + why);
                }
            }
        }
        consumer.shutdown();
        System.out.println("ROUNDTRIP sent=" + n + " notOk=" + notOk + " received=" + received + " mismatches=" + mismatches);
        System.exit(notOk == 0 && received == n && mismatches == 0 ? 0 : 1);
    }

    private static String compare(Message want, MessageExt got) {
        if (want == null) {
            return "unknown key";
        }
        if (!java.util.Arrays.equals(want.getBody(), got.getBody())) {
            return "body differs";
        }
        for (Map.Entry<String, String> e : want.getProperties().entrySet()) {
            // WAIT only steers the broker while it handles the send; the patched broker does not store it (P3).
            // DELAY: the schedule service clears it when it stores the due message in its topic, stock and patched.
            if (e.getKey().equals(MessageConst.PROPERTY_WAIT_STORE_MSG_OK)
                || e.getKey().equals(MessageConst.PROPERTY_DELAY_TIME_LEVEL)) {
                continue;
            }
            if (!e.getValue().equals(got.getProperty(e.getKey()))) {
                return "property " + e.getKey() + ": sent '" + e.getValue() + "', got '" + got.getProperty(e.getKey()) + "'";
            }
        }
        return null;
    }
}
