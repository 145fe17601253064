package dev.rmqpatch.bench.agent.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.impl.producer.TopicPublishInfo;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Topic routes from a name server, as the stock client reads them: GET_ROUTEINFO_BY_TOPIC over the stock remoting
 * client (control plane, a few calls per run), turned into the writable queues of master brokers by the stock
 * client's own {@code topicRouteData2TopicPublishInfo}.
 */
public final class TopicRoutes implements AutoCloseable {
    private final NettyRemotingClient client;
    private final String namesrv;

    public TopicRoutes(String namesrv) {
        this.namesrv = namesrv;
        NettyClientConfig config = new NettyClientConfig();
        config.setClientWorkerThreads(1);
        client = new NettyRemotingClient(config);
        client.updateNameServerAddressList(Arrays.asList(namesrv.split(";")));
        client.start();
    }

    /** One writable queue and the address of its master broker. */
    public static final class Queue {
        public final int queueId;
        public final String brokerName;
        public final String brokerAddr;

        Queue(int queueId, String brokerName, String brokerAddr) {
            this.queueId = queueId;
            this.brokerName = brokerName;
            this.brokerAddr = brokerAddr;
        }
    }

    /** The topic's queues in the stock client's order; throws with the name server's answer when there is no route. */
    public List<Queue> queues(String topic, long timeoutMillis) throws RouteException {
        GetRouteInfoRequestHeader header = new GetRouteInfoRequestHeader();
        header.setTopic(topic);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, header);
        RemotingCommand response;
        try {
            response = client.invokeSync(null, request, timeoutMillis);
        } catch (Exception e) {
            throw new RouteException("name server " + namesrv + " did not answer the route of " + topic + ": " + e, e);
        }
        if (response.getCode() != ResponseCode.SUCCESS || response.getBody() == null) {
            throw new RouteException("name server " + namesrv + " has no route for topic " + topic + " (code " + response.getCode()
                + (response.getRemark() == null ? "" : ": " + response.getRemark()) + ")", null);
        }
        TopicRouteData route = TopicRouteData.decode(response.getBody(), TopicRouteData.class);
        TopicPublishInfo info = MQClientInstance.topicRouteData2TopicPublishInfo(topic, route);
        List<Queue> queues = new ArrayList<>();
        for (MessageQueue mq : info.getMessageQueueList()) {
            String addr = null;
            for (BrokerData b : route.getBrokerDatas()) {
                if (b.getBrokerName().equals(mq.getBrokerName())) {
                    addr = b.getBrokerAddrs().get(MixAll.MASTER_ID);
                }
            }
            if (addr != null) {
                queues.add(new Queue(mq.getQueueId(), mq.getBrokerName(), addr));
            }
        }
        return queues;
    }

    @Override
    public void close() {
        client.shutdown();
    }

    /** No usable route; the message names the name server and its answer. */
    public static final class RouteException extends Exception {
        RouteException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
