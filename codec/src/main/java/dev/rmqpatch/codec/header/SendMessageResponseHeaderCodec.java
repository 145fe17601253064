package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.optionalString;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.requireInt;
import static dev.rmqpatch.codec.header.ExtFields.requireLong;
import static dev.rmqpatch.codec.header.ExtFields.requireString;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/** Response to every send: the broker encodes it once per message, stock does so by reflection. */
public final class SendMessageResponseHeaderCodec implements HeaderCodec<SendMessageResponseHeader> {

    @Override
    public Class<SendMessageResponseHeader> headerClass() {
        return SendMessageResponseHeader.class;
    }

    @Override
    public SendMessageResponseHeader decode(Map<String, String> ext) throws RemotingCommandException {
        SendMessageResponseHeader h = new SendMessageResponseHeader();
        h.setMsgId(requireString(ext, "msgId"));
        h.setQueueId(requireInt(ext, "queueId"));
        h.setQueueOffset(requireLong(ext, "queueOffset"));
        h.setTransactionId(optionalString(ext, "transactionId"));
        h.checkFields();
        return h;
    }

    @Override
    public void encode(SendMessageResponseHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "msgId", h.getMsgId());
        putIfNotNull(ext, "queueId", h.getQueueId());
        putIfNotNull(ext, "queueOffset", h.getQueueOffset());
        putIfNotNull(ext, "transactionId", h.getTransactionId());
    }
}
