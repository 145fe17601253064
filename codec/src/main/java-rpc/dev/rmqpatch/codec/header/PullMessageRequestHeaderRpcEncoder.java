package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;

/**
 * {@code PULL_MESSAGE} request header as a 4.9.7+ consumer writes it: 4.9.0's eleven fields and {@code bname} (from
 * {@code RpcRequestHeader}), in the order of 4.9.7's {@code getClazzFields}.
 */
public final class PullMessageRequestHeaderRpcEncoder implements HeaderEncoder<PullMessageRequestHeader> {

    @Override
    public Class<PullMessageRequestHeader> headerClass() {
        return PullMessageRequestHeader.class;
    }

    /** 4.9.7's and 4.9.8's order (RpcHeaderEncodeDifferentialTest checks it against stock). */
    @Override
    public void write(PullMessageRequestHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "maxMsgNums", h.getMaxMsgNums());
        putIfNotNull(ext, "sysFlag", h.getSysFlag());
        putIfNotNull(ext, "suspendTimeoutMillis", h.getSuspendTimeoutMillis());
        putIfNotNull(ext, "commitOffset", h.getCommitOffset());
        putIfNotNull(ext, "queueId", h.getQueueId());
        putIfNotNull(ext, "consumerGroup", h.getConsumerGroup());
        putIfNotNull(ext, "bname", h.getBname());
        putIfNotNull(ext, "subVersion", h.getSubVersion());
        putIfNotNull(ext, "queueOffset", h.getQueueOffset());
        putIfNotNull(ext, "expressionType", h.getExpressionType());
        putIfNotNull(ext, "subscription", h.getSubscription());
        putIfNotNull(ext, "topic", h.getTopic());
    }
}
