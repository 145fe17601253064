package dev.rmqpatch.patches;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.hook.FilterMessageContext;
import org.apache.rocketmq.client.hook.FilterMessageHook;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
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
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Runs inside the class loader of the patched client jars (PatchedClientBrokersIT: the client folder's lib/ and stock's
 * third-party jars, through {@link DriverLoader}), against one broker: a producer sends synchronously, asynchronously,
 * one way, in batches, and large bodies the client compresses, all with tags, keys and user properties, to one topic;
 * sends in order to one queue of a second topic through a MessageQueueSelector; a TransactionMQProducer sends half
 * messages to a third that its listener commits, rolls back, or leaves unknown until the broker's check asks. A push
 * consumer and a lite pull consumer read the first topic, an orderly push consumer the second, a push consumer the
 * third, each from the first offset. Returns one line per observation (only java.* crosses the loader boundary): the
 * counts, every message that came back different or not at all, and how many of the client's
 * NettyClientWorkerThreads ever started (P26 runs the client's handlers on its IO thread, so none should), and on
 * which threads the push consumers' pull results were handled (P31: the IO thread, not the callback executor) and their
 * pull requests sent (P33: the IO thread too, but for each queue's first pull).
 */
public final class PatchedClientScenario {
    /** Thread names, digits dropped, where a push consumer's pull callback handed messages to its filter hooks. */
    private static final Set<String> PULL_CALLBACK_THREADS = ConcurrentHashMap.newKeySet();
    /** Thread names, digits dropped, that sent the push consumers' pull requests (the client's RPC hook sees them). */
    private static final Set<String> PULL_REQUEST_THREADS = ConcurrentHashMap.newKeySet();

    static final String TOPIC = "PatchedClient";
    static final String ORDERED_TOPIC = "PatchedClientOrdered";
    static final String TX_TOPIC = "PatchedClientTx";
    /** The push consumers' groups. */
    private static final Set<String> PUSH_GROUPS = Set.of("patched-client-push", "patched-client-ordered", "patched-client-tx");
    static final int SYNC = 40;
    static final int ASYNC = 40;
    static final int ONEWAY = 20;
    static final int BATCHES = 2;
    static final int PER_BATCH = 10;
    static final int LARGE = 10;
    /** Every message of the first topic. */
    static final int ALL = SYNC + ASYNC + ONEWAY + BATCHES * PER_BATCH + LARGE;
    static final int ORDERED = 30;
    /** The selector's argument: the queue the ordered messages go to (of the topic's 4). */
    static final int ORDERED_QUEUE = 1;
    /** Transactional messages: seq % 3 == 1 rolled back, the rest committed, {@link #UNKNOWN_SEQ} only when checked. */
    static final int TX = 9;
    static final int UNKNOWN_SEQ = 2;
    static final int TX_COMMITTED = 6;
    /** 4.9.0's DefaultMQProducer compresses a body of this many bytes or more (compressMsgBodyOverHowmuch). */
    static final int COMPRESS_AT = 4096;
    /** The ITs' send timeout (a constant: compiled in, no class of the test loader is needed at run time). */
    static final int SEND_TIMEOUT_MS = StockClientRoundTrip.SEND_TIMEOUT_MS;
    private static final long CONSUME_WAIT_MS = 90_000;
    /** At most this many lines about messages that came back different, per consumer. */
    private static final int MAX_DIFF_LINES = 10;

    private PatchedClientScenario() {
    }

    /** One message as sent: what every consumer must get back. */
    private static final class Sent {
        final String topic;
        final String tags;
        final String keys;
        final byte[] body;
        final Map<String, String> user = new LinkedHashMap<>();
        final boolean compressed;
        final Message message;
        String msgId;

        Sent(String topic, String kind, int seq, int bodyBytes, boolean compressible) {
            this.topic = topic;
            this.tags = "tag-" + (seq % 3);
            this.keys = kind + "-" + seq + " " + kind;
            this.body = DriverShared.body(kind, seq, bodyBytes);
            this.compressed = compressible && body.length >= COMPRESS_AT;
            user.put("seq", Integer.toString(seq));
            user.put("kind", kind);
            user.put("city", "Zürich-東京-" + seq);
            user.put("spaces", " a b ");
            message = new Message(topic, tags, keys, body.clone());
            user.forEach(message::putUserProperty);
        }

        /** Fills {@link #msgId} from the unique key the client set while sending. */
        Sent sent() {
            msgId = MessageClientIDSetter.getUniqID(message);
            if (msgId == null) {
                throw new IllegalStateException(keys + ": the client set no unique key");
            }
            return this;
        }

        /** Null when {@code got} is this message, else what differs. */
        String differs(MessageExt got) {
            List<String> why = new ArrayList<>();
            if (!topic.equals(got.getTopic())) {
                why.add("topic " + got.getTopic());
            }
            if (!tags.equals(got.getTags())) {
                why.add("tags " + got.getTags());
            }
            if (!keys.equals(got.getKeys())) {
                why.add("keys " + got.getKeys());
            }
            if (!msgId.equals(got.getMsgId()) || !msgId.equals(MessageClientIDSetter.getUniqID(got))) {
                why.add("msgId " + got.getMsgId() + " unique key " + MessageClientIDSetter.getUniqID(got));
            }
            if (!Arrays.equals(body, got.getBody())) {
                why.add("body of " + (got.getBody() == null ? "null" : got.getBody().length + " bytes"));
            }
            user.forEach((k, v) -> {
                if (!v.equals(got.getUserProperty(k))) {
                    why.add("property " + k + " '" + got.getUserProperty(k) + "'");
                }
            });
            if (compressed != ((got.getSysFlag() & MessageSysFlag.COMPRESSED_FLAG) != 0)) {
                why.add("stored " + (compressed ? "uncompressed" : "compressed"));
            }
            return why.isEmpty() ? null : keys + ": " + String.join(", ", why);
        }
    }

    /** What a consumer got: every message by msgId (a redelivery counts once), and the lines about it. */
    private static final class Received {
        final String name;
        final Map<String, Sent> expected;
        final Map<String, MessageExt> got = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<MessageExt> unexpected = new ConcurrentLinkedQueue<>();

        Received(String name, List<Sent> expected) {
            this.name = name;
            this.expected = new HashMap<>();
            for (Sent s : expected) {
                this.expected.put(s.msgId, s);
            }
        }

        void add(MessageExt m) {
            if (expected.containsKey(m.getMsgId())) {
                got.putIfAbsent(m.getMsgId(), m);
            } else {
                unexpected.add(m);
            }
        }

        boolean complete() {
            return got.keySet().containsAll(expected.keySet());
        }

        void report(List<String> out) {
            int differ = 0;
            int compressed = 0;
            List<String> lines = new ArrayList<>();
            for (Map.Entry<String, MessageExt> e : got.entrySet()) {
                String why = expected.get(e.getKey()).differs(e.getValue());
                if (why != null && differ++ < MAX_DIFF_LINES) {
                    lines.add(name + " differs: " + why);
                }
                if ((e.getValue().getSysFlag() & MessageSysFlag.COMPRESSED_FLAG) != 0) {
                    compressed++;
                }
            }
            out.add(name + ": " + got.size() + " of " + expected.size() + " received, " + differ + " differ, " + compressed
                + " stored compressed");
            out.addAll(lines);
            Set<String> missing = new TreeSet<>();
            expected.forEach((id, s) -> {
                if (!got.containsKey(id)) {
                    missing.add(s.keys);
                }
            });
            if (!missing.isEmpty()) {
                out.add(name + " missing: " + missing);
            }
            for (MessageExt m : unexpected) {
                out.add(name + " unexpected: " + m.getMsgId() + " " + m.getKeys());
            }
        }
    }

    public static List<String> run(String namesrv, String brokerAddr) throws Exception {
        PULL_CALLBACK_THREADS.clear();
        PULL_REQUEST_THREADS.clear();
        List<String> out = new ArrayList<>();
        List<Runnable> shutdowns = new ArrayList<>();
        long start = System.nanoTime();
        // Every client of this run in one client instance of its own (as in an application), none left from another run.
        String instance = "patched-client-" + start;
        try {
            DefaultMQProducer producer = new DefaultMQProducer("patched-client-producer");
            producer.setNamesrvAddr(namesrv);
            producer.setInstanceName(instance);
            producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
            producer.start();
            shutdowns.add(producer::shutdown);
            out.add("broker: " + brokerVersion(producer, brokerAddr));
            // The consumers below share the producer's client instance, so its remoting client's hooks see their pulls.
            producer.getDefaultMQProducerImpl().getmQClientFactory().getMQClientAPIImpl().getRemotingClient()
                .registerRPCHook(new PushPullThreads());

            List<Sent> all = new ArrayList<>();
            all.addAll(sendSync(producer, out));
            all.addAll(sendAsync(producer, out));
            all.addAll(sendOneway(producer, out));
            all.addAll(sendBatches(producer, out));
            all.addAll(sendLarge(producer, out));
            Set<String> ids = new HashSet<>();
            all.forEach(s -> ids.add(s.msgId));
            out.add("unique keys: " + ids.size() + " distinct of " + all.size());
            List<Sent> ordered = sendOrdered(producer, out);
            Map<Integer, String> checked = new ConcurrentHashMap<>();
            List<Sent> committed = sendTransactions(namesrv, instance, checked, shutdowns, out);
            out.add("info: sent in " + millis(start) + " ms");

            // Every consumer at once, each in a group of its own, from the first offset.
            long consumeStart = System.nanoTime();
            Received push = new Received("push", all);
            Received pull = new Received("pull", all);
            Received tx = new Received("transaction push", committed);
            List<String> inOrder = Collections.synchronizedList(new ArrayList<>());
            DefaultMQPushConsumer pushConsumer = pushConsumer(namesrv, instance, "patched-client-push", TOPIC);
            pushConsumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                msgs.forEach(push::add);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            DefaultMQPushConsumer orderedConsumer = pushConsumer(namesrv, instance, "patched-client-ordered", ORDERED_TOPIC);
            orderedConsumer.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    Sent s = ordered.get(Integer.parseInt(m.getUserProperty("seq")));
                    String why = s.differs(m);
                    inOrder.add(m.getUserProperty("seq") + "@" + m.getQueueId() + (why == null ? "" : " differs: " + why));
                }
                return ConsumeOrderlyStatus.SUCCESS;
            });
            DefaultMQPushConsumer txConsumer = pushConsumer(namesrv, instance, "patched-client-tx", TX_TOPIC);
            txConsumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                msgs.forEach(tx::add);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            DefaultLitePullConsumer pullConsumer = new DefaultLitePullConsumer("patched-client-pull");
            pullConsumer.setNamesrvAddr(namesrv);
            pullConsumer.setInstanceName(instance);
            pullConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            pullConsumer.subscribe(TOPIC, "*");
            for (DefaultMQPushConsumer c : List.of(pushConsumer, orderedConsumer, txConsumer)) {
                c.start();
                shutdowns.add(c::shutdown);
            }
            pullConsumer.start();
            shutdowns.add(pullConsumer::shutdown);

            long deadline = System.currentTimeMillis() + CONSUME_WAIT_MS;
            while (!(push.complete() && pull.complete() && tx.complete() && inOrder.size() >= ORDERED)
                && System.currentTimeMillis() < deadline) {
                pullConsumer.poll(200).forEach(pull::add);
            }
            out.add("info: consumed in " + millis(consumeStart) + " ms");
            push.report(out);
            pull.report(out);
            synchronized (inOrder) {
                List<String> want = new ArrayList<>();
                for (int i = 0; i < ORDERED; i++) {
                    want.add(i + "@" + ORDERED_QUEUE);
                }
                out.add("ordered: " + (inOrder.equals(want) ? ORDERED + " received in order on queue " + ORDERED_QUEUE
                    : "received " + inOrder));
            }
            tx.report(out);
            out.add("transaction: the broker " + (checked.containsKey(UNKNOWN_SEQ) ? "checked" : "never checked") + " seq "
                + UNKNOWN_SEQ);
            out.add("info: transaction checks " + new TreeMap<>(checked));
            long stored = 0;
            for (MessageQueue mq : txConsumer.fetchSubscribeMessageQueues(TX_TOPIC)) {
                stored += txConsumer.maxOffset(mq);
            }
            out.add("transaction topic holds " + stored + " messages");
            // Before any shutdown: netty 4.0 starts an executor's thread to shut it down.
            out.add(workerThreads(instance));
            out.add("push consumers' pull results handled on: " + new TreeSet<>(PULL_CALLBACK_THREADS));
            out.add("push consumers' pulls sent from: " + new TreeSet<>(PULL_REQUEST_THREADS));
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
        return out;
    }

    /**
     * The version the broker stamps on its responses (BrokerStartup sets it to its own MQVersion), read from its answer
     * to GET_BROKER_CONFIG. (GET_BROKER_RUNTIME_INFO, which names it too, fails in a broker's first minute: its
     * statistics have no sample yet.)
     */
    private static String brokerVersion(DefaultMQProducer producer, String brokerAddr) throws Exception {
        RemotingCommand response = producer.getDefaultMQProducerImpl().getmQClientFactory().getMQClientAPIImpl()
            .getRemotingClient().invokeSync(brokerAddr,
                RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CONFIG, null), SEND_TIMEOUT_MS);
        return response.getCode() == ResponseCode.SUCCESS ? MQVersion.getVersionDesc(response.getVersion())
            : "code " + response.getCode() + " " + response.getRemark();
    }

    private static List<Sent> sendSync(DefaultMQProducer producer, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        int ok = 0;
        int idOk = 0;
        for (int i = 0; i < SYNC; i++) {
            Sent s = new Sent(TOPIC, "sync", i, 0, true);
            SendResult r = producer.send(s.message);
            sent.add(s.sent());
            ok += r.getSendStatus() == SendStatus.SEND_OK ? 1 : 0;
            idOk += s.msgId.equals(r.getMsgId()) ? 1 : 0;
        }
        out.add("sync: " + ok + " of " + SYNC + " SEND_OK, " + idOk + " with msgId = the unique key");
        return sent;
    }

    private static List<Sent> sendAsync(DefaultMQProducer producer, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(ASYNC);
        Set<String> ok = ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<String> failed = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < ASYNC; i++) {
            Sent s = new Sent(TOPIC, "async", i, 0, true);
            sent.add(s);
            producer.send(s.message, new SendCallback() {
                @Override
                public void onSuccess(SendResult r) {
                    if (r.getSendStatus() == SendStatus.SEND_OK
                        && r.getMsgId().equals(MessageClientIDSetter.getUniqID(s.message))) {
                        ok.add(s.keys);
                    } else {
                        failed.add(s.keys + " " + r);
                    }
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
            failed.add((done.getCount()) + " callbacks never came");
        }
        sent.forEach(Sent::sent);
        out.add("async: " + ok.size() + " of " + ASYNC + " SEND_OK with msgId = the unique key");
        failed.forEach(f -> out.add("async failed: " + f));
        return sent;
    }

    private static List<Sent> sendOneway(DefaultMQProducer producer, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < ONEWAY; i++) {
            Sent s = new Sent(TOPIC, "oneway", i, 0, true);
            producer.sendOneway(s.message);
            sent.add(s.sent());
        }
        out.add("oneway: " + sent.size() + " sent");
        return sent;
    }

    /**
     * Batches are never compressed by 4.9.0's producer, whatever their size. Each message's properties string goes
     * into the batch as the client's MessageDecoder.encodeMessage wrote it, and the broker's batch encoder (4.9.0's and
     * 4.9.1's CommitLog.MessageExtBatchEncoder) stores it followed directly by the batch's own properties: without its
     * trailing separator a message's last property runs into the batch's first and neither survives decoding.
     */
    private static List<Sent> sendBatches(DefaultMQProducer producer, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        int ok = 0;
        int idOk = 0;
        for (int b = 0; b < BATCHES; b++) {
            List<Sent> batch = new ArrayList<>();
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < PER_BATCH; i++) {
                Sent s = new Sent(TOPIC, "batch", b * PER_BATCH + i, 0, false);
                batch.add(s);
                messages.add(s.message);
            }
            SendResult r = producer.send(messages);
            batch.forEach(Sent::sent);
            List<String> ids = new ArrayList<>();
            batch.forEach(s -> ids.add(s.msgId));
            ok += r.getSendStatus() == SendStatus.SEND_OK ? 1 : 0;
            idOk += String.join(",", ids).equals(r.getMsgId()) ? 1 : 0;
            sent.addAll(batch);
        }
        out.add("batch: " + ok + " of " + BATCHES + " batches of " + PER_BATCH + " SEND_OK, " + idOk
            + " with msgId = their unique keys");
        return sent;
    }

    /** Bodies from 5,000 to 18,500 bytes: the producer compresses them, the consumers inflate them. */
    private static List<Sent> sendLarge(DefaultMQProducer producer, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        int ok = 0;
        int compressed = 0;
        for (int i = 0; i < LARGE; i++) {
            Sent s = new Sent(TOPIC, "large", i, 5_000 + 1_500 * i, true);
            SendResult r = producer.send(s.message);
            sent.add(s.sent());
            ok += r.getSendStatus() == SendStatus.SEND_OK && s.msgId.equals(r.getMsgId()) ? 1 : 0;
            compressed += s.compressed ? 1 : 0;
        }
        out.add("large: " + ok + " of " + LARGE + " SEND_OK with msgId = the unique key, " + compressed + " over "
            + COMPRESS_AT + " bytes");
        return sent;
    }

    private static List<Sent> sendOrdered(DefaultMQProducer producer, List<String> out) throws Exception {
        List<Sent> sent = new ArrayList<>();
        Set<Integer> queues = new TreeSet<>();
        int ok = 0;
        for (int i = 0; i < ORDERED; i++) {
            Sent s = new Sent(ORDERED_TOPIC, "ordered", i, 0, true);
            SendResult r = producer.send(s.message, (mqs, msg, arg) -> mqs.get((Integer) arg % mqs.size()), ORDERED_QUEUE);
            sent.add(s.sent());
            queues.add(r.getMessageQueue().getQueueId());
            ok += r.getSendStatus() == SendStatus.SEND_OK && s.msgId.equals(r.getMsgId()) ? 1 : 0;
        }
        out.add("ordered sends: " + ok + " of " + ORDERED + " SEND_OK with msgId = the unique key, to queues " + queues);
        return sent;
    }

    /**
     * Half messages; the listener commits, rolls back, or (seq {@link #UNKNOWN_SEQ}) answers UNKNOW until the broker
     * checks, then commits. Returns the messages that must reach the topic.
     */
    private static List<Sent> sendTransactions(String namesrv, String instance, Map<Integer, String> checked,
                                               List<Runnable> shutdowns, List<String> out) throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer("patched-client-tx-producer");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(instance);
        producer.setSendMsgTimeout(SEND_TIMEOUT_MS);
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                int seq = (Integer) arg;
                return seq == UNKNOWN_SEQ ? LocalTransactionState.UNKNOW : decision(seq);
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                int seq = Integer.parseInt(msg.getUserProperty("seq"));
                LocalTransactionState state = decision(seq);
                checked.merge(seq, state.name(), (a, b) -> a + "," + b);
                return state;
            }
        });
        producer.start();
        shutdowns.add(producer::shutdown);
        List<Sent> committed = new ArrayList<>();
        List<String> states = new ArrayList<>();
        int ok = 0;
        for (int i = 0; i < TX; i++) {
            Sent s = new Sent(TX_TOPIC, "tx", i, 0, true);
            TransactionSendResult r = producer.sendMessageInTransaction(s.message, i);
            s.sent();
            ok += r.getSendStatus() == SendStatus.SEND_OK && s.msgId.equals(r.getMsgId()) ? 1 : 0;
            states.add(String.valueOf(r.getLocalTransactionState()));
            if (decision(i) == LocalTransactionState.COMMIT_MESSAGE) {
                committed.add(s);
            }
        }
        out.add("transaction: " + ok + " of " + TX + " half messages SEND_OK with msgId = the unique key, local states "
            + states);
        return committed;
    }

    private static LocalTransactionState decision(int seq) {
        return seq % 3 == 1 ? LocalTransactionState.ROLLBACK_MESSAGE : LocalTransactionState.COMMIT_MESSAGE;
    }

    /**
     * Notes which thread sends each push consumer's pull request (P33: after the first pull of a queue, the IO thread
     * that read the last answer; stock: the PullMessageService thread). The lite pull consumer's pulls are left out.
     */
    private static final class PushPullThreads implements RPCHook {
        @Override
        public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
            if (request.getCode() == RequestCode.PULL_MESSAGE
                && request.readCustomHeader() instanceof PullMessageRequestHeader h
                && PUSH_GROUPS.contains(h.getConsumerGroup())) {
                PULL_REQUEST_THREADS.add(Thread.currentThread().getName().replaceAll("[0-9]+$", ""));
            }
        }

        @Override
        public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
        }
    }

    private static DefaultMQPushConsumer pushConsumer(String namesrv, String instance, String group, String topic)
        throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        // Pull results with messages pass the consumer's filter hooks where the pull callback runs (P31: the IO thread).
        c.getDefaultMQPushConsumerImpl().registerFilterMessageHook(new FilterMessageHook() {
            @Override
            public String hookName() {
                return "pull-callback-thread";
            }

            @Override
            public void filterMessage(FilterMessageContext context) {
                PULL_CALLBACK_THREADS.add(Thread.currentThread().getName().replaceAll("[0-9]+$", ""));
            }
        });
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(instance);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.subscribe(topic, "*");
        return c;
    }

    /**
     * The NettyClientWorkerThread executors (each client instance's NettyRemotingClient.defaultEventExecutorGroup) whose
     * thread ever started. Stock adds every handler of a connection with that group, so a single call starts one;
     * with P26 nothing is ever submitted to it. netty 4.0's SingleThreadEventExecutor makes its thread in its
     * constructor and starts it on the first task.
     */
    private static String workerThreads(String instance) throws Exception {
        Field table = MQClientManager.class.getDeclaredField("factoryTable");
        table.setAccessible(true);
        int instances = 0;
        int executors = 0;
        int started = 0;
        for (Map.Entry<?, ?> e : ((Map<?, ?>) table.get(MQClientManager.getInstance())).entrySet()) {
            if (!String.valueOf(e.getKey()).contains("@" + instance)) {
                continue;
            }
            Object remoting = ((MQClientInstance) e.getValue()).getMQClientAPIImpl().getRemotingClient();
            Field groupField = remoting.getClass().getDeclaredField("defaultEventExecutorGroup");
            groupField.setAccessible(true);
            instances++;
            for (Object executor : (Iterable<?>) groupField.get(remoting)) {
                executors++;
                Thread t = (Thread) field(executor, "thread");
                if (t != null && t.getState() != Thread.State.NEW) {
                    started++;
                }
            }
        }
        if (instances != 1 || executors == 0) {
            return "netty client worker threads: " + executors + " found in " + instances + " client instances";
        }
        return "netty client worker threads started: " + started;
    }

    private static Object field(Object o, String name) throws Exception {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // up the hierarchy
            }
        }
        throw new NoSuchFieldException(o.getClass().getName() + "." + name);
    }

    private static long millis(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
