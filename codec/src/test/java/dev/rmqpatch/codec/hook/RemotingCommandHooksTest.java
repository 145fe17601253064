package dev.rmqpatch.codec.hook;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.junit.jupiter.api.Test;

/** The "not handled" paths, which make the patched RemotingCommand fall through to its stock body. */
class RemotingCommandHooksTest {

    /**
     * S5's layer in P5: a header the reader declines because it names @type is refused before fastjson sees it, with
     * fastjson's safe mode off (the test JVM's stock state); a declined header without @type still goes to fastjson.
     */
    @Test
    void jsonHeaderNamingAtTypeIsRefusedBeforeFastjson() {
        byte[] gadget = ("{\"code\":26,\"opaque\":1,\"extFields\":{\"x\":{\"\\u0040type\":\"java.lang.Exception\","
            + "\"@type\":\"java.io.IOException\"}}}").getBytes(StandardCharsets.UTF_8);
        assertFalse(com.alibaba.fastjson.parser.ParserConfig.getGlobalInstance().isSafeMode(), "fastjson as shipped");
        com.alibaba.fastjson.JSONException e = org.junit.jupiter.api.Assertions.assertThrows(
            com.alibaba.fastjson.JSONException.class, () -> RemotingCommandHooks.decodeJsonHeader(gadget, RemotingCommand.class));
        assertTrue(e.getMessage().startsWith("rmqpatch S5: "), e.getMessage());
        // Declined for another reason (a field given twice): fastjson decodes it, as stock does.
        byte[] twice = "{\"code\":26,\"code\":27,\"opaque\":1,\"remark\":\"mail me at a@b.example\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(27, RemotingCommandHooks.decodeJsonHeader(twice, RemotingCommand.class).getCode());
    }

    @Test
    void decodeDeclinesUnregisteredClasses() throws Exception {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(14, null);
        HashMap<String, String> ext = new HashMap<>(Map.of("consumerGroup", "g", "topic", "t"));
        cmd.setExtFields(ext);
        for (Class<? extends CommandCustomHeader> c : List.of(QueryConsumerOffsetRequestHeader.class,
            new SendMessageRequestHeader() {
            }.getClass(), new PullMessageRequestHeader() {
            }.getClass())) {
            assertNull(RemotingCommandHooks.decodeCommandCustomHeader(cmd, c), c.getName());
            assertNull(RemotingCommandHooks.decodePullCustomHeader(cmd, c), c.getName());
        }
        assertEquals(Map.of("consumerGroup", "g", "topic", "t"), cmd.getExtFields());
    }

    /** P1's and P10's hooks sit in the same method behind separate switches: each declines the other's headers. */
    @Test
    void sendAndPullHooksDeclineEachOthersHeaders() throws Exception {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(11, null);
        cmd.setExtFields(new HashMap<>(Map.of("consumerGroup", "g", "topic", "t", "queueId", "1", "queueOffset", "2",
            "maxMsgNums", "32", "sysFlag", "3", "commitOffset", "0", "suspendTimeoutMillis", "15000", "subVersion", "1")));
        assertNull(RemotingCommandHooks.decodeCommandCustomHeader(cmd, PullMessageRequestHeader.class));
        assertEquals("t", ((PullMessageRequestHeader) RemotingCommandHooks.decodePullCustomHeader(cmd,
            PullMessageRequestHeader.class)).getTopic());
        assertNull(RemotingCommandHooks.decodePullCustomHeader(cmd, SendMessageRequestHeader.class));

        RemotingCommand send = sendResponse(false);
        assertFalse(RemotingCommandHooks.makePullHeaderToNet(send));
        assertNull(send.getExtFields());
        RemotingCommand pull = pullResponse(0L, 5L, 0L, 9L);
        assertFalse(RemotingCommandHooks.makeCustomHeaderToNet(pull));
        assertNull(pull.getExtFields());
        assertTrue(RemotingCommandHooks.makePullHeaderToNet(pull));
        assertEquals(Map.of("suggestWhichBrokerId", "0", "nextBeginOffset", "5", "minOffset", "0", "maxOffset", "9"),
            pull.getExtFields());
    }

    @Test
    void encodeDeclinesWithoutHeader() {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(0, "ok");
        assertFalse(RemotingCommandHooks.makeCustomHeaderToNet(cmd));
        assertFalse(RemotingCommandHooks.makePullHeaderToNet(cmd));
        assertNull(cmd.getExtFields(), "nothing created when declining");
    }

