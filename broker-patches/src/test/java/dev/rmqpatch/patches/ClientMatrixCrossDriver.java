package dev.rmqpatch.patches;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * ClientMatrixIT's cross-version case for the 4.9.4+ compression types: {@link #send} runs over a 4.9.4+ client's jars
 * (5.1.4) and puts, in this order, into queue 0 of a topic: a small body, a body the producer compresses with its
 * default (ZLIB, sysFlag 0x301), one with LZ4 (0x101), a small one, one with ZSTD (0x201), a small one. {@link #read}
 * runs over a 4.9.0 client's jars (stock or patched) and pulls queue 0 from offset 0 and from each later offset,
 * reporting what it could decode. Only java.* crosses the loader boundary.
 */
public final class ClientMatrixCrossDriver {
    /** kind of each message, by offset in queue 0: null = not compressed, else the compression type. */
    static final List<String> TYPES = Arrays.asList(null, "ZLIB", "LZ4", null, "ZSTD", null);
    private static final int LARGE = 6_000;

    private ClientMatrixCrossDriver() {
    }

    static byte[] body(int seq) {
        StringBuilder sb = new StringBuilder();
        int bytes = TYPES.get(seq) == null ? 0 : LARGE;
        for (int line = 0; line == 0 || sb.length() < bytes; line++) {
            sb.append("cross ").append(seq).append(" line ").append(line).append(" ✓ 消息\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sends the six messages (see the class comment); returns one line per send. */
    public static List<String> send(String namesrv, String topic) throws Exception {
        List<String> out = new ArrayList<>();
        List<DefaultMQProducer> producers = new ArrayList<>();
        try {
            for (String type : new String[] {"ZLIB", "LZ4", "ZSTD"}) {
                DefaultMQProducer p;
                synchronized (DefaultMQProducer.class) {
                    String before = System.getProperty("rocketmq.message.compressType");
                    System.setProperty("rocketmq.message.compressType", type);
                    try {
                        p = new DefaultMQProducer(topic + "-producer-" + type);
                    } finally {
                        if (before == null) {
                            System.clearProperty("rocketmq.message.compressType");
                        } else {
                            System.setProperty("rocketmq.message.compressType", before);
                        }
                    }
                }
                p.setNamesrvAddr(namesrv);
                p.setInstanceName(topic + "-" + System.nanoTime());
                p.setSendMsgTimeout(ClientMatrixDriver.SEND_TIMEOUT_MS);
                p.setCompressMsgBodyOverHowmuch(ClientMatrixDriver.COMPRESS_AT);
                p.start();
                producers.add(p);
            }
            for (int seq = 0; seq < TYPES.size(); seq++) {
                String type = TYPES.get(seq) == null ? "ZLIB" : TYPES.get(seq);
                DefaultMQProducer p = producers.get(type.equals("ZLIB") ? 0 : type.equals("LZ4") ? 1 : 2);
                Message m = new Message(topic, "tag", "cross-" + seq, body(seq));
                SendResult r = p.send(m, (mqs, msg, arg) -> mqs.get(0), null);
                out.add("sent cross-" + seq + ": " + r.getSendStatus() + " queue " + r.getMessageQueue().getQueueId()
                    + " offset " + r.getQueueOffset());
            }
        } finally {
            producers.forEach(DefaultMQProducer::shutdown);
        }
        return out;
    }

    /**
     * Pulls queue 0 from every offset 0..5 (32 at most each time) and says, per pull, what came back: the pull status, the
     * next offset, and each decoded message's key, whether its body is the one sent, and its sysFlag.
     */
    public static List<String> read(String namesrv, String topic) throws Exception {
        List<String> out = new ArrayList<>();
        DefaultMQPullConsumer c = new DefaultMQPullConsumer(topic + "-reader-" + System.nanoTime());
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(topic + "-reader-" + System.nanoTime());
        c.start();
        try {
            MessageQueue q0 = null;
            for (MessageQueue mq : c.fetchSubscribeMessageQueues(topic)) {
                if (mq.getQueueId() == 0) {
                    q0 = mq;
                }
            }
            for (int from = 0; from < TYPES.size(); from++) {
                PullResult r = c.pull(q0, "*", from, 32);
                List<String> got = new ArrayList<>();
                if (r.getPullStatus() == PullStatus.FOUND) {
                    for (MessageExt m : r.getMsgFoundList()) {
                        int seq = Integer.parseInt(m.getKeys().substring("cross-".length()));
                        got.add(m.getKeys() + (Arrays.equals(body(seq), m.getBody()) ? " body ok" : " body DIFFERS")
                            + " sysFlag=0x" + Integer.toHexString(m.getSysFlag()));
                    }
                }
                out.add("from " + from + ": " + r.getPullStatus() + ", next " + r.getNextBeginOffset() + ", decoded "
                    + got.size() + " " + got);
            }
        } finally {
            c.shutdown();
        }
        return out;
    }
}
