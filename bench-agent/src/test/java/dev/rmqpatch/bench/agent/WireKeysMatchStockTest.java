package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rmqpatch.bench.agent.wire.MessageSpec;
import dev.rmqpatch.bench.agent.wire.SendFrames;
import dev.rmqpatch.bench.agent.wire.UniqueKeys;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;

/**
 * The KEYS value spliced into a pre-encoded header sits where the stock client's properties string has it, for every key
 * of OMB's key sets and for property sets of several shapes (with and without tags, user properties enough to make the
 * client's property HashMap grow): each frame is, byte for byte, stock encoding of the same values.
 */
class WireKeysMatchStockTest {

    private static List<byte[]> bodies(int n, int size) {
        Random r = new Random(size);
        List<byte[]> all = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[size];
            r.nextBytes(b);
            all.add(b);
        }
        return all;
    }

    private static Map<String, String> userProperties(int n) {
        Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            p.put("prop" + i, "value-" + i);
        }
        return p;
    }

    @Test
    void everyKeyOfTheKeySetsIsWhereStockPutsIt() {
        List<MessageSpec> specs = List.of(
            new MessageSpec("g1", "topic-a", "TagA", null, true, Map.of(), bodies(1, 300), false),
            new MessageSpec("g1", "topic-a", null, "fixed keys ignored", true, userProperties(2), bodies(3, 300), false),
            // 3 stock properties + 14 user properties + UNIQ_KEY: more than 12, so the client's HashMap resizes.
            new MessageSpec("g1", "topic-b", "TagB", null, true, userProperties(14), bodies(2, 1000), false));
        UniqueKeys uniq = new UniqueKeys();
        for (MessageSpec spec : specs) {
            SendFrames frames = new SendFrames(spec, uniq);
            for (int agent : new int[] {0, 3}) {
                String[] keys = MessageKeys.keySet(agent);
                for (int i = 0; i < keys.length; i++) {
                    byte[] key = SendFrames.keyBytes(keys[i]);
                    int body = i % frames.bodyCount();
                    long born = 1_700_000_000_000L + i;
                    int opaque = i * 7;
                    int queue = i % 18;
                    ByteBuf out = Unpooled.buffer();
                    frames.write(out, opaque, born, queue, body, key);
                    byte[] ours = new byte[out.readableBytes()];
                    out.readBytes(ours);
                    assertEquals(frames.frameLength(opaque, born, queue, body, key), ours.length);
                    // The unique key is drawn per message; take it from the frame (skipping the frame's length field).
                    RemotingCommand c = RemotingCommand.decode(java.util.Arrays.copyOfRange(ours, 4, ours.length));
                    Map<String, String> props = MessageDecoder.string2messageProperties(c.getExtFields().get("i"));
                    assertEquals(keys[i], props.get(MessageConst.PROPERTY_KEYS));
                    byte[] stock = frames.stockFrame(opaque, born, queue, props.get(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX), body,
                        keys[i]);
                    int k = i;
                    assertArrayEquals(stock, ours, () -> "key " + keys[k]);
                }
            }
        }
    }

    @Test
    void keysThatTheHeaderWouldEscapeAreRefused() {
        for (String bad : new String[] {"", "quote\"d", "back\\slash", "tab\t", "a\u0001b", "a\u0002b"}) {
            assertThrows(IllegalArgumentException.class, () -> SendFrames.keyBytes(bad), bad);
        }
        assertArrayEquals("plain key-1 ok".getBytes(java.nio.charset.StandardCharsets.UTF_8), SendFrames.keyBytes("plain key-1 ok"));
    }
}
