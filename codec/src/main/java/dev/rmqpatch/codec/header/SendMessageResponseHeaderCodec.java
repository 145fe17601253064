package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.booleanValue;
import static dev.rmqpatch.codec.header.ExtFields.intValue;
import static dev.rmqpatch.codec.header.ExtFields.longValue;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.string;

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
        if (ext == null) {
            return h; // stock: an empty header, checkFields not called
        }
        String s;
        if ((s = string(ext, "msgId", true)) != null) {
            h.setMsgId(s);
        }
        Integer i;
        if ((i = intValue(ext, "queueId", true)) != null) {
            h.setQueueId(i);
        }
        Long l;
        if ((l = longValue(ext, "queueOffset", true)) != null) {
            h.setQueueOffset(l);
        }
        if ((s = string(ext, "transactionId", false)) != null) {
            h.setTransactionId(s);
        }
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