    @Test
    void encodeDeclinesUnregisteredHeaders() {
        QueryConsumerOffsetRequestHeader query = new QueryConsumerOffsetRequestHeader();
        query.setTopic("t");
        RemotingCommand cmd = RemotingCommand.createRequestCommand(14, query);
        assertFalse(RemotingCommandHooks.makeCustomHeaderToNet(cmd));
        assertFalse(RemotingCommandHooks.makePullHeaderToNet(cmd));
        assertNull(cmd.getExtFields(), "the stock body creates the map and fills it");
    }

    @Test
    void encodeCreatesTheMapWhenAbsentAndReusesItOtherwise() throws Exception {
        RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader h = (SendMessageResponseHeader) response.readCustomHeader();
        h.setMsgId("id");
        h.setQueueId(3);
        h.setQueueOffset(42L);
        assertTrue(RemotingCommandHooks.makeCustomHeaderToNet(response));
        assertEquals(Map.of("msgId", "id", "queueId", "3", "queueOffset", "42"), response.getExtFields());

        HashMap<String, String> existing = new HashMap<>(Map.of("MSG_REGION", "r", "queueId", "stale"));
        response.setExtFields(existing);
        assertTrue(RemotingCommandHooks.makeCustomHeaderToNet(response));
        assertSame(existing, response.getExtFields());
        assertEquals(Map.of("MSG_REGION", "r", "msgId", "id", "queueId", "3", "queueOffset", "42"), existing);
    }

    /**
     * A send response that reaches the encoder without ext fields: the map the hook creates must iterate like the
     * one stock's makeCustomHeaderToNet creates, so fastjson prints the keys in stock's order (queueId before
     * msgId), not merely the same keys.
     */
    @Test
    void encodeIntoAFreshMapKeepsStockKeyOrderOnTheWire() {
        for (boolean withTransaction : new boolean[] {false, true}) {
            RemotingCommand stock = sendResponse(withTransaction);
            stock.makeCustomHeaderToNet();
            RemotingCommand ours = sendResponse(withTransaction);
            assertTrue(RemotingCommandHooks.makeCustomHeaderToNet(ours));
            assertEquals(new ArrayList<>(stock.getExtFields().keySet()), new ArrayList<>(ours.getExtFields().keySet()));
            String stockJson = new String(RemotingSerializable.encode(stock), StandardCharsets.UTF_8);
            assertEquals(stockJson, new String(RemotingSerializable.encode(ours), StandardCharsets.UTF_8));
            List<String> order = List.of("queueId", "msgId", "queueOffset");
            assertTrue(stockJson.indexOf(order.get(0)) < stockJson.indexOf(order.get(1))
                && stockJson.indexOf(order.get(1)) < stockJson.indexOf(order.get(2)), stockJson);
        }
    }

    /**
     * Pull responses reach the encoder without ext fields (PullMessageProcessor adds none): P11's map must iterate
     * like stock's, so the JSON header is stock's byte for byte, for values of every length.
     */
    @Test
    void pullResponseIntoAFreshMapIsStocksJsonByteForByte() {
        long[][] cases = {{0, 0, 0, 0}, {0, 1234568, 0, 1234600}, {1, Long.MAX_VALUE, Long.MIN_VALUE, -1},
            {3, 987654321012L, 5, 987654321099L}};
        for (long[] c : cases) {
            RemotingCommand stock = pullResponse(c[0], c[1], c[2], c[3]);
            stock.makeCustomHeaderToNet();
            RemotingCommand ours = pullResponse(c[0], c[1], c[2], c[3]);
            assertTrue(RemotingCommandHooks.makePullHeaderToNet(ours));
            assertEquals(new ArrayList<>(stock.getExtFields().entrySet()), new ArrayList<>(ours.getExtFields().entrySet()));
            assertArrayEquals(RemotingSerializable.encode(stock), RemotingSerializable.encode(ours));
        }
    }

    private static RemotingCommand pullResponse(long suggest, long next, long min, long max) {
        RemotingCommand response = RemotingCommand.createResponseCommand(PullMessageResponseHeader.class);
        response.setOpaque(78);
        response.setCode(19); // PULL_NOT_FOUND: the header is filled whatever the outcome
        PullMessageResponseHeader h = (PullMessageResponseHeader) response.readCustomHeader();
        h.setSuggestWhichBrokerId(suggest);
        h.setNextBeginOffset(next);
        h.setMinOffset(min);
        h.setMaxOffset(max);
        return response;
    }

    private static RemotingCommand sendResponse(boolean withTransaction) {
        RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        response.setOpaque(77);
        SendMessageResponseHeader h = (SendMessageResponseHeader) response.readCustomHeader();
        h.setMsgId("7F00000100002A9F00000000001E2A4C");
        h.setQueueId(2);
        h.setQueueOffset(1234567L);
        if (withTransaction) {
            h.setTransactionId("0A0B0C0D4E2F18B4AAC27A9B3F6D0001");
        }
        return response;
    }
}
