package dev.rmqpatch.codec.hook;

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
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.junit.jupiter.api.Test;

/** The "not handled" paths, which make the patched RemotingCommand fall through to its stock body. */
class RemotingCommandHooksTest {

    @Test
    void decodeDeclinesUnregisteredClasses() throws Exception {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(11, null);
        HashMap<String, String> ext = new HashMap<>(Map.of("consumerGroup", "g", "topic", "t"));
        cmd.setExtFields(ext);
        assertNull(RemotingCommandHooks.decodeCommandCustomHeader(cmd, PullMessageRequestHeader.class));
        assertNull(RemotingCommandHooks.decodeCommandCustomHeader(cmd, new SendMessageRequestHeader() {
        }.getClass()));
        assertEquals(Map.of("consumerGroup", "g", "topic", "t"), cmd.getExtFields());
    }

    @Test
    void encodeDeclinesWithoutHeader() {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(0, "ok");
        assertFalse(RemotingCommandHooks.makeCustomHeaderToNet(cmd));
        assertNull(cmd.getExtFields(), "nothing created when declining");
    }

    @Test
    void encodeDeclinesUnregisteredHeaders() {
        PullMessageRequestHeader pull = new PullMessageRequestHeader();
        pull.setTopic("t");
        RemotingCommand cmd = RemotingCommand.createRequestCommand(11, pull);
        assertFalse(RemotingCommandHooks.makeCustomHeaderToNet(cmd));
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
