package dev.rmqpatch.patches;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * ClientMatrixIT's scenario, defined by {@link DriverLoader} over the jars of ONE stock client version (4.3.2 to 5.1.4),
 * so every RocketMQ class it names is that version's: compiled against 4.9.0's API, it uses only what every one of
 * those versions has with the same signature (no lite pull consumer, which 4.3.2 lacks; no
 * org.apache.rocketmq.common.protocol class, which 5.x moved), and reaches the rest (the 4.9.4+ compression types) by
 * name. Only java.* crosses the loader boundary.
 *
 * <p>Against one broker: a producer sends synchronously, asynchronously, one way, one batch, bodies over the
 * compression threshold, delayed (level {@link #DELAY_LEVEL}, 1 s in the ITs' brokers), and messages the push consumer
 * sends back once (RECONSUME_LATER: CONSUMER_SEND_MSG_BACK, then the retry topic) to one topic; where the
 * version has compression types (4.9.4+), producers made with -Drocketmq.message.compressType=LZ4 and =ZSTD send a
 * large body each too; in order to one queue of a second topic; transactions (the local listener commits even seqs and
 * rolls back odd ones) to a third. A push consumer and a DefaultMQPullConsumer read the first topic, an orderly push
 * consumer the second, a push consumer the third, each in its own group from the first offset.
 *
 * <p>Returns lines: counts and outcomes, then one canonical line per message each consumer received (topic, keys,
 * tags, body length and CRC, sysFlag, every property with the values the broker or the client makes anew masked), so
 * that two brokers' runs can be compared line for line, and the response codes and header field names of the answers to
 * sends and heart beats ({@code response: }). Lines starting {@code info: } (timings) and {@code frame: }
 * (the request codes and header fields this client version sent, through an RPCHook: the survey of frames in
 * docs/testing.md) are not for comparison.
 */
public final class ClientMatrixDriver {
    static final int SYNC = 6;
    static final int ASYNC = 6;
    static final int ONEWAY = 4;
    static final int PER_BATCH = 5;
    static final int LARGE = 3;
    static final int DELAYED = 3;
    /** Sent synchronously; the push consumer answers RECONSUME_LATER the first time, so they come back from the retry topic. */
    static final int RETRY = 2;
    static final int ORDERED = 10;
    static final int ORDERED_QUEUE = 1;
    static final int TX = 6;
    /** Level 3: 1 s with TestCluster.FAST_DELAY_LEVELS. */
    static final int DELAY_LEVEL = 3;
    static final long DELAY_MS = 1_000;
    /** 4.x and 5.x producers compress a body of this many bytes or more by default (compressMsgBodyOverHowmuch). */
    static final int COMPRESS_AT = 4096;
    static final int SEND_TIMEOUT_MS = 10_000;
    /** How long the consumers may take to get everything: a consumer that hangs fails the run with what is missing. */
    static final long CONSUME_WAIT_MS = 45_000;
    /** After every committed message came, how long a rolled-back one is given to show up (it must not). */
    static final long ROLLBACK_GRACE_MS = 1_500;

    /**
     * Properties whose values the client or broker makes anew on every run (unique keys, offsets, times, the queue the
     * producer's random start picked, transaction ids): their presence is compared, not their values.
     */
    private static final Set<String> MASKED = Set.of("UNIQ_KEY", "MIN_OFFSET", "MAX_OFFSET", "CONSUME_START_TIME",
        "REAL_QID", "TRAN_PREPARED_QUEUE_OFFSET", "__transactionId__", "ORIGIN_MESSAGE_ID");
    /** WAIT steers the broker while it handles a send; the patched broker does not store it (P3, an intended difference). */
    private static final String WAIT = "WAIT";
    private static final Pattern JSON_KEY = Pattern.compile("\"([A-Za-z_][A-Za-z0-9_]*)\":");

    private ClientMatrixDriver() {
    }

    /** One message as sent. */
    private static final class Sent {
        final String kind;
        final int seq;
        final String keys;
        final String tags;
        final byte[] body;
        final Message message;

        Sent(String topic, String kind, int seq, int bodyBytes) {
            this.kind = kind;
            this.seq = seq;
            this.keys = kind + "-" + seq;
            this.tags = "tag-" + (seq % 3);
            this.body = DriverShared.body(kind, seq, bodyBytes);
            message = new Message(topic, tags, keys, body.clone());
            message.putUserProperty("seq", Integer.toString(seq));
            message.putUserProperty("kind", kind);
            message.putUserProperty("city", "Zürich-東京-" + seq);
            message.putUserProperty("spaces", " a b ");
        }

        /** The names of what {@code got} lacks or has different from this message: body, tags, keys, properties. */
        List<String> lost(MessageExt got) {
            List<String> why = new ArrayList<>();
            if (!Arrays.equals(body, got.getBody())) {
                why.add("body");
            }
            if (!tags.equals(got.getTags())) {
                why.add("tags");
            }
            if (!keys.equals(got.getKeys())) {
                why.add("keys");
            }
            for (Map.Entry<String, String> e : new TreeMap<>(message.getProperties()).entrySet()) {
                if (!e.getKey().equals(WAIT) && !e.getValue().equals(got.getProperty(e.getKey()))) {
                    why.add(e.getKey());
                }
            }
            return why;
        }
    }

    /** What one consumer got, first delivery of each key. */
    private static final class Received {
        final String name;
        final Map<String, Sent> expected = new TreeMap<>();
        final Map<String, MessageExt> got = new ConcurrentHashMap<>();
        final Set<String> unexpected = ConcurrentHashMap.newKeySet();

        Received(String name, List<Sent> expected) {
            this.name = name;
            expected.forEach(s -> this.expected.put(s.keys, s));
        }

        void add(MessageExt m) {
            if (expected.containsKey(m.getKeys())) {
                got.putIfAbsent(m.getKeys(), m);
            } else {
                unexpected.add(m.getKeys());
            }
        }

        boolean complete() {
            return got.keySet().containsAll(expected.keySet());
        }

        /** Per kind: how many came, how many lost something (and what); then one canonical line per message. */
        void report(List<String> out) {
            Map<String, List<Sent>> byKind = new TreeMap<>();
            expected.values().forEach(s -> byKind.computeIfAbsent(s.kind, k -> new ArrayList<>()).add(s));
            for (Map.Entry<String, List<Sent>> e : byKind.entrySet()) {
                int came = 0;
                List<String> lostLines = new ArrayList<>();
                List<String> delayShort = new ArrayList<>();
                for (Sent s : e.getValue()) {
                    MessageExt m = got.get(s.keys);
                    if (m == null) {
                        continue;
                    }
                    came++;
                    List<String> lost = s.lost(m);
                    if (!lost.isEmpty()) {
                        lostLines.add(s.keys + " " + lost);
                    }
                    if (s.kind.equals("delayed") && m.getStoreTimestamp() - m.getBornTimestamp() < DELAY_MS - 100) {
                        delayShort.add(s.keys + " after " + (m.getStoreTimestamp() - m.getBornTimestamp()) + " ms");
                    }
                }
                out.add(name + " " + e.getKey() + ": " + came + " of " + e.getValue().size() + " received, "
                    + lostLines.size() + " lost something" + (lostLines.isEmpty() ? "" : ": " + lostLines));
                if (e.getKey().equals("delayed")) {
                    out.add(name + " delayed: " + (delayShort.isEmpty() ? "every one delivered >= " + DELAY_MS
                        + " ms after it was born" : "delivered early " + delayShort));
                }
            }
            if (!unexpected.isEmpty()) {
                out.add(name + " unexpected: " + new TreeSet<>(unexpected));
            }
            for (Map.Entry<String, MessageExt> e : new TreeMap<>(got).entrySet()) {
                out.add(name + " msg " + expected.get(e.getKey()).kind + " " + canonical(e.getValue()));
            }
        }
    }

    /** A received message as a line that two brokers' runs can compare. */
    static String canonical(MessageExt m) {
        CRC32 crc = new CRC32();
        byte[] body = m.getBody() == null ? new byte[0] : m.getBody();
        crc.update(body);
        Map<String, String> props = new TreeMap<>();
        m.getProperties().forEach((k, v) -> {
            if (!k.equals(WAIT)) {
                props.put(k, MASKED.contains(k) ? "#" : v.replace("\u0001", "\\u0001").replace("\u0002", "\\u0002"));
            }
        });
        return m.getKeys() + " topic=" + m.getTopic() + " tags=" + m.getTags() + " body=" + body.length + "/"
            + Long.toHexString(crc.getValue()) + " sysFlag=0x" + Integer.toHexString(m.getSysFlag())
            + " reconsume=" + m.getReconsumeTimes() + " props=" + props;
    }

    /**
     * Runs the scenario for one client version against one broker. {@code label}: the version as the IT names it,
     * used in topic and group names (every run on a broker has its own).
     */
    public static List<String> run(String namesrv, String label) throws Exception {
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> shutdowns = new ArrayList<>();
        long start = System.nanoTime();
        String id = "Mx" + label.replaceAll("[^0-9A-Za-z]", "_");
        String topic = id;
        String orderedTopic = id + "Ordered";
        String txTopic = id + "Tx";
        String instance = id + "-" + start;
        Frames frames = new Frames();
        try {
            out.add("client: " + MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION));
            DefaultMQProducer producer = producer(id + "-producer", namesrv, instance, frames);
            producer.start();
            shutdowns.add(producer::shutdown);

            List<Sent> all = new ArrayList<>();
            all.addAll(sendSync(producer, topic, "sync", SYNC, 0, out));
            all.addAll(sendSync(producer, topic, "retry", RETRY, 0, out));
            all.addAll(sendAsync(producer, topic, out));
            List<Sent> oneway = new ArrayList<>();
            for (int i = 0; i < ONEWAY; i++) {
                Sent s = new Sent(topic, "oneway", i, 0);
                producer.sendOneway(s.message);
                oneway.add(s);
            }
            out.add("oneway: " + ONEWAY + " sent");
            all.addAll(oneway);
            List<Sent> batch = new ArrayList<>();
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < PER_BATCH; i++) {
                Sent s = new Sent(topic, "batch", i, 0);
                batch.add(s);
                messages.add(s.message);
            }
            SendResult br = producer.send(messages);
            out.add("batch: " + br.getSendStatus() + " for " + PER_BATCH + " messages");
            all.addAll(batch);
            all.addAll(sendSync(producer, topic, "large", LARGE, 5_000, out));
            List<Sent> delayed = new ArrayList<>();
            int delayedOk = 0;
            for (int i = 0; i < DELAYED; i++) {
                Sent s = new Sent(topic, "delayed", i, 0);
                s.message.setDelayTimeLevel(DELAY_LEVEL);
                delayedOk += producer.send(s.message).getSendStatus() == SendStatus.SEND_OK ? 1 : 0;
                delayed.add(s);
            }
            out.add("delayed: " + delayedOk + " of " + DELAYED + " SEND_OK");
            all.addAll(delayed);
            // 4.9.4+: the compression type in the sysFlag. The producer's compressor is made from the system property
            // when the producer is constructed (DefaultMQProducerImpl.setCompressType changes the flag, not the compressor).
            for (String type : List.of("LZ4", "ZSTD")) {
                if (!hasCompressionTypes()) {
                    break;
                }
                DefaultMQProducer typed;
                // The IT runs a version against both brokers at once: one property change at a time (the lock is the
                // client loader's class, shared by both runs' driver loaders).
                synchronized (DefaultMQProducer.class) {
                    String before = System.getProperty("rocketmq.message.compressType");
                    System.setProperty("rocketmq.message.compressType", type);
                    try {
                        typed = producer(id + "-producer-" + type, namesrv, instance, frames);
                    } finally {
                        if (before == null) {
                            System.clearProperty("rocketmq.message.compressType");
                        } else {
                            System.setProperty("rocketmq.message.compressType", before);
                        }
                    }
                }
                typed.start();
                shutdowns.add(typed::shutdown);
                all.addAll(sendSync(typed, topic, type.toLowerCase(), 1, 6_000, out));
            }

            List<Sent> ordered = new ArrayList<>();
            Set<Integer> queues = new TreeSet<>();
            int orderedOk = 0;
            for (int i = 0; i < ORDERED; i++) {
                Sent s = new Sent(orderedTopic, "ordered", i, 0);
                SendResult r = producer.send(s.message, (mqs, msg, arg) -> mqs.get((Integer) arg % mqs.size()), ORDERED_QUEUE);
                orderedOk += r.getSendStatus() == SendStatus.SEND_OK ? 1 : 0;
                queues.add(r.getMessageQueue().getQueueId());
                ordered.add(s);
            }
            out.add("ordered sends: " + orderedOk + " of " + ORDERED + " SEND_OK to queues " + queues);
            List<Sent> committed = sendTransactions(id, namesrv, instance, txTopic, frames, shutdowns, out);
            out.add("info: sent in " + millis(start) + " ms");

            long consumeStart = System.nanoTime();
            Received push = new Received("push", all);
            Received pull = new Received("pull", all);
            Received tx = new Received("transaction push", committed);
            Received orderedGot = new Received("ordered", ordered);
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            DefaultMQPushConsumer pushConsumer = pushConsumer(id + "-push", namesrv, instance, topic, frames);
            pushConsumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                boolean later = false;
                for (MessageExt m : msgs) {
                    // CONSUMER_SEND_MSG_BACK: the broker stores it in %RETRY%group, delayed, and delivers it again
                    if ("retry".equals(m.getUserProperty("kind")) && m.getReconsumeTimes() == 0) {
                        later = true;
                    } else {
                        push.add(m);
                    }
                }
                return later ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            DefaultMQPushConsumer orderedConsumer = pushConsumer(id + "-ordered", namesrv, instance, orderedTopic, frames);
            orderedConsumer.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    orderedGot.add(m);
                    order.add(m.getUserProperty("seq") + "@" + m.getQueueId());
                }
                return ConsumeOrderlyStatus.SUCCESS;
            });
            DefaultMQPushConsumer txConsumer = pushConsumer(id + "-tx", namesrv, instance, txTopic, frames);
            txConsumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                msgs.forEach(tx::add);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            for (DefaultMQPushConsumer c : List.of(pushConsumer, orderedConsumer, txConsumer)) {
                c.start();
                shutdowns.add(c::shutdown);
            }
            DefaultMQPullConsumer pullConsumer = new DefaultMQPullConsumer(id + "-pull", frames);
            pullConsumer.setNamesrvAddr(namesrv);
            pullConsumer.setInstanceName(instance);
            pullConsumer.start();
            shutdowns.add(pullConsumer::shutdown);
            Map<MessageQueue, Long> offsets = new TreeMap<>();
            for (MessageQueue mq : pullConsumer.fetchSubscribeMessageQueues(topic)) {
                offsets.put(mq, 0L);
            }

            long deadline = System.currentTimeMillis() + CONSUME_WAIT_MS;
            while (!(push.complete() && pull.complete() && tx.complete() && orderedGot.complete())
                && System.currentTimeMillis() < deadline) {
                boolean any = false;
                for (Map.Entry<MessageQueue, Long> e : offsets.entrySet()) {
                    PullResult r = pullConsumer.pull(e.getKey(), "*", e.getValue(), 32);
                    if (r.getPullStatus() == PullStatus.FOUND) {
                        r.getMsgFoundList().forEach(pull::add);
                        any = true;
                    }
                    e.setValue(r.getNextBeginOffset());
                }
                if (!any) {
                    Thread.sleep(100);
                }
            }
            out.add("info: consumed in " + millis(consumeStart) + " ms");
            // A rolled-back message would come after the committed ones: give it time to show up.
            Thread.sleep(ROLLBACK_GRACE_MS);
            push.report(out);
            pull.report(out);
            orderedGot.report(out);
            List<String> want = new ArrayList<>();
            for (int i = 0; i < ORDERED; i++) {
                want.add(i + "@" + ORDERED_QUEUE);
            }
            synchronized (order) {
                out.add("ordered: " + (order.equals(want) ? ORDERED + " received in order on queue " + ORDERED_QUEUE
                    : "received " + order));
            }
            tx.report(out);
            out.addAll(frames.lines());
        } finally {
            for (int i = shutdowns.size() - 1; i >= 0; i--) {
                try {
                    shutdowns.get(i).run();
                } catch (RuntimeException e) {
                    out.add("info: shutdown failed: " + e);
                }
            }
        }
        out.add("info: " + millis(start) + " ms in all");
        return new ArrayList<>(out);
    }

    private static boolean hasCompressionTypes() {
        try {
            Class.forName("org.apache.rocketmq.common.compression.CompressionType", false,
                DefaultMQProducer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static DefaultMQProducer producer(String group, String namesrv, String instance, RPCHook hook) {
        DefaultMQProducer p = new DefaultMQProducer(group, hook);
        p.setNamesrvAddr(namesrv);
        p.setInstanceName(instance);
        p.setSendMsgTimeout(SEND_TIMEOUT_MS);
        p.setCompressMsgBodyOverHowmuch(COMPRESS_AT);
        return p;
    }

    private static List<Sent> sendSync(DefaultMQProducer producer, String topic, String kind, int n, int bodyBytes,
                                       List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        int ok = 0;
        for (int i = 0; i < n; i++) {
            Sent s = new Sent(topic, kind, i, bodyBytes);
            ok += producer.send(s.message).getSendStatus() == SendStatus.SEND_OK ? 1 : 0;
            sent.add(s);
        }
        out.add(kind + ": " + ok + " of " + n + " SEND_OK" + (bodyBytes >= COMPRESS_AT ? ", bodies over " + COMPRESS_AT
            + " bytes" : ""));
        return sent;
    }

    private static List<Sent> sendAsync(DefaultMQProducer producer, String topic, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(ASYNC);
        Set<String> ok = ConcurrentHashMap.newKeySet();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < ASYNC; i++) {
            Sent s = new Sent(topic, "async", i, 0);
            sent.add(s);
            producer.send(s.message, new SendCallback() {
                @Override
                public void onSuccess(SendResult r) {
                    (r.getSendStatus() == SendStatus.SEND_OK ? ok : failed).add(s.keys);
                    done.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    failed.add(s.keys + " " + e);
                    done.countDown();
                }
            });
        }
        if (!done.await(3L * SEND_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            failed.add(done.getCount() + " callbacks never came");
        }
        out.add("async: " + ok.size() + " of " + ASYNC + " SEND_OK" + (failed.isEmpty() ? "" : ", failed " + new TreeSet<>(failed)));
        return sent;
    }

    /** Half messages the local listener commits (even seq) or rolls back (odd). Returns the committed ones. */
    private static List<Sent> sendTransactions(String id, String namesrv, String instance, String txTopic, RPCHook hook,
                                               List<Runnable> shutdowns, List<String> out) throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer(id + "-tx-producer", hook);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(instance);
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return decision((Integer) arg);
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return decision(Integer.parseInt(msg.getUserProperty("seq")));
            }
        });
        producer.start();
        shutdowns.add(producer::shutdown);
        List<Sent> committed = new ArrayList<>();
        List<String> states = new ArrayList<>();
        int ok = 0;
        for (int i = 0; i < TX; i++) {
            Sent s = new Sent(txTopic, "tx", i, 0);
            TransactionSendResult r = producer.sendMessageInTransaction(s.message, i);
            ok += r.getSendStatus() == SendStatus.SEND_OK ? 1 : 0;
            states.add(String.valueOf(r.getLocalTransactionState()));
            if (decision(i) == LocalTransactionState.COMMIT_MESSAGE) {
                committed.add(s);
            }
        }
        out.add("transaction: " + ok + " of " + TX + " half messages SEND_OK, local states " + states);
        return committed;
    }

    private static LocalTransactionState decision(int seq) {
        return seq % 2 == 0 ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.ROLLBACK_MESSAGE;
    }

    private static DefaultMQPushConsumer pushConsumer(String group, String namesrv, String instance, String topic,
                                                      RPCHook hook) throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group, hook, new AllocateMessageQueueAveragely());
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(instance);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        return c;
    }

    /**
     * Every request this client version sent (the hook runs before the header is written into the frame): per request
     * code, the header's class and its fields that were set, and for a heart beat the JSON keys of its body.
     */
    private static final class Frames implements RPCHook {
        private final Map<String, Boolean> seen = new ConcurrentHashMap<>();

        @Override
        public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
            StringBuilder sb = new StringBuilder("frame: code " + request.getCode());
            Object header = request.readCustomHeader();
            Set<String> fields = new TreeSet<>();
            if (header != null) {
                sb.append(' ').append(header.getClass().getSimpleName());
                for (Class<?> c = header.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        try {
                            f.setAccessible(true);
                            if (f.get(header) != null) {
                                fields.add(f.getName());
                            }
                        } catch (ReflectiveOperationException | RuntimeException e) {
                            fields.add(f.getName() + "?");
                        }
                    }
                }
                sb.append(" fields ").append(fields);
            }
            if (request.getExtFields() != null && !request.getExtFields().isEmpty()) {
                sb.append(" ext ").append(new TreeSet<>(request.getExtFields().keySet()));
            }
            if (request.getCode() == 34 && request.getBody() != null) {
                Set<String> keys = new TreeSet<>();
                Matcher m = JSON_KEY.matcher(new String(request.getBody(), StandardCharsets.UTF_8));
                while (m.find()) {
                    keys.add(m.group(1));
                }
                sb.append(" body keys ").append(keys);
            }
            seen.put(sb.toString(), Boolean.TRUE);
        }

        /**
         * The answers to sends and heart beats: response code and the names of its header fields (MSG_REGION, TRACE_ON,
         * msgId, ...), compared between the brokers like the messages.
         */
        @Override
        public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
            int code = request.getCode();
            if (response != null && (code == 10 || code == 310 || code == 320 || code == 34)) {
                answers.put("response: to " + code + ": code " + response.getCode() + " ext "
                    + (response.getExtFields() == null ? "[]" : new TreeSet<>(response.getExtFields().keySet())), Boolean.TRUE);
            }
        }

        private final Map<String, Boolean> answers = new ConcurrentHashMap<>();

        List<String> lines() {
            List<String> out = new ArrayList<>(new TreeSet<>(answers.keySet()));
            out.addAll(new TreeSet<>(seen.keySet()));
            return out;
        }
    }

    private static long millis(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
