package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.optionalString;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.requireInt;
import static dev.rmqpatch.codec.header.ExtFields.requireLong;
import static dev.rmqpatch.codec.header.ExtFields.requireString;

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
        h.setConsumerGroup(requireString(ext, "consumerGroup"));
        h.setTopic(requireString(ext, "topic"));
        h.setQueueId(requireInt(ext, "queueId"));
        h.setQueueOffset(requireLong(ext, "queueOffset"));
        h.setMaxMsgNums(requireInt(ext, "maxMsgNums"));
        h.setSysFlag(requireInt(ext, "sysFlag"));
        h.setCommitOffset(requireLong(ext, "commitOffset"));
        h.setSuspendTimeoutMillis(requireLong(ext, "suspendTimeoutMillis"));
        h.setSubscription(optionalString(ext, "subscription"));
        h.setSubVersion(requireLong(ext, "subVersion"));
        h.setExpressionType(optionalString(ext, "expressionType"));
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
