package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.AgentStatus;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.protocol.StartRequest;
import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The wire client against a misbehaving broker (stock remoting server, in process): refusals by response code,
 * unanswered requests and a broker that goes away are each counted by kind, outcomes still add up to sends, and a
 * broker that stays away ends the run with a message that says so.
 */
@Timeout(120)
class WireErrorsTest {
    private static final String TOPIC = "bench-err-0";

    private NettyRemotingServer server;
    private ExecutorService executor;
    private final AtomicLong sends = new AtomicLong();

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.shutdown();
        }
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    /** Answers sends in turn: SEND_OK, SYSTEM_BUSY (flow control), TOPIC_NOT_EXIST, FLUSH_DISK_TIMEOUT, no answer. */
    private int startBroker() {
        dev.rmqpatch.bench.logging.ClientLogging.ensureConfigured();
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        server = new NettyRemotingServer(config);
        executor = Executors.newFixedThreadPool(2);
        server.registerDefaultProcessor(new NettyRequestProcessor() {
            @Override
            public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand request) {
                if (request.getCode() == RequestCode.GET_ROUTEINFO_BY_TOPIC) {
                    RemotingCommand r = RemotingCommand.createResponseCommand(ResponseCode.SUCCESS, null);
                    r.setBody(route("127.0.0.1:" + server.localListenPort()).encode());
                    return r;
                }
                if (request.getCode() != RequestCode.SEND_MESSAGE_V2) {
                    return RemotingCommand.createResponseCommand(ResponseCode.SUCCESS, null);
                }
                switch ((int) (sends.getAndIncrement() % 5)) {
                    case 0:
                        return ok(ResponseCode.SUCCESS);
                    case 1:
                        return RemotingCommand.createResponseCommand(ResponseCode.SYSTEM_BUSY,
                            "[TIMEOUT_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: 205ms");
                    case 2:
                        return RemotingCommand.createResponseCommand(ResponseCode.TOPIC_NOT_EXIST, "topic[" + TOPIC + "] not exist");
                    case 3:
                        return ok(ResponseCode.FLUSH_DISK_TIMEOUT);
                    default:
                        return null;
                }
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        }, executor);
        server.start();
        return server.localListenPort();
    }

    private static RemotingCommand ok(int code) {
        RemotingCommand r = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader h = (SendMessageResponseHeader) r.readCustomHeader();
        h.setMsgId("00");
        h.setQueueId(0);
        h.setQueueOffset(0L);
        r.setCode(code);
        return r;
    }

    private static TopicRouteData route(String addr) {
        QueueData q = new QueueData();
        q.setBrokerName("b");
        q.setReadQueueNums(2);
        q.setWriteQueueNums(2);
        q.setPerm(6);
        List<QueueData> qs = new ArrayList<>();
        qs.add(q);
        HashMap<Long, String> addrs = new HashMap<>();
        addrs.put(MixAll.MASTER_ID, addr);
        List<BrokerData> bs = new ArrayList<>();
        bs.add(new BrokerData("c", "b", addrs));
        TopicRouteData r = new TopicRouteData();
        r.setQueueDatas(qs);
        r.setBrokerDatas(bs);
        r.setFilterServerTable(new HashMap<>());
        return r;
    }

    private static PrepareRequest request(int port) {
        PrepareRequest r = new PrepareRequest();
        r.client = "wire";
        r.runId = "err";
        r.namesrv = "127.0.0.1:" + port;
        r.topics = List.of(TOPIC);
        r.partitionsPerTopic = 2;
        r.messageSize = 100;
        r.producersPerTopic = 1;
        r.threads = 4;
        r.mode = "sync";
        r.sendTimeoutMs = 300;
        return r;
    }

    @Test
    void refusalsTimeoutsAndLostConnectionsAreCountedByKindAndADeadBrokerEndsTheRun() throws Exception {
        int port = startBroker();
        Agent agent = new Agent("wire-err");
        agent.prepare(request(port));
        agent.start(new StartRequest());
        Thread.sleep(1500);
        agent.measure();
        Map<String, Long> progressKinds = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            Thread.sleep(500);
            ProgressReport p = agent.progress();
            if (p.errorsByKind != null) {
                p.errorsByKind.forEach((k, n) -> progressKinds.merge(k, n, Long::sum));
            }
        }
        assertTrue(progressKinds.keySet().stream().anyMatch(k -> k.contains("SYSTEM_BUSY [TIMEOUT_CLEAN_QUEUE]")), "" + progressKinds);
        assertTrue(progressKinds.containsKey("Timeout"), "" + progressKinds);

        // The broker goes away: what was in flight is lost, reconnects fail, and after a while the agent gives up.
        server.shutdown();
        server = null;
        long deadline = System.currentTimeMillis() + 30_000;
        AgentStatus status = agent.status();
        while (!"FAILED".equals(status.state) && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            status = agent.status();
        }
        assertEquals("FAILED", status.state);
        assertNotNull(status.error);
        assertTrue(status.error.contains("no send was acknowledged") && status.error.contains("ConnectFailed"), status.error);
        ProgressReport last = agent.progress();
        assertEquals("FAILED", last.state);
        agent.reset();
    }

    @Test
    void outcomesAddUpAndEveryKindIsInTheResult() throws Exception {
        int port = startBroker();
        Agent agent = new Agent("wire-err");
        agent.prepare(request(port));
        agent.start(new StartRequest());
        Thread.sleep(500);
        agent.measure();
        Thread.sleep(2000);
        AgentResult r = agent.stop();
        assertTrue(r.window.balanced() && r.total.balanced(), "outcomes add up to sends");
        assertEquals(0, r.window.inFlight, "unanswered sends timed out before the stop finished waiting");
        assertTrue(r.byStatus.containsKey("SEND_OK") && r.byStatus.containsKey("FLUSH_DISK_TIMEOUT"), "" + r.byStatus);
        assertTrue(r.byError.keySet().stream().anyMatch(k -> k.startsWith("BrokerResponse(code=2 SYSTEM_BUSY")), "" + r.byError);
        assertTrue(r.byError.keySet().stream().anyMatch(k -> k.startsWith("BrokerResponse(code=17 TOPIC_NOT_EXIST")), "" + r.byError);
        assertTrue(r.byError.containsKey("Timeout"), "" + r.byError);
        for (String kind : r.byError.keySet()) {
            assertNotNull(r.errorSamples.get(kind), "a sample for " + kind);
        }
        long errors = r.byError.values().stream().mapToLong(Long::longValue).sum();
        assertEquals(r.window.failed, errors, "every failure has a kind");
    }
}
