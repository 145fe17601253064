package dev.rmqpatch.bench.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.body.ClusterInfo;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Everything a sink answers besides sends, shared by both sinks: it is the name server (routes of every topic to
 * itself, cluster info) and the broker's admin side (topic creation, the runtime statistics the coordinator reads),
 * with stock RocketMQ classes. A handful of calls per run, so cost does not matter here.
 */
final class SinkControlPlane {
    static final String BROKER_NAME = "sink";
    static final String CLUSTER = "sink-cluster";

    private final Supplier<String> address;
    private final int defaultQueues;
    private final LongSupplier messages;
    private final Map<String, Integer> queuesByTopic = new ConcurrentHashMap<>();

    /**
     * @param address  "host:port" announced in routes
     * @param messages sends acknowledged so far, reported as msgPutTotalTodayNow
     */
    SinkControlPlane(Supplier<String> address, int defaultQueues, LongSupplier messages) {
        this.address = address;
        this.defaultQueues = defaultQueues;
        this.messages = messages;
    }

    /** The answer to a non-send request (the caller sets its opaque). */
    RemotingCommand process(RemotingCommand request) {
        switch (request.getCode()) {
            case RequestCode.GET_ROUTEINFO_BY_TOPIC:
                return success(route(request.getExtFields() == null ? null : request.getExtFields().get("topic")).encode());
            case RequestCode.GET_BROKER_CLUSTER_INFO:
                return success(clusterInfo().encode());
            case RequestCode.UPDATE_AND_CREATE_TOPIC: {
                Map<String, String> ext = request.getExtFields();
                queuesByTopic.put(ext.get("topic"), Integer.parseInt(ext.get("writeQueueNums")));
                return success(null);
            }
            case RequestCode.GET_BROKER_RUNTIME_INFO: {
                KVTable table = new KVTable();
                HashMap<String, String> values = new HashMap<>();
                values.put("msgPutTotalTodayNow", Long.toString(messages.getAsLong()));
                table.setTable(values);
                return success(table.encode());
            }
            case RequestCode.HEART_BEAT:
            case RequestCode.UNREGISTER_CLIENT:
                return success(null);
            default:
                return RemotingCommand.createResponseCommand(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    "the sink does not handle request code " + request.getCode());
        }
    }

    private TopicRouteData route(String topic) {
        int queues = topic == null ? defaultQueues : queuesByTopic.getOrDefault(topic, defaultQueues);
        QueueData queueData = new QueueData();
        queueData.setBrokerName(BROKER_NAME);
        queueData.setReadQueueNums(queues);
        queueData.setWriteQueueNums(queues);
        queueData.setPerm(6);
        List<QueueData> queueDatas = new ArrayList<>();
        queueDatas.add(queueData);
        TopicRouteData route = new TopicRouteData();
        route.setQueueDatas(queueDatas);
        List<BrokerData> brokers = new ArrayList<>();
        brokers.add(brokerData());
        route.setBrokerDatas(brokers);
        route.setFilterServerTable(new HashMap<>());
        return route;
    }

    private BrokerData brokerData() {
        HashMap<Long, String> addrs = new HashMap<>();
        addrs.put(MixAll.MASTER_ID, address.get());
        return new BrokerData(CLUSTER, BROKER_NAME, addrs);
    }

    private ClusterInfo clusterInfo() {
        ClusterInfo info = new ClusterInfo();
        HashMap<String, BrokerData> brokers = new HashMap<>();
        brokers.put(BROKER_NAME, brokerData());
        info.setBrokerAddrTable(brokers);
        HashMap<String, java.util.Set<String>> clusters = new HashMap<>();
        clusters.put(CLUSTER, new java.util.HashSet<>(List.of(BROKER_NAME)));
        info.setClusterAddrTable(clusters);
        return info;
    }

    private static RemotingCommand success(byte[] body) {
        RemotingCommand response = RemotingCommand.createResponseCommand(ResponseCode.SUCCESS, null);
        response.setBody(body);
        return response;
    }
}
