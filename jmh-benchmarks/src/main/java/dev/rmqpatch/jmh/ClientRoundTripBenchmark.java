package dev.rmqpatch.jmh;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.EventExecutorGroup;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P26 (client pipeline on the IO thread): one synchronous send-shaped call (SEND_MESSAGE_V2 header, 300-byte body) of
 * a 4.9.0 {@code NettyRemotingClient} to an in-process 4.9.0 {@code NettyRemotingServer} on loopback, which answers
 * with a send response's fields; the time is the round trip as the calling thread sees it. Stock: the client as it
 * starts, its handlers on its {@code defaultEventExecutorGroup}. Patched: the same client class whose
 * {@code defaultEventExecutorGroup} is set to null after {@code start()} (its group shut down), so its channel
 * initializer adds the same handlers with a null group, which netty runs on the channel's event loop: what P26's
 * {@code ClientPipeline} does in the rewritten initializer (it drops the group argument). Both clients talk to the same
 * server, one call at a time; the server's own hops are the same for both. On a machine with few cores the hand-off
 * cost shows as CPU more than as latency: read it beside scripts/compare.sh's client CPU figures.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED"})
public class ClientRoundTripBenchmark {

    static final byte[] BODY = new byte[300];

    static {
        Arrays.fill(BODY, (byte) 'x');
    }

    /** The server and the two clients. */
    @State(Scope.Benchmark)
    public static class Rig {
        public NettyRemotingServer server;
        public ExecutorService serverExecutor;
        public NettyRemotingClient stockClient;
        public NettyRemotingClient patchedClient;
        public String addr;

        @Setup(Level.Trial)
        public void start() throws Exception {
            NettyServerConfig serverConfig = new NettyServerConfig();
            serverConfig.setListenPort(0);
            server = new NettyRemotingServer(serverConfig);
            serverExecutor = Executors.newFixedThreadPool(2);
            server.registerDefaultProcessor(new Answer(), serverExecutor);
            server.start();
            addr = "127.0.0.1:" + server.localListenPort();
            stockClient = new NettyRemotingClient(new NettyClientConfig());
            stockClient.start();
            patchedClient = new NettyRemotingClient(new NettyClientConfig());
            patchedClient.start();
            withoutExecutorGroup(patchedClient);
            // Connect both before measuring.
            stockClient.invokeSync(addr, request(), 10_000);
            patchedClient.invokeSync(addr, request(), 10_000);
        }

        @TearDown(Level.Trial)
        public void stop() {
            stockClient.shutdown();
            patchedClient.shutdown();
            server.shutdown();
            serverExecutor.shutdown();
        }
    }

    /** P26's effect on a stock client: its channel initializer reads this field for every new connection. */
    static void withoutExecutorGroup(NettyRemotingClient client) throws ReflectiveOperationException {
        Field f = NettyRemotingClient.class.getDeclaredField("defaultEventExecutorGroup");
        f.setAccessible(true);
        EventExecutorGroup group = (EventExecutorGroup) f.get(client);
        f.set(client, null);
        group.shutdownGracefully();
    }

    /** A send response's fields, as a broker answers SEND_MESSAGE_V2. */
    static final class Answer implements NettyRequestProcessor {
        @Override
        public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand request) {
            RemotingCommand response = RemotingCommand.createResponseCommand(0, null);
            response.addExtField("msgId", "7F00000100002A9F0000000000000F00");
            response.addExtField("queueId", "3");
            response.addExtField("queueOffset", "42");
            return response;
        }

        @Override
        public boolean rejectRequest() {
            return false;
        }
    }

    static RemotingCommand request() {
        SendMessageRequestHeaderV2 h = new SendMessageRequestHeaderV2();
        h.setA("benchmark-producer-group");
        h.setB("BenchmarkTopic");
        h.setC("TBW102");
        h.setD(4);
        h.setE(3);
        h.setF(0);
        h.setG(System.currentTimeMillis());
        h.setH(0);
        h.setI("UNIQ_KEY\u00017F000001000018B4AAC2612BB2BC0000\u0002WAIT\u0001true\u0002TAGS\u0001TagA\u0002");
        h.setJ(0);
        h.setK(false);
        h.setM(false);
        RemotingCommand c = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, h);
        c.setBody(BODY);
        return c;
    }

    @Benchmark
    public RemotingCommand stock(Rig r) throws Exception {
        return r.stockClient.invokeSync(r.addr, request(), 10_000);
    }

    @Benchmark
    public RemotingCommand patched(Rig r) throws Exception {
        return r.patchedClient.invokeSync(r.addr, request(), 10_000);
    }
}
