package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;

/**
 * Response to every send as a 4.9.7+ broker writes it: 4.9.0's four fields (no new one), in the order of 4.9.7's
 * {@code getClazzFields} (a HashSet), not in declaration order as 4.9.0's.
 */
public final class SendMessageResponseHeaderRpcEncoder implements HeaderEncoder<SendMessageResponseHeader> {

    @Override
    public Class<SendMessageResponseHeader> headerClass() {
        return SendMessageResponseHeader.class;
    }

    /** 4.9.7's and 4.9.8's order: queueOffset msgId transactionId queueId (RpcHeaderEncodeDifferentialTest checks it). */
    @Override
    public void write(SendMessageResponseHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "queueOffset", h.getQueueOffset());
        putIfNotNull(ext, "msgId", h.getMsgId());
        putIfNotNull(ext, "transactionId", h.getTransactionId());
        putIfNotNull(ext, "queueId", h.getQueueId());
    }
}
