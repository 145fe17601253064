package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;

/**
 * {@code SEND_MESSAGE} request header (V1) as 4.9.7+ writes it: 4.9.0's thirteen fields and {@code bname} (from
 * {@code RpcRequestHeader}), in the order of 4.9.7's {@code getClazzFields}.
 */
public final class SendMessageRequestHeaderRpcEncoder implements HeaderEncoder<SendMessageRequestHeader> {

    @Override
    public Class<SendMessageRequestHeader> headerClass() {
        return SendMessageRequestHeader.class;
    }

    /** 4.9.7's and 4.9.8's order (RpcHeaderEncodeDifferentialTest checks it against stock). */
    @Override
    public void write(SendMessageRequestHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "producerGroup", h.getProducerGroup());
        putIfNotNull(ext, "maxReconsumeTimes", h.getMaxReconsumeTimes());
        putIfNotNull(ext, "properties", h.getProperties());
        putIfNotNull(ext, "bname", h.getBname());
        putIfNotNull(ext, "bornTimestamp", h.getBornTimestamp());
        putIfNotNull(ext, "topic", h.getTopic());
        putIfNotNull(ext, "sysFlag", h.getSysFlag());
        putIfNotNull(ext, "reconsumeTimes", h.getReconsumeTimes());
        putIfNotNull(ext, "flag", h.getFlag());
        putIfNotNull(ext, "queueId", h.getQueueId());
        putIfNotNull(ext, "defaultTopic", h.getDefaultTopic());
        putIfNotNull(ext, "defaultTopicQueueNums", h.getDefaultTopicQueueNums());
        ext.put("unitMode", Boolean.toString(h.isUnitMode()));
        ext.put("batch", Boolean.toString(h.isBatch()));
    }
}
