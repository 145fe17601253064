package dev.rmqpatch.bench.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Collections;
import java.util.Optional;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;

/** The stock-remoting sink listens on every interface (4.9.0 cannot bind one address); it answers loopback peers only. */
class LoopbackOnlyTest {

    @Test
    void peersAreJudgedByTheirLiteralAddress() {
        assertEquals("127.0.0.1", LoopbackOnly.host("127.0.0.1:4242"));
        assertEquals("::1", LoopbackOnly.host("[::1]:4242"));
        assertTrue(LoopbackOnly.isLoopback("127.0.0.1"));
        assertTrue(LoopbackOnly.isLoopback("127.3.4.5"));
        assertTrue(LoopbackOnly.isLoopback("::1"));
        assertFalse(LoopbackOnly.isLoopback("10.0.0.7"));
        assertFalse(LoopbackOnly.isLoopback("localhost"), "names are not looked up");
        assertFalse(LoopbackOnly.isLoopback(""));
    }

    @Test
    void aPeerOnAnotherAddressIsRefusedAndLoopbackIsServed() throws Exception {
        Optional<InetAddress> other = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
            .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
            .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()).findFirst();
        assumeTrue(other.isPresent(), "this host has no non-loopback IPv4 address to connect from");
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try (SinkServer sink = new SinkServer("127.0.0.1", 0, 4, 2)) {
            RemotingCommand viaLoopback = client.invokeSync("127.0.0.1:" + sink.port(),
                RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_RUNTIME_INFO, null), 5_000);
            assertNotEquals(ResponseCode.SYSTEM_ERROR, viaLoopback.getCode(), String.valueOf(viaLoopback.getRemark()));
            RemotingCommand viaOther = client.invokeSync(other.get().getHostAddress() + ":" + sink.port(),
                RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_RUNTIME_INFO, null), 5_000);
            assertEquals(ResponseCode.SYSTEM_ERROR, viaOther.getCode());
            assertTrue(String.valueOf(viaOther.getRemark()).contains("loopback clients only"), viaOther.getRemark());
        } finally {
            client.shutdown();
        }
    }
}
