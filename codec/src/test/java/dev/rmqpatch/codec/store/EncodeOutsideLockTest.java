package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.store.AppendMessageResult;
import org.apache.rocketmq.store.AppendMessageStatus;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MessageExtBrokerInner;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.stats.BrokerStatsManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P20's pieces against stock's: the length formula against {@code CommitLog.calMsgLength}, the encoded and appended
 * bytes read back by stock's {@code MessageDecoder.decode} (offsets and timestamp written under the "lock"), the
 * lazy msgId against stock's {@code createMessageId} with its reused buffers, and the cases left to stock's body.
 * The byte-for-byte comparison with a stock store is broker-patches' EncodeOutsideLockIT.
 */
class EncodeOutsideLockTest {

    @Test
    void lengthIsStocks() throws Exception {
        Method stock = CommitLog.class.getDeclaredMethod("calMsgLength", int.class, int.class, int.class, int.class);
        stock.setAccessible(true);
        Random rnd = new Random(Seeds.seed());
        for (int i = 0; i < 1000; i++) {
            int sysFlag = rnd.nextInt(64);
            int body = rnd.nextInt(10000) - 10;
            int topic = rnd.nextInt(300);
            int props = rnd.nextInt(40000) - 10;
            assertEquals(stock.invoke(null, sysFlag, body, topic, props),
                EncodeOutsideLock.calMsgLength(sysFlag, body, topic, props));
        }
    }

