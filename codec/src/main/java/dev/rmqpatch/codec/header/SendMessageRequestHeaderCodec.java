package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.optionalBoolean;
import static dev.rmqpatch.codec.header.ExtFields.optionalInt;
import static dev.rmqpatch.codec.header.ExtFields.optionalString;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.requireInt;
import static dev.rmqpatch.codec.header.ExtFields.requireLong;
import static dev.rmqpatch.codec.header.ExtFields.requireString;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/** {@code SEND_MESSAGE} request header (V1: long field names). Required fields are the {@code @CFNotNull} ones. */
public final class SendMessageRequestHeaderCodec implements HeaderCodec<SendMessageRequestHeader> {

    @Override
    public Class<SendMessageRequestHeader> headerClass() {
        return SendMessageRequestHeader.class;
    }

    @Override
    public SendMessageRequestHeader decode(Map<String, String> ext) throws RemotingCommandException {
        SendMessageRequestHeader h = new SendMessageRequestHeader();
        h.setProducerGroup(requireString(ext, "producerGroup"));
        h.setTopic(requireString(ext, "topic"));
        h.setDefaultTopic(requireString(ext, "defaultTopic"));
        h.setDefaultTopicQueueNums(requireInt(ext, "defaultTopicQueueNums"));
        h.setQueueId(requireInt(ext, "queueId"));
        h.setSysFlag(requireInt(ext, "sysFlag"));
        h.setBornTimestamp(requireLong(ext, "bornTimestamp"));
        h.setFlag(requireInt(ext, "flag"));
        h.setProperties(optionalString(ext, "properties"));
        h.setReconsumeTimes(optionalInt(ext, "reconsumeTimes"));
        h.setUnitMode(optionalBoolean(ext, "unitMode"));
        h.setBatch(optionalBoolean(ext, "batch"));
        h.setMaxReconsumeTimes(optionalInt(ext, "maxReconsumeTimes"));
        h.checkFields();
        return h;
    }

    @Override
    public void encode(SendMessageRequestHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "producerGroup", h.getProducerGroup());
        putIfNotNull(ext, "topic", h.getTopic());
        putIfNotNull(ext, "defaultTopic", h.getDefaultTopic());
        putIfNotNull(ext, "defaultTopicQueueNums", h.getDefaultTopicQueueNums());
        putIfNotNull(ext, "queueId", h.getQueueId());
        putIfNotNull(ext, "sysFlag", h.getSysFlag());
        putIfNotNull(ext, "bornTimestamp", h.getBornTimestamp());
        putIfNotNull(ext, "flag", h.getFlag());
        putIfNotNull(ext, "properties", h.getProperties());
        putIfNotNull(ext, "reconsumeTimes", h.getReconsumeTimes());
        ext.put("unitMode", Boolean.toString(h.isUnitMode()));
        ext.put("batch", Boolean.toString(h.isBatch()));
        putIfNotNull(ext, "maxReconsumeTimes", h.getMaxReconsumeTimes());
    }
}
