package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * P17. Targets: {@code NettySystemConfig.<clinit>} and {@code NettyRemotingServer.start()},
 * {@code NettyRemotingClient.start()}, {@code RemotingUtil.connect(SocketAddress, int)} in rocketmq-remoting;
 * {@code BrokerStartup.createBrokerController} in rocketmq-broker; {@code HAConnection.<init>} in rocketmq-store.
 * Replacement: the calls that size socket buffers go through codec's {@code SocketBuffers}, which sets a size only
 * when one is configured, as RocketMQ 4.9.3 does (apache/rocketmq#3826): the two buffer properties default to 0
 * (unset) instead of 65535, the broker no longer raises an absent one to 131072, and the HA sockets take the
 * property's size instead of a fixed 64 KB.
 * Why: a socket whose SO_SNDBUF/SO_RCVBUF is set loses Linux's buffer autotuning, so a 64 or 128 KB buffer caps what
 * one connection has in flight at that size per round trip.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class SocketBuffersPatch implements Patch {

    @Override
    public String id() {
        return "P17";
    }

    @Override
    public String name() {
        return "socket-buffers";
    }

    @Override
    public String buys() {
        return "remoting and HA sockets keep the kernel's autotuned buffers instead of 64/128 KB pinned ones, as 4.9.3 "
            + "(#3826); a configured size still set";
    }

    @Override
    public String effect() {
        return "The name server's and broker's remoting channels (accepted and connected) and the HA sockets (master "
            + "and slave side) no longer set SO_SNDBUF/SO_RCVBUF unless a size is configured, so Linux autotunes them: "
            + "-Dcom.rocketmq.remoting.socket.sndbuf.size/rcvbuf.size default to 0 (unset) instead of 65535, the broker "
            + "no longer raises an absent one to 131072, and the HA sockets take those properties' sizes instead of a "
            + "fixed 64 KB. A size given by the property or a config file (serverSocketSndBufSize, "
            + "clientSocketRcvBufSize...) is set on the remoting channels as stock sets it.";
    }

    @Override
    public String why() {
        return "A socket whose SO_SNDBUF/SO_RCVBUF is set loses Linux's autotuning: stock leaves the broker's channels "
            + "at 256 KB and the HA sockets at 128 KB (the kernel doubles the 128 and 64 KB set; SocketBuffersIT reads "
            + "them), so one connection has at most that in flight per round trip. apache/rocketmq#3826 measured 3.85x "
            + "to 7.93x the send throughput with 4 KB to 100 KB bodies, and 0.93x with 250 B, on a SYNC_MASTER + SLAVE "
            + "at 1.6 ms latency. On loopback the autotuned send buffers start at megabytes (SocketBuffersIT), but with "
            + "300 B messages at a fixed rate the pinned ones do not fill either: no CPU saving per message is expected "
            + "on one host, and none is measured here.";
    }

    @Override
    public String verification() {
        return "ss -tm on a broker host: the broker's and its HA port's connections show tb/rb other than 262144 and "
            + "131072 and growing under load; with -Drmqpatch.disable=P17 they are pinned at stock's sizes, and with "
            + "-Dcom.rocketmq.remoting.socket.sndbuf.size=N at 2N.";
    }

    @Override
    public String tests() {
        return "SocketBuffersIT; codec: SocketBuffersTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency --topology ms-sync with and without -Drmqpatch.disable=P17";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3 leaves the socket buffers to the kernel unless configured (#3826); "
            + "its NettySystemConfig reads 12 properties (witness only, not read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new ReplaceCall(Stock.NETTY_SYSTEM_CONFIG_INIT, Stock.SYSTEM_GET_PROPERTY_DEFAULT,
                Codec.BUFFER_PROPERTY_DEFAULT, 5),
            new ReplaceCall(Stock.CREATE_BROKER_CONTROLLER, Stock.SYSTEM_GET_PROPERTY, Codec.BUFFER_PROPERTY, 2),
            ReplaceCall.ofInstanceCall(Stock.REMOTING_SERVER_START, Stock.SERVER_CHILD_OPTION, Opcodes.INVOKEVIRTUAL,
                Codec.BUFFER_CHILD_OPTION, 4),
            ReplaceCall.ofInstanceCall(Stock.REMOTING_CLIENT_START, Stock.CLIENT_BOOTSTRAP_OPTION, Opcodes.INVOKEVIRTUAL,
                Codec.BUFFER_CLIENT_OPTION, 5),
            ReplaceCall.ofInstanceCall(Stock.REMOTING_UTIL_CONNECT, Stock.SOCKET_SET_RECEIVE_BUFFER_SIZE,
                Opcodes.INVOKEVIRTUAL, Codec.HA_RECEIVE_BUFFER, 1),
            ReplaceCall.ofInstanceCall(Stock.REMOTING_UTIL_CONNECT, Stock.SOCKET_SET_SEND_BUFFER_SIZE,
                Opcodes.INVOKEVIRTUAL, Codec.HA_SEND_BUFFER, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_CONNECTION_INIT, Stock.SOCKET_SET_RECEIVE_BUFFER_SIZE,
                Opcodes.INVOKEVIRTUAL, Codec.HA_RECEIVE_BUFFER, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_CONNECTION_INIT, Stock.SOCKET_SET_SEND_BUFFER_SIZE,
                Opcodes.INVOKEVIRTUAL, Codec.HA_SEND_BUFFER, 1));
    }
}
