package dev.rmqpatch.patches;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * Runs inside a client's class loader (stock lib/, or the patched client folder: {@link DriverLoader}) and sends a fixed
 * set of messages with one DefaultMQProducer: synchronous sends with tags, keys and user properties (some not ASCII),
 * bodies the client compresses, one-way sends and a batch, all to a topic of one queue, so that two clients given the
 * same arguments put the same requests on the wire, except what the client itself makes new each time (the opaque, the
 * born timestamp, the unique key). The instance name is fixed, so the client id in its requests is the same too.
 * Returns one line per send outcome (only java.* crosses the loader boundary).
 */
public final class ClientFramesDriver {

    static final int SYNC = 12;
    static final int LARGE = 3;
    static final int ONEWAY = 4;
    static final int BATCH = 5;
    static final String GROUP = "frames-producer";

    private ClientFramesDriver() {
    }

    public static List<String> run(String namesrv, String topic) throws Exception {
        List<String> out = new ArrayList<>();
        DefaultMQProducer producer = new DefaultMQProducer(GROUP);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("frames");
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
        producer.start();
        try {
            // One queue: every send goes to queue 0, whichever queue the producer's round robin would pick.
            producer.createTopic("TBW102", topic, 1);
            for (int i = 0; i < SYNC; i++) {
                out.add("sync " + i + ": " + status(producer.send(message(topic, i, ("frame body " + i).getBytes(StandardCharsets.UTF_8)))));
            }
            Random r = new Random(42);
            for (int i = 0; i < LARGE; i++) {
                byte[] body = new byte[5000 + 700 * i];
                for (int k = 0; k < body.length; k++) {
                    body[k] = (byte) ('a' + r.nextInt(6));
                }
                out.add("large " + i + ": " + status(producer.send(message(topic, 100 + i, body))));
            }
            for (int i = 0; i < ONEWAY; i++) {
                producer.sendOneway(message(topic, 200 + i, ("one way " + i).getBytes(StandardCharsets.UTF_8)));
            }
            List<Message> batch = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                Message m = new Message(topic, ("batched " + i).getBytes(StandardCharsets.UTF_8));
                m.setKeys("batch-" + i);
                m.putUserProperty("seq", Integer.toString(300 + i));
                m.putUserProperty("city", "Zürich-東京");
                batch.add(m);
            }
            out.add("batch: " + status(producer.send(batch)));
            // A synchronous send after the one-way ones: the broker has them all before the producer shuts down.
            out.add("last: " + status(producer.send(message(topic, 400, "last".getBytes(StandardCharsets.UTF_8)))));
        } finally {
            producer.shutdown();
        }
        return out;
    }

    private static Message message(String topic, int seq, byte[] body) {
        Message m = new Message(topic, "tag-" + (seq % 3), "key-" + seq + " k" + seq, body);
        m.putUserProperty("seq", Integer.toString(seq));
        m.putUserProperty("city", "Zürich-東京-" + seq);
        m.putUserProperty("spaces", " a b ");
        return m;
    }

    private static String status(SendResult r) {
        return r.getSendStatus() == SendStatus.SEND_OK ? "SEND_OK" : String.valueOf(r.getSendStatus());
    }
}
