package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import org.apache.rocketmq.remoting.netty.NettySystemConfig;
import org.junit.jupiter.api.Test;

/**
 * P17 against stock: a size that is configured (positive) is set exactly as stock sets it, on the bootstraps' options
 * and on the HA sockets; a size nobody configured is not set at all, so the socket keeps the kernel's buffers.
 */
class SocketBuffersTest {

    private static final ChannelOption<?>[] OPTIONS = {ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF,
        ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE, ChannelOption.CONNECT_TIMEOUT_MILLIS};
    private static final ChannelOption<?>[] OPTIONS_BOOLEAN = {ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE};

    @Test
    void theBufferPropertiesDefaultToUnsetAndAGivenValueIsKept() {
        String key = SocketBuffers.SNDBUF_KEY;
        String before = System.getProperty(key);
        try {
            System.clearProperty(key);
            assertEquals("0", SocketBuffers.systemProperty(key, "65535"), "absent: unset instead of 65535");
            assertEquals("0", SocketBuffers.systemProperty(key), "absent: the broker does not raise it to 131072");
            System.setProperty(key, "131071");
            assertEquals("131071", SocketBuffers.systemProperty(key, "65535"), "an operator's -D value is kept");
            assertEquals("131071", SocketBuffers.systemProperty(key));
        } finally {
            restore(key, before);
        }
        assertEquals("65535", SocketBuffers.systemProperty("rmqpatch.test.absent", "65535"), "other keys: stock");
        assertNull(SocketBuffers.systemProperty("rmqpatch.test.absent"), "other keys: stock");
        if (System.getProperty(SocketBuffers.RCVBUF_KEY) == null) {
            assertEquals("0", SocketBuffers.systemProperty(SocketBuffers.RCVBUF_KEY, "65535"), "the receive size too");
        }
    }

    @Test
    void bootstrapOptionsAreStocksExceptBufferSizesNobodyGave() {
        Random random = new Random(17);
        for (int round = 0; round < 500; round++) {
            RecordingServer stockServer = new RecordingServer();
            RecordingServer patchedServer = new RecordingServer();
            RecordingClient stockClient = new RecordingClient();
            RecordingClient patchedClient = new RecordingClient();
            Map<ChannelOption<?>, Object> given = new HashMap<ChannelOption<?>, Object>();
            // Each option once, in a random order and a random subset, as the remoting start() methods set them.
            List<ChannelOption<?>> options = new ArrayList<ChannelOption<?>>(Arrays.asList(OPTIONS));
            Collections.shuffle(options, random);
            for (int i = 0; i < 1 + random.nextInt(OPTIONS.length); i++) {
                @SuppressWarnings("unchecked")
                ChannelOption<Object> option = (ChannelOption<Object>) options.get(i);
                boolean flag = OPTIONS_BOOLEAN[0] == (Object) option || OPTIONS_BOOLEAN[1] == (Object) option;
                Object value = flag
                    ? (Object) random.nextBoolean() : (Object) (random.nextInt(4) == 0 ? 0 : random.nextInt(1 << 20) - 1000);
                given.put(option, value);
                stockServer.childOption(option, value);
                assertSame(patchedServer, SocketBuffers.childOption(patchedServer, option, value));
                stockClient.option(option, value);
                assertSame(patchedClient, SocketBuffers.option(patchedClient, option, value));
            }
            Map<ChannelOption<?>, Object> expected = new HashMap<ChannelOption<?>, Object>(stockServer.set);
            for (Map.Entry<ChannelOption<?>, Object> e : given.entrySet()) {
                if (SocketBuffers.unset(e.getKey(), e.getValue())) {
                    expected.remove(e.getKey());
                }
            }
            assertEquals(expected, patchedServer.set, "server, given " + given);
            Map<ChannelOption<?>, Object> expectedClient = new HashMap<ChannelOption<?>, Object>(stockClient.set);
            expectedClient.keySet().removeIf(o -> SocketBuffers.unset(o, given.get(o)));
            assertEquals(expectedClient, patchedClient.set, "client, given " + given);
        }
        assertFalse(SocketBuffers.unset(ChannelOption.SO_SNDBUF, 1));
        assertFalse(SocketBuffers.unset(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0));
    }

    @Test
    void haSocketsTakeTheConfiguredSizeOrKeepTheKernels() throws Exception {
        int snd = NettySystemConfig.socketSndbufSize;
        int rcv = NettySystemConfig.socketRcvbufSize;
        Random random = new Random(1717);
        try (Socket fresh = new Socket()) {
            int kernelSnd = fresh.getSendBufferSize();
            int kernelRcv = fresh.getReceiveBufferSize();
            for (int round = 0; round < 50; round++) {
                int size = 4096 + random.nextInt(1 << 20);
                int other = 4096 + random.nextInt(1 << 20);
                try (Socket stock = new Socket(); Socket patched = new Socket(); Socket unset = new Socket()) {
                    stock.setSendBufferSize(size);
                    stock.setReceiveBufferSize(other);
                    NettySystemConfig.socketSndbufSize = size;
                    NettySystemConfig.socketRcvbufSize = other;
                    SocketBuffers.setSendBufferSize(patched, 1024 * 64);
                    SocketBuffers.setReceiveBufferSize(patched, 1024 * 64);
                    assertEquals(stock.getSendBufferSize(), patched.getSendBufferSize(), "configured " + size);
                    assertEquals(stock.getReceiveBufferSize(), patched.getReceiveBufferSize(), "configured " + other);
                    NettySystemConfig.socketSndbufSize = random.nextBoolean() ? 0 : -size;
                    NettySystemConfig.socketRcvbufSize = 0;
                    SocketBuffers.setSendBufferSize(unset, 1024 * 64);
                    SocketBuffers.setReceiveBufferSize(unset, 1024 * 64);
                    assertEquals(kernelSnd, unset.getSendBufferSize(), "unset: the kernel's");
                    assertEquals(kernelRcv, unset.getReceiveBufferSize(), "unset: the kernel's");
                }
            }
        } finally {
            NettySystemConfig.socketSndbufSize = snd;
            NettySystemConfig.socketRcvbufSize = rcv;
        }
    }

    /** The child options set on a server bootstrap, as netty keeps them (the last value of an option wins). */
    private static final class RecordingServer extends ServerBootstrap {
        final Map<ChannelOption<?>, Object> set = new HashMap<ChannelOption<?>, Object>();

        @Override
        public <T> ServerBootstrap childOption(ChannelOption<T> option, T value) {
            set.put(option, value);
            return super.childOption(option, value);
        }
    }

    /** The options set on a client bootstrap. */
    private static final class RecordingClient extends Bootstrap {
        final Map<ChannelOption<?>, Object> set = new HashMap<ChannelOption<?>, Object>();

        @Override
        public <T> Bootstrap option(ChannelOption<T> option, T value) {
            set.put(option, value);
            return super.option(option, value);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
