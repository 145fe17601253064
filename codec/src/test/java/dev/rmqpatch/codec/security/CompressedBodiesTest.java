package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.DataVersion;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.common.protocol.body.TopicConfigSerializeWrapper;
import org.junit.jupiter.api.Test;

/** S6's reader of compressed register-broker parts against stock's on the same streams. */
class CompressedBodiesTest {

    @Test
    void readsWhatStockReads() throws IOException {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int n = 0; n < 300; n++) {
            byte[] data = new byte[r.nextInt(4) == 0 ? r.nextInt(400_000) : r.nextInt(100)];
            r.nextBytes(data);
            int want = r.nextInt(data.length + 1);
            byte[] ours = CompressedBodies.readBytes(inflater(data), want);
            assertArrayEquals(Arrays.copyOf(data, want), ours, Seeds.replay(seed, n));
            if (want < data.length) {
                continue;
            }
            // Asking for more than the stream holds fails as stock does.
            IOException e = assertThrows(IOException.class, () -> CompressedBodies.readBytes(inflater(data), want + 1 + r.nextInt(10)));
            assertEquals("End of compressed data has reached", e.getMessage(), Seeds.replay(seed, n));
        }
        assertThrows(IOException.class, () -> CompressedBodies.readBytes(inflater(new byte[0]), -1));
    }

    @Test
    void aHugeClaimAllocatesOnlyWhatArrives() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        byte[] small = new byte[1000];
        long before = threads.getThreadAllocatedBytes(id);
        assertThrows(IOException.class, () -> CompressedBodies.readBytes(inflater(small), 2_000_000_000));
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(allocated < 1 << 20, "a 2 GB claim over 1,000 bytes allocated " + allocated + " bytes");
    }

    /** A real compressed body, as a 4.9.0 broker encodes it, decodes to the same topics through the patched reader. */
    @Test
    void aBrokersCompressedBodyDecodesTheSame() throws IOException {
        RegisterBrokerBody body = new RegisterBrokerBody();
        TopicConfigSerializeWrapper wrapper = new TopicConfigSerializeWrapper();
        wrapper.setDataVersion(new DataVersion());
        for (int i = 0; i < 50; i++) {
            wrapper.getTopicConfigTable().put("topic-" + i, new TopicConfig("topic-" + i, 4, 4, 6));
        }
        body.setTopicConfigSerializeWrapper(wrapper);
        byte[] encoded = body.encode(true);
        // Stock's own decode (this test's class path has the stock jar) and the patched reader over the same stream.
        RegisterBrokerBody stock = RegisterBrokerBody.decode(encoded, true);
        InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(encoded));
        int versionLength = java.nio.ByteBuffer.wrap(CompressedBodies.readBytes(in, 4)).getInt();
        byte[] version = CompressedBodies.readBytes(in, versionLength);
        assertEquals(stock.getTopicConfigSerializeWrapper().getDataVersion().toJson(), new String(version, "UTF-8"));
        assertEquals(50, stock.getTopicConfigSerializeWrapper().getTopicConfigTable().size());
    }

    private static InflaterInputStream inflater(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream d = new DeflaterOutputStream(out)) {
            d.write(data);
        }
        return new InflaterInputStream(new ByteArrayInputStream(out.toByteArray()));
    }
}
