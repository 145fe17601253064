package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.booleanValue;
import static dev.rmqpatch.codec.header.ExtFields.intValue;
import static dev.rmqpatch.codec.header.ExtFields.longValue;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.string;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * {@code PULL_MESSAGE} request header: the broker decodes it for every pull (a long-polling pull that is woken up
 * is decoded again). Required fields are the {@code @CFNotNull} ones; {@code subscription} ({@code @CFNullable})
 * and {@code expressionType} (no annotation, which stock treats as nullable) are optional.
 */
public final class PullMessageRequestHeaderCodec implements HeaderCodec<PullMessageRequestHeader> {

    @Override
    public Class<PullMessageRequestHeader> headerClass() {
        return PullMessageRequestHeader.class;
    }

    @Override
    public PullMessageRequestHeader decode(Map<String, String> ext) throws RemotingCommandException {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        if (ext == null) {
            return h; // stock: an empty header, checkFields not called
        }
        String s;
        if ((s = string(ext, "consumerGroup", true)) != null) {
            h.setConsumerGroup(s);
        }
        if ((s = string(ext, "topic", true)) != null) {
            h.setTopic(s);
        }
        Integer i;
        if ((i = intValue(ext, "queueId", true)) != null) {
            h.setQueueId(i);
        }
        Long l;
        if ((l = longValue(ext, "queueOffset", true)) != null) {
            h.setQueueOffset(l);
        }
        if ((i = intValue(ext, "maxMsgNums", true)) != null) {
            h.setMaxMsgNums(i);
        }
        if ((i = intValue(ext, "sysFlag", true)) != null) {
            h.setSysFlag(i);
        }
        if ((l = longValue(ext, "commitOffset", true)) != null) {
            h.setCommitOffset(l);
        }
        if ((l = longValue(ext, "suspendTimeoutMillis", true)) != null) {
            h.setSuspendTimeoutMillis(l);
        }
        if ((s = string(ext, "subscription", false)) != null) {
            h.setSubscription(s);
        }
        if ((l = longValue(ext, "subVersion", true)) != null) {
            h.setSubVersion(l);
        }
        if ((s = string(ext, "expressionType", false)) != null) {
            h.setExpressionType(s);
        }
        h.checkFields();
        return h;
    }

    /** The consumer side's encode; field order as declared, which is the order stock's reflection puts them in. */
    @Override
    public void encode(PullMessageRequestHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "consumerGroup", h.getConsumerGroup());
        putIfNotNull(ext, "topic", h.getTopic());
        putIfNotNull(ext, "queueId", h.getQueueId());
        putIfNotNull(ext, "queueOffset", h.getQueueOffset());
        putIfNotNull(ext, "maxMsgNums", h.getMaxMsgNums());
        putIfNotNull(ext, "sysFlag", h.getSysFlag());
        putIfNotNull(ext, "commitOffset", h.getCommitOffset());
        putIfNotNull(ext, "suspendTimeoutMillis", h.getSuspendTimeoutMillis());
        putIfNotNull(ext, "subscription", h.getSubscription());
        putIfNotNull(ext, "subVersion", h.getSubVersion());
        putIfNotNull(ext, "expressionType", h.getExpressionType());
    }
}
