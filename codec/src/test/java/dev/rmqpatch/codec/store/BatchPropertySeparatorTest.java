package dev.rmqpatch.codec.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageExtBatch;
import org.apache.rocketmq.store.CommitLog;
import org.junit.jupiter.api.Test;

/**
 * P36's codec against stock 4.9.0's batch encoder ({@code CommitLog$MessageExtBatchEncoder}, on this class path):
 * random batches of messages whose properties end without the separator (4.9.1+ clients) are encoded here so that
 * stock's own {@code MessageDecoder.decode} reads back every property of every message and the batch's CLUSTER (stock's
 * encoder loses the last one: checked too), with stock's sizes and every other field stock's; batches of 4.9.0 clients,
 * malformed ones and oversized ones are declined (null: stock's body runs). The byte-for-byte comparison with 4.9.7's
 * encoder is broker-patches' BatchPropertySeparatorIT.
 */
class BatchPropertySeparatorTest {

    private static final int MAX = 64 * 1024;

    @Test
    void newerClientsBatchesKeepEveryPropertyWhereStockLosesTheLast() throws Exception {
        long seed = Seeds.seed();
        Random rnd = new Random(seed);
        Object stockEncoder = stockEncoder();
        ByteBuffer ours = ByteBuffer.allocateDirect(MAX);
        for (int c = 0; c < 500; c++) {
            String replay = Seeds.replay(seed, c);
            int n = 1 + rnd.nextInt(8);
            List<Map<String, String>> props = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Map<String, String> p = new LinkedHashMap<>();
                p.put(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "AB" + c + "-" + i);
                for (int k = 0; k < 1 + rnd.nextInt(4); k++) {
                    p.put("k" + k, rnd.nextInt(4) == 0 ? "" : "v\u00e9\u4e2d" + rnd.nextInt(1000));
                }
                props.add(p);
            }
            MessageExtBatch batch = batch(props, false, rnd);
            // Half the batches carry an id of their own, as a 5.x client's do: each message must keep its own id.
            boolean batchKey = rnd.nextBoolean();
            if (batchKey) {
                MessageAccessor.putProperty(batch, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "BATCH" + c);
            }
            ByteBuffer stock = copy(encodeStock(stockEncoder, batch));
            ByteBuffer patched = BatchPropertySeparator.encode(ours, MAX, batch);
            assertSame(ours, patched, replay);
            if (batchKey) {
                assertTrue(patched.remaining() < stock.remaining(), "the batch's id is not joined, " + replay);
            } else {
                assertEquals(stock.remaining(), patched.remaining(), "stock's size, " + replay);
            }
            List<MessageExt> fixed = decodeAll(patched.duplicate());
            List<MessageExt> lossy = decodeAll(stock.duplicate());
            assertEquals(n, fixed.size(), replay);
            for (int i = 0; i < n; i++) {
                Map<String, String> want = new HashMap<>(props.get(i));
                want.put(MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
                want.put("batchKey", "b\u00e9");
                Map<String, String> got = fixed.get(i).getProperties();
                for (Map.Entry<String, String> e : want.entrySet()) {
                    if (!e.getValue().isEmpty()) {
                        assertEquals(e.getValue(), got.get(e.getKey()), e.getKey() + ", message " + i + ", " + replay);
                    }
                }
                assertTrue(!want.equals(lossy.get(i).getProperties()), "stock loses one, " + replay);
                if (!batchKey) {
                    assertEquals(lossy.get(i).getStoreSize(), fixed.get(i).getStoreSize(), replay);
                }
                assertEquals(lossy.get(i).getBodyCRC(), fixed.get(i).getBodyCRC(), replay);
                assertTrue(java.util.Arrays.equals(lossy.get(i).getBody(), fixed.get(i).getBody()), replay);
                assertEquals(lossy.get(i).getBornHost(), fixed.get(i).getBornHost(), replay);
                assertEquals(lossy.get(i).getFlag(), fixed.get(i).getFlag(), replay);
            }
        }
    }

