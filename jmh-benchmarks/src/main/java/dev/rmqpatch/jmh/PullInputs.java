package dev.rmqpatch.jmh;

import java.nio.ByteBuffer;

import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The pull path's inputs, built the way the 4.9.0 client and broker build them: the PULL_MESSAGE request a
 * {@code DefaultMQPushConsumer} sends for one queue (its {@code pullMessage} and {@code PullAPIWrapper.pullKernelImpl}:
 * batch of 32, commit offset and long polling on, no subscription text because the broker holds it, expression type
 * TAG), through the wire format and back as the broker's decoder hands it over; and the response header
 * {@code PullMessageProcessor} fills for a pull that found messages. The message properties play no part here, so
 * these have no input parameter.
 */
public final class PullInputs {

    static final String CONSUMER_GROUP = "order-service-consumer";
    static final String TOPIC = "order-events";
    static final int QUEUE_ID = 2;
    static final long QUEUE_OFFSET = 1_234_567L;
    static final int PULL_BATCH_SIZE = 32;
    /** DefaultMQPushConsumerImpl.BROKER_SUSPEND_MAX_TIME_MILLIS. */
    static final long SUSPEND_MILLIS = 15_000L;
    /** SubscriptionData.subVersion: the time the subscription was made. */
    static final long SUB_VERSION = 1_718_000_000_456L;

    private PullInputs() {
    }

    /** The PULL_MESSAGE request with the ext fields the broker's pull processor receives. */
    public static RemotingCommand pullRequest() {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup(CONSUMER_GROUP);
        h.setTopic(TOPIC);
        h.setQueueId(QUEUE_ID);
        h.setQueueOffset(QUEUE_OFFSET);
        h.setMaxMsgNums(PULL_BATCH_SIZE);
        h.setSysFlag(PullSysFlag.buildSysFlag(true, true, false, false));
        h.setCommitOffset(QUEUE_OFFSET - 64);
        h.setSuspendTimeoutMillis(SUSPEND_MILLIS);
        h.setSubscription(null);
        h.setSubVersion(SUB_VERSION);
        h.setExpressionType("TAG");
        RemotingCommand clientSide = RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, h);
        ByteBuffer wire = clientSide.encode();
        wire.getInt();
        return RemotingCommand.decode(wire.slice());
    }

    /** A pull response as PullMessageProcessor leaves it for the encoder: header filled, no ext fields yet. */
    public static RemotingCommand pullResponse() {
        RemotingCommand response = RemotingCommand.createResponseCommand(PullMessageResponseHeader.class);
        PullMessageResponseHeader h = (PullMessageResponseHeader) response.readCustomHeader();
        h.setNextBeginOffset(QUEUE_OFFSET + PULL_BATCH_SIZE);
        h.setMinOffset(0L);
        h.setMaxOffset(QUEUE_OFFSET + 5_000);
        h.setSuggestWhichBrokerId(0L);
        return response;
    }
}
