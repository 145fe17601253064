package dev.rmqpatch.patches;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.PutMessageResult;
import org.apache.rocketmq.store.config.BrokerRole;
import org.apache.rocketmq.store.config.FlushDiskType;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Runs inside one isolated class loader (stock lib/, or patched lib/ with a given set of switches): puts the same
 * seeded random single messages into a fresh store, through {@code DefaultMessageStore.putMessage} (CommitLog's
 * asyncPutMessage) and {@code CommitLog.putMessage} in turn, and returns one line per result plus the final
 * topicQueueTable, and last the classes of the append results (which code made them). Only java.* crosses the loader boundary.
 */
public final class EncodeOutsideLockDriver {

    static final int COMMIT_LOG_FILE_SIZE = 64 * 1024;
    static final int MAX_MESSAGE_SIZE = 4 * 1024;

    private static final String[] TOPICS = {"t0", "topic-one", "T\u00f3pico-\u00fc", "\u4e3b\u9898", "rmq_sys_like", "x"};
    private static final String[] WORDS = {"a", "b\u00e9", "\u00fcml", "\u4e2d\u6587", "\ud83d\ude00", "k", "v-1", ""};

    private EncodeOutsideLockDriver() {
    }

    public static List<String> run(String root, long seed, int count) throws Exception {
        MessageStoreConfig cfg = new MessageStoreConfig();
        cfg.setStorePathRootDir(root);
        cfg.setStorePathCommitLog(root + "/commitlog");
        cfg.setMappedFileSizeCommitLog(COMMIT_LOG_FILE_SIZE);
        cfg.setMappedFileSizeConsumeQueue(20 * 1024);
        cfg.setMaxMessageSize(MAX_MESSAGE_SIZE);
        cfg.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        DefaultMessageStore store = new DefaultMessageStore(cfg, null, null, new BrokerConfig());
        if (!store.load()) {
            throw new IllegalStateException("load failed");
        }
        store.start();
        // No delayed message may come back into the CommitLog while the run lasts (its first timer is 1 s away).
        store.handleScheduleMessageService(BrokerRole.SLAVE);
        List<String> lines = new ArrayList<>();
        Random rnd = new Random(seed);
        Map<String, Integer> resultClasses = new TreeMap<>();
        try {
            for (int i = 0; i < count; i++) {
                MessageExtBrokerInner msg = message(rnd, i);
                PutMessageResult r = i % 2 == 0 ? store.putMessage(msg) : store.getCommitLog().putMessage(msg);
                lines.add(i + " " + line(r) + " topic=" + msg.getTopic() + " q=" + msg.getQueueId()
                    + " sysFlag=" + msg.getSysFlag());
                if (r.getAppendMessageResult() != null) {
                    resultClasses.merge((i % 2 == 0 ? "async " : "sync ") + r.getAppendMessageResult().getClass().getName(), 1,
                        Integer::sum);
                }
            }
            lines.add("topicQueueTable " + new TreeMap<>(store.getCommitLog().getTopicQueueTable()));
            // Last, not compared: which code made the results.
            lines.add("resultClasses " + resultClasses);
        } finally {
            store.shutdown();
        }
        return lines;
    }

    private static String line(PutMessageResult r) {
        AppendMessageResult a = r.getAppendMessageResult();
        return r.getPutMessageStatus() + (a == null ? " null" : " " + a.getStatus() + " wroteOffset=" + a.getWroteOffset()
            + " wroteBytes=" + a.getWroteBytes() + " msgId=" + a.getMsgId() + " logicsOffset=" + a.getLogicsOffset()
            + " msgNum=" + a.getMsgNum());
    }

    private static MessageExtBrokerInner message(Random rnd, int i) throws Exception {
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic(TOPICS[rnd.nextInt(TOPICS.length)]);
        msg.setQueueId(rnd.nextInt(4));
        int bodySize = rnd.nextInt(10) == 0 ? rnd.nextInt(200) : rnd.nextInt(4200);
        byte[] body = new byte[bodySize];
        rnd.nextBytes(body);
        msg.setBody(body);
        msg.setFlag(rnd.nextInt());
        msg.setBornTimestamp(1_700_000_000_000L + i);
        msg.setReconsumeTimes(rnd.nextInt(3));
        Map<String, String> props = new LinkedHashMap<>();
        int n = rnd.nextInt(6);
        for (int k = 0; k < n; k++) {
            props.put("K" + k + WORDS[rnd.nextInt(WORDS.length)], WORDS[rnd.nextInt(WORDS.length)] + rnd.nextInt(1000));
        }
        if (rnd.nextInt(8) == 0) {
            props.put("DELAY", String.valueOf(1 + rnd.nextInt(3)));
        }
        int sysFlag = new int[] {MessageSysFlag.TRANSACTION_NOT_TYPE, MessageSysFlag.TRANSACTION_PREPARED_TYPE,
            MessageSysFlag.TRANSACTION_COMMIT_TYPE, MessageSysFlag.TRANSACTION_ROLLBACK_TYPE}[rnd.nextInt(4)];
        if (sysFlag == MessageSysFlag.TRANSACTION_COMMIT_TYPE) {
            msg.setPreparedTransactionOffset(rnd.nextInt(1 << 20));
        }
        boolean bornV6 = rnd.nextInt(3) == 0;
        boolean storeV6 = rnd.nextInt(3) == 0;
        msg.setBornHost(host(rnd, bornV6));
        msg.setStoreHost(host(rnd, storeV6));
        // The broker sets the host flags (CommitLog.putMessage sets them again; asyncPutMessage does not).
        if (bornV6) {
            sysFlag |= MessageSysFlag.BORNHOST_V6_FLAG;
        }
        if (storeV6) {
            sysFlag |= MessageSysFlag.STOREHOSTADDRESS_V6_FLAG;
        }
        msg.setSysFlag(sysFlag);
        MessageAccessor.setProperties(msg, props);
        String propertiesString = MessageDecoder.messageProperties2String(props);
        if (i % 2 == 1 && rnd.nextInt(40) == 0) {
            // Over Short.MAX_VALUE bytes: PROPERTIES_SIZE_EXCEEDED (only CommitLog.putMessage gets that far).
            StringBuilder big = new StringBuilder(propertiesString);
            while (big.length() <= Short.MAX_VALUE) {
                big.append("\u00e9\u00e9\u00e9\u00e9");
            }
            propertiesString = big.toString();
        }
        msg.setPropertiesString(propertiesString);
        msg.setTagsCode(rnd.nextInt());
        return msg;
    }

    private static InetSocketAddress host(Random rnd, boolean v6) throws Exception {
        byte[] addr = new byte[v6 ? 16 : 4];
        rnd.nextBytes(addr);
        addr[0] = (byte) (v6 ? 0x20 : 10);
        return new InetSocketAddress(InetAddress.getByAddress(addr), 1024 + rnd.nextInt(60000));
    }
}
