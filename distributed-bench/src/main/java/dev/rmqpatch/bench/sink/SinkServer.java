package dev.rmqpatch.bench.sink;

import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.body.ClusterInfo;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * A no-op RocketMQ endpoint: name server and broker in one port, on the stock remoting server. It routes every topic to
 * itself and acknowledges every send at once without decoding or storing it, so a run against it measures what the
 * load generator, the client and the network stack can do on this machine: the harness's own ceiling.
 */
public final class SinkServer implements AutoCloseable {
    private static final String BROKER_NAME = "sink";
    private static final String CLUSTER = "sink-cluster";

    private final NettyRemotingServer server;
    private final ExecutorService executor;
    private final int defaultQueues;
    private final Map<String, Integer> queuesByTopic = new ConcurrentHashMap<>();
    private final AtomicLong messages = new AtomicLong();

    public SinkServer(String bindHost, int port, int defaultQueues, int threads) {
        dev.rmqpatch.bench.ClientLogging.ensureConfigured();
        this.defaultQueues = defaultQueues;
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(port);
        server = new NettyRemotingServer(config);
        executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sink-processor");
            t.setDaemon(true);
            return t;
        });
        server.registerDefaultProcessor(new Processor(bindHost), executor);
        server.start();
    }

    public int port() {
        return server.localListenPort();
    }

    public long messages() {
        return messages.get();
    }

    @Override
    public void close() {
        server.shutdown();
        executor.shutdownNow();
    }

    private final class Processor implements NettyRequestProcessor {
        private final String host;

        Processor(String host) {
            this.host = host;
        }

        private String addr() {
            return host + ":" + port();
        }

        @Override
        public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand request) throws Exception {
            switch (request.getCode()) {
                case RequestCode.SEND_MESSAGE:
                case RequestCode.SEND_MESSAGE_V2:
                case RequestCode.SEND_BATCH_MESSAGE:
                    return acknowledge(request);
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
                    values.put("msgPutTotalTodayNow", Long.toString(messages.get()));
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

        private RemotingCommand acknowledge(RemotingCommand request) {
            long offset = messages.getAndIncrement();
            Map<String, String> ext = request.getExtFields();
            // SEND_MESSAGE_V2 abbreviates header field names; "e" is the queue id.
            String queue = ext == null ? null : ext.getOrDefault("e", ext.get("queueId"));
            RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
            SendMessageResponseHeader header = (SendMessageResponseHeader) response.readCustomHeader();
            header.setMsgId(String.format("5151%028X", offset));
            header.setQueueId(queue == null ? 0 : Integer.parseInt(queue));
            header.setQueueOffset(offset);
            response.setCode(ResponseCode.SUCCESS);
            response.setRemark(null);
            return response;
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
            addrs.put(MixAll.MASTER_ID, addr());
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

        private RemotingCommand success(byte[] body) {
            RemotingCommand response = RemotingCommand.createResponseCommand(ResponseCode.SUCCESS, null);
            response.setBody(body);
            return response;
        }

        @Override
        public boolean rejectRequest() {
            return false;
        }
    }
}