    @Test
    void stockRunsFor490ClientsMalformedAndOversized() throws Exception {
        Random rnd = new Random(Seeds.seed());
        ByteBuffer ours = ByteBuffer.allocateDirect(MAX);
        List<Map<String, String>> props = new ArrayList<>();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("k", "v");
        props.add(p);
        props.add(new HashMap<>());
        assertNull(BatchPropertySeparator.encode(ours, MAX, batch(props, true, rnd)), "a 4.9.0 client's batch");
        MessageExtBatch lacking = batch(props, false, rnd);
        assertNotNull(BatchPropertySeparator.encode(ours, MAX, lacking));
        byte[] body = lacking.getBody();
        MessageExtBatch truncated = batch(props, false, rnd);
        truncated.setBody(java.util.Arrays.copyOf(body, body.length - 1));
        assertNull(BatchPropertySeparator.encode(ours, MAX, truncated), "truncated");
        MessageExtBatch badLength = batch(props, false, rnd);
        byte[] bad = body.clone();
        ByteBuffer.wrap(bad).putInt(16, -5);
        badLength.setBody(bad);
        assertNull(BatchPropertySeparator.encode(ours, MAX, badLength), "negative body length");
        assertNull(BatchPropertySeparator.encode(ours, body.length + 40, lacking), "over maxMessageSize");
        MessageExtBatch noBatchProps = batch(props, false, rnd);
        MessageAccessor.setProperties(noBatchProps, new HashMap<>());
        assertNull(BatchPropertySeparator.encode(ours, MAX, noBatchProps), "nothing appended: stock's bytes are 4.9.7's");
        MessageExtBatch nullBody = batch(props, false, rnd);
        nullBody.setBody(null);
        assertNull(BatchPropertySeparator.encode(ours, MAX, nullBody));
    }

    private static MessageExtBatch batch(List<Map<String, String>> props, boolean trailing, Random rnd)
        throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map<String, String> p : props) {
            String s = MessageDecoder.messageProperties2String(p); // 4.9.0's: a separator after every entry
            if (!trailing && !s.isEmpty()) {
                s = s.substring(0, s.length() - 1);
            }
            byte[] pb = s.getBytes(StandardCharsets.UTF_8);
            byte[] b = new byte[rnd.nextInt(100)];
            rnd.nextBytes(b);
            ByteBuffer m = ByteBuffer.allocate(20 + b.length + 2 + pb.length);
            m.putInt(m.capacity()).putInt(0).putInt(0).putInt(rnd.nextInt(3)).putInt(b.length).put(b);
            m.putShort((short) pb.length).put(pb);
            body.write(m.array());
        }
        MessageExtBatch batch = new MessageExtBatch();
        batch.setTopic("BatchTopic");
        batch.setQueueId(rnd.nextInt(4));
        batch.setBody(body.toByteArray());
        batch.setBornTimestamp(1_700_000_000_000L);
        batch.setStoreTimestamp(1_700_000_000_100L);
        batch.setBornHost(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 40000 + rnd.nextInt(1000)));
        batch.setStoreHost(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 10911));
        Map<String, String> batchProps = new HashMap<>();
        batchProps.put("batchKey", "b\u00e9");
        batchProps.put(MessageConst.PROPERTY_CLUSTER, "DefaultCluster");
        MessageAccessor.setProperties(batch, batchProps);
        return batch;
    }

    private static Object stockEncoder() throws Exception {
        Class<?> c = Class.forName(CommitLog.class.getName() + "$MessageExtBatchEncoder");
        Constructor<?> ctor = c.getDeclaredConstructor(int.class);
        ctor.setAccessible(true);
        return ctor.newInstance(MAX);
    }

    private static ByteBuffer encodeStock(Object encoder, MessageExtBatch batch) throws Exception {
        return (ByteBuffer) encoder.getClass().getMethod("encode", MessageExtBatch.class).invoke(encoder, batch);
    }

    private static ByteBuffer copy(ByteBuffer b) {
        ByteBuffer c = ByteBuffer.allocate(b.remaining());
        c.put(b.duplicate());
        c.flip();
        return c;
    }

    private static List<MessageExt> decodeAll(ByteBuffer b) {
        List<MessageExt> out = new ArrayList<>();
        ByteBuffer heap = copy(b);
        while (heap.hasRemaining()) {
            out.add(MessageDecoder.decode(heap, true, false));
        }
        return out;
    }
}
