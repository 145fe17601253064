package dev.rmqpatch.bench.sink;

import io.netty.channel.ChannelHandlerContext;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The "remoting floor" sink: name server and broker in one port on the stock remoting server
 * ({@code NettyRemotingServer}, fastjson headers, a processor thread pool). It routes every topic to itself and
 * acknowledges every send at once without storing it, so its CPU per message is what any broker built on the stock
 * remoting layer pays before it stores anything. The harness ceiling is measured with {@link RawSinkServer}, which
 * costs far less.
 */
public final class SinkServer implements AutoCloseable {
    private final NettyRemotingServer server;
    private final ExecutorService executor;
    private final int defaultQueues;
    private final AtomicLong messages = new AtomicLong();

    public SinkServer(String bindHost, int port, int defaultQueues, int threads) {
        dev.rmqpatch.bench.logging.ClientLogging.ensureConfigured();
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
        if (LoopbackOnly.isLoopback(bindHost)) {
            // 4.9.0's remoting server has no bind address and listens on every interface; a sink announced on
            // loopback answers loopback peers only, as the raw sink (bound to the address) does.
            server.registerRPCHook(new LoopbackOnly());
        }
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
        private final SinkControlPlane control;

        Processor(String host) {
            this.control = new SinkControlPlane(() -> host + ":" + port(), defaultQueues, messages::get);
        }

        @Override
        public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand request) throws Exception {
            switch (request.getCode()) {
                case RequestCode.SEND_MESSAGE:
                case RequestCode.SEND_MESSAGE_V2:
                case RequestCode.SEND_BATCH_MESSAGE:
                    return acknowledge(request);
                default:
                    return control.process(request);
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

        @Override
        public boolean rejectRequest() {
            return false;
        }
    }
}
