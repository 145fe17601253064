package dev.rmqpatch.bench.broker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.admin.TopicOffset;
import org.apache.rocketmq.common.admin.TopicStatsTable;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.body.ClusterInfo;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.common.protocol.header.CreateTopicRequestHeader;
import org.apache.rocketmq.common.protocol.header.GetTopicStatsInfoRequestHeader;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;

/**
 * The few admin requests the harness needs, sent with the stock remoting client (no rocketmq-tools, whose logback
 * dependency would log to the console): cluster membership from the name server, topic creation with a given queue
 * count, broker runtime statistics, and per-topic offsets.
 */
public final class BrokerAdmin implements AutoCloseable {
    private static final long TIMEOUT_MS = 5_000;

    static {
        // Without this the requests carry version 0 and a 4.9 name server answers them on its legacy paths.
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
    }

    private final NettyRemotingClient client;

    public BrokerAdmin() {
        dev.rmqpatch.bench.logging.ClientLogging.ensureConfigured();
        NettyClientConfig config = new NettyClientConfig();
        config.setClientWorkerThreads(1);
        client = new NettyRemotingClient(config);
        client.start();
    }

    /** Master broker addresses registered at the name server, by broker name. */
    public Map<String, String> masterBrokers(String namesrv) throws AdminException {
        Map<String, String> masters = new HashMap<>();
        brokers(namesrv).forEach((name, addrs) -> {
            String master = addrs.get(MixAll.MASTER_ID);
            if (master != null) {
                masters.put(name, master);
            }
        });
        return masters;
    }

    /** Every broker registered at the name server: by broker name, the address of each brokerId (0 = master). */
    public Map<String, Map<Long, String>> brokers(String namesrv) throws AdminException {
        RemotingCommand response = call(namesrv, RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CLUSTER_INFO, null));
        ClusterInfo info = RemotingSerializable.decode(response.getBody(), ClusterInfo.class);
        Map<String, Map<Long, String>> brokers = new HashMap<>();
        if (info != null && info.getBrokerAddrTable() != null) {
            for (BrokerData data : info.getBrokerAddrTable().values()) {
                brokers.put(data.getBrokerName(), data.getBrokerAddrs() == null ? new HashMap<>() : new HashMap<>(data.getBrokerAddrs()));
            }
        }
        return brokers;
    }

    public void createTopic(String brokerAddr, String topic, int queues) throws AdminException {
        TopicConfig config = new TopicConfig(topic, queues, queues, 6);
        CreateTopicRequestHeader header = new CreateTopicRequestHeader();
        header.setTopic(topic);
        header.setDefaultTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC);
        header.setReadQueueNums(config.getReadQueueNums());
        header.setWriteQueueNums(config.getWriteQueueNums());
        header.setPerm(config.getPerm());
        header.setTopicFilterType(config.getTopicFilterType().name());
        header.setTopicSysFlag(config.getTopicSysFlag());
        header.setOrder(config.isOrder());
        call(brokerAddr, request(RequestCode.UPDATE_AND_CREATE_TOPIC, header));
    }

    /** The broker's runtime statistics (commitLogMaxOffset, msgPutTotalTodayNow, ...). */
    public Map<String, String> runtimeInfo(String brokerAddr) throws AdminException {
        RemotingCommand response = call(brokerAddr, RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_RUNTIME_INFO, null));
        KVTable table = RemotingSerializable.decode(response.getBody(), KVTable.class);
        return table == null || table.getTable() == null ? new HashMap<>() : table.getTable();
    }

    /** The broker's CommitLog max offset (bytes written), from its runtime statistics. */
    public long commitLogMaxOffset(String brokerAddr) throws AdminException {
        String value = runtimeInfo(brokerAddr).get("commitLogMaxOffset");
        if (value == null) {
            throw new AdminException("no commitLogMaxOffset in the runtime info of " + brokerAddr, null);
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new AdminException("commitLogMaxOffset of " + brokerAddr + " is not a number: " + value, e);
        }
    }

    /** Messages stored in the topic on this broker: the sum over its queues of max offset minus min offset. */
    public long storedMessages(String brokerAddr, String topic) throws AdminException {
        GetTopicStatsInfoRequestHeader header = new GetTopicStatsInfoRequestHeader();
        header.setTopic(topic);
        RemotingCommand response = call(brokerAddr, request(RequestCode.GET_TOPIC_STATS_INFO, header));
        TopicStatsTable stats = RemotingSerializable.decode(response.getBody(), TopicStatsTable.class);
        long total = 0;
        List<TopicOffset> offsets = stats == null ? new ArrayList<>() : new ArrayList<>(stats.getOffsetTable().values());
        for (TopicOffset offset : offsets) {
            total += offset.getMaxOffset() - offset.getMinOffset();
        }
        return total;
    }

    private static RemotingCommand request(int code, CommandCustomHeader header) {
        return RemotingCommand.createRequestCommand(code, header);
    }

    private RemotingCommand call(String addr, RemotingCommand request) throws AdminException {
        RemotingCommand response;
        try {
            response = client.invokeSync(addr, request, TIMEOUT_MS);
        } catch (Exception e) {
            throw new AdminException("request " + request.getCode() + " to " + addr + " failed: " + e.getMessage(), e);
        }
        if (response == null) {
            throw new AdminException("request " + request.getCode() + " to " + addr + ": no response", null);
        }
        if (response.getCode() != ResponseCode.SUCCESS) {
            throw new AdminException("request " + request.getCode() + " to " + addr + " answered code " + response.getCode()
                + ": " + response.getRemark(), null);
        }
        return response;
    }

    @Override
    public void close() {
        client.shutdown();
    }

    /** An admin request that failed; the message names the address and the broker's answer. */
    public static final class AdminException extends Exception {
        public AdminException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
