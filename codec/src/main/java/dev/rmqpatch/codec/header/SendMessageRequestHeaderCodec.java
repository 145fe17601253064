package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.booleanValue;
import static dev.rmqpatch.codec.header.ExtFields.intValue;
import static dev.rmqpatch.codec.header.ExtFields.longValue;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.string;

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
        if (ext == null) {
            return h; // stock: an empty header, checkFields not called
        }
        String s;
        if ((s = string(ext, "producerGroup", true)) != null) {
            h.setProducerGroup(s);
        }
        if ((s = string(ext, "topic", true)) != null) {
            h.setTopic(s);
        }
        if ((s = string(ext, "defaultTopic", true)) != null) {
            h.setDefaultTopic(s);
        }
        Integer i;
        if ((i = intValue(ext, "defaultTopicQueueNums", true)) != null) {
            h.setDefaultTopicQueueNums(i);
        }
        if ((i = intValue(ext, "queueId", true)) != null) {
            h.setQueueId(i);
        }
        if ((i = intValue(ext, "sysFlag", true)) != null) {
            h.setSysFlag(i);
        }
        Long l;
        if ((l = longValue(ext, "bornTimestamp", true)) != null) {
            h.setBornTimestamp(l);
        }
        if ((i = intValue(ext, "flag", true)) != null) {
            h.setFlag(i);
        }
        if ((s = string(ext, "properties", false)) != null) {
            h.setProperties(s);
        }
        if ((i = intValue(ext, "reconsumeTimes", false)) != null) {
            h.setReconsumeTimes(i);
        }
        Boolean b;
        if ((b = booleanValue(ext, "unitMode")) != null) {
            h.setUnitMode(b);
        }
        if ((b = booleanValue(ext, "batch")) != null) {
            h.setBatch(b);
        }
        if ((i = intValue(ext, "maxReconsumeTimes", false)) != null) {
            h.setMaxReconsumeTimes(i);
        }
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