    @Test
    void appendedBytesDecodeAsStocks(@TempDir Path dir) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.toString());
        config.setStorePathCommitLog(dir.resolve("commitlog").toString());
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager("test"), null,
            new BrokerConfig());
        Random rnd = new Random(Seeds.seed());
        HashMap<String, Long> table = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            boolean v6 = rnd.nextBoolean();
            int tran = new int[] {0, 4, 8, 12}[rnd.nextInt(4)];
            MessageExtBrokerInner msg = message(rnd, v6, tran);
            EncodeOutsideLock.beginPut(null, msg);
            EncodeOutsideLock.lock(new NoLock());
            long storeTimestamp = 1_800_000_000_000L + i;
            msg.setStoreTimestamp(storeTimestamp);
            ByteBuffer file = ByteBuffer.allocate(16 * 1024);
            int before = rnd.nextInt(1000);
            file.position(before);
            long queueOffset = table.getOrDefault(msg.getTopic() + "-" + msg.getQueueId(), 0L);
            AppendMessageResult r = EncodeOutsideLock.doAppend(4 * 1024 * 1024, table, store, 1L << 30, file,
                file.remaining(), msg);
            assertEquals(AppendMessageStatus.PUT_OK, r.getStatus());
            boolean consumed = tran == 0 || tran == 8;
            assertEquals(consumed ? queueOffset : 0L, r.getLogicsOffset());
            assertEquals(consumed ? queueOffset + 1 : queueOffset,
                (long) table.get(msg.getTopic() + "-" + msg.getQueueId()));
            assertEquals((1L << 30) + before, r.getWroteOffset());
            assertEquals(before + r.getWroteBytes(), file.position());
            ByteBuffer msgIdMemory = ByteBuffer.allocate(v6 ? 28 : 16);
            ByteBuffer host = ByteBuffer.allocate(v6 ? 20 : 8);
            assertEquals(MessageDecoder.createMessageId(msgIdMemory, msg.getStoreHostBytes(host), r.getWroteOffset()),
                r.getMsgId());
            AppendMessageResult plain = new AppendMessageResult(r.getStatus(), r.getWroteOffset(), r.getWroteBytes(),
                r.getMsgId(), r.getStoreTimestamp(), r.getLogicsOffset(), r.getPagecacheRT());
            assertEquals(plain.toString(), r.toString());
            file.position(before);
            MessageExt read = MessageDecoder.decode(file, true, false);
            assertEquals(r.getWroteBytes(), read.getStoreSize());
            assertEquals(r.getLogicsOffset(), read.getQueueOffset());
            assertEquals(r.getWroteOffset(), read.getCommitLogOffset());
            assertEquals(storeTimestamp, read.getStoreTimestamp());
            assertEquals(msg.getTopic(), read.getTopic());
            assertEquals(msg.getQueueId(), read.getQueueId());
            assertEquals(msg.getSysFlag(), read.getSysFlag());
            assertEquals(msg.getBornHost(), read.getBornHost());
            assertEquals(msg.getStoreHost(), read.getStoreHost());
            assertEquals(msg.getProperties(), read.getProperties());
            // Stock's decode gives no body for an empty one.
            assertEquals(java.util.Arrays.toString(msg.getBody().length == 0 ? null : msg.getBody()),
                java.util.Arrays.toString(read.getBody()));
            assertEquals(msg.getPreparedTransactionOffset(), read.getPreparedTransactionOffset());
        }
        store.destroy();
    }

    @Test
    void leavesToStockWhatItDoesNotEncode(@TempDir Path dir) throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.toString());
        DefaultMessageStore store = new DefaultMessageStore(config, new BrokerStatsManager("test"), null,
            new BrokerConfig());
        Random rnd = new Random(Seeds.seed());
        HashMap<String, Long> table = new HashMap<>();
        // A v6 store host without its flag: stock's doAppend decides (it throws).
        MessageExtBrokerInner mismatch = message(rnd, true, 0);
        mismatch.setSysFlag(0);
        assertNull(append(store, table, mismatch, 4096, 1 << 20));
        // Properties over Short.MAX_VALUE bytes: stock's PROPERTIES_SIZE_EXCEEDED.
        MessageExtBrokerInner props = message(rnd, false, 0);
        props.setPropertiesString(new String(new char[Short.MAX_VALUE + 1]).replace('\0', 'p'));
        assertNull(append(store, table, props, 1 << 20, 1 << 20));
        // Over maxMessageSize: stock's MESSAGE_SIZE_EXCEEDED.
        MessageExtBrokerInner big = message(rnd, false, 0);
        big.setBody(new byte[5000]);
        assertNull(append(store, table, big, 4096, 1 << 20));
        // Not enough room: stock's END_OF_FILE blank, then the retry uses the encoded bytes.
        MessageExtBrokerInner retry = message(rnd, false, 0);
        EncodeOutsideLock.beginPut(null, retry);
        EncodeOutsideLock.lock(new NoLock());
        ByteBuffer file = ByteBuffer.allocate(1 << 16);
        assertNull(EncodeOutsideLock.doAppend(1 << 20, table, store, 0L, file, 10, retry));
        AppendMessageResult r = EncodeOutsideLock.doAppend(1 << 20, table, store, 0L, file, file.remaining(), retry);
        assertEquals(AppendMessageStatus.PUT_OK, r.getStatus());
        // Appended once: a second call for the same message is stock's.
        assertNull(EncodeOutsideLock.doAppend(1 << 20, table, store, 0L, file, file.remaining(), retry));
        assertEquals(0, table.keySet().stream().filter(k -> !k.equals(retry.getTopic() + "-" + retry.getQueueId()))
            .count(), "nothing declined touched the topicQueueTable");
        store.destroy();
    }

    private static AppendMessageResult append(DefaultMessageStore store, HashMap<String, Long> table,
                                              MessageExtBrokerInner msg, int maxMessageSize, int room) {
        EncodeOutsideLock.beginPut(null, msg);
        EncodeOutsideLock.lock(new NoLock());
        return EncodeOutsideLock.doAppend(maxMessageSize, table, store, 0L, ByteBuffer.allocate(room), room, msg);
    }

    private static MessageExtBrokerInner message(Random rnd, boolean v6, int tran) throws Exception {
        MessageExtBrokerInner msg = new MessageExtBrokerInner();
        msg.setTopic("topic-\u00fc" + rnd.nextInt(5));
        msg.setQueueId(rnd.nextInt(4));
        // Under 4096 bytes in all: the last maxMessageSize seen bounds what is encoded, and the tests share it.
        byte[] body = new byte[rnd.nextInt(3000)];
        rnd.nextBytes(body);
        msg.setBody(body);
        msg.setBodyCRC(rnd.nextInt());
        msg.setFlag(rnd.nextInt());
        msg.setBornTimestamp(rnd.nextLong());
        msg.setReconsumeTimes(rnd.nextInt(5));
        msg.setPreparedTransactionOffset(rnd.nextInt(1 << 20));
        msg.putUserProperty("k\u4e2d", "v" + rnd.nextInt());
        msg.setPropertiesString(MessageDecoder.messageProperties2String(msg.getProperties()));
        msg.setBornHost(host(rnd, rnd.nextBoolean()));
        msg.setStoreHost(host(rnd, v6));
        int sysFlag = tran;
        if (((InetSocketAddress) msg.getBornHost()).getAddress() instanceof java.net.Inet6Address) {
            sysFlag |= MessageSysFlag.BORNHOST_V6_FLAG;
        }
        if (v6) {
            sysFlag |= MessageSysFlag.STOREHOSTADDRESS_V6_FLAG;
        }
        msg.setSysFlag(sysFlag);
        return msg;
    }

    private static InetSocketAddress host(Random rnd, boolean v6) throws Exception {
        byte[] addr = new byte[v6 ? 16 : 4];
        rnd.nextBytes(addr);
        addr[0] = (byte) (v6 ? 0x20 : 10);
        return new InetSocketAddress(InetAddress.getByAddress(addr), 1 + rnd.nextInt(65000));
    }

    /** The put lock is not the point here. */
    private static final class NoLock implements org.apache.rocketmq.store.PutMessageLock {
        @Override
        public void lock() {
        }

        @Override
        public void unlock() {
        }
    }
}
