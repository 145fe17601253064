package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/**
 * P17 on a real SYNC_MASTER + SLAVE and name server started from the patched distribution: the kernel's view of each
 * server socket's buffers (sk_sndbuf and sk_rcvbuf, what getsockopt(SO_SNDBUF/SO_RCVBUF) returns, read with
 * {@code ss -tmnp} from the netlink socket diagnostics and attributed to a server by its pid) for five kinds of
 * socket: the master's accepted remoting channels, its client channel to the name server, the name server's accepted
 * channels, the master's HA connection and the slave's.
 * <ul>
 * <li>with -Drmqpatch.disable=P17: stock's pinned sizes, exactly (Linux reports twice the size set: 2 x 131072 for the
 * broker's channels, 2 x 65535 for the name server's, 2 x 65536 for HA);</li>
 * <li>patched: none is pinned; the send buffers are autotuned (on loopback the kernel starts a connection's at
 * megabytes, above every pinned size);</li>
 * <li>an explicit size (the -D properties, a config file's serverSocketSndBufSize) is set where stock sets it.</li>
 * </ul>
 * The receive buffers of an autotuned socket start at tcp_rmem's default, 131072 on most kernels, which is also
 * stock's HA size, so the HA sockets' receive buffers are checked only where they are set.
 */
class SocketBuffersIT {

    private static final int STOCK_BROKER = 2 * 131072;
    private static final int STOCK_NAMESRV = 2 * 65535;
    private static final int STOCK_HA = 2 * 65536;

    @Test
    void switchedOffEverySocketIsPinnedAtStocksSizes() throws Exception {
        try (TestCluster tc = cluster("-Drmqpatch.disable=P17")) {
            Sockets s = Sockets.of(tc);
            s.assertEach("master remoting (accepted)", s.masterRemoting, STOCK_BROKER, STOCK_BROKER);
            s.assertEach("master -> name server", s.masterToNamesrv, STOCK_BROKER, STOCK_BROKER);
            s.assertEach("name server (accepted)", s.namesrvAccepted, STOCK_NAMESRV, STOCK_NAMESRV);
            s.assertEach("master HA", s.masterHa, STOCK_HA, STOCK_HA);
            s.assertEach("slave HA", s.slaveHa, STOCK_HA, STOCK_HA);
        }
    }

    @Test
    void patchedNoSocketIsPinned() throws Exception {
        try (TestCluster tc = cluster()) {
            Sockets s = Sockets.of(tc);
            for (List<Sock> kind : List.of(s.masterRemoting, s.masterToNamesrv, s.namesrvAccepted, s.masterHa, s.slaveHa)) {
                for (Sock sock : kind) {
                    assertTrue(sock.tb > STOCK_BROKER, "send buffer autotuned, above every pinned size: " + sock);
                }
            }
            for (List<Sock> kind : List.of(s.masterRemoting, s.masterToNamesrv, s.namesrvAccepted)) {
                for (Sock sock : kind) {
                    assertTrue(sock.rb != STOCK_BROKER && sock.rb != STOCK_NAMESRV, "receive buffer not pinned: " + sock);
                }
            }
        }
    }

    @Test
    void explicitSizesAreSetAsStockSetsThem() throws Exception {
        int property = 100_000;
        int conf = 150_000;
        try (TestCluster tc = cluster("-Dcom.rocketmq.remoting.socket.sndbuf.size=" + property
            + " -Dcom.rocketmq.remoting.socket.rcvbuf.size=" + property, "serverSocketSndBufSize=" + conf)) {
            Sockets s = Sockets.of(tc);
            s.assertEach("master remoting (accepted): conf's send size, the property's receive size", s.masterRemoting,
                2 * conf, 2 * property);
            s.assertEach("master -> name server: the property's", s.masterToNamesrv, 2 * property, 2 * property);
            s.assertEach("name server (accepted): the property's", s.namesrvAccepted, 2 * property, 2 * property);
            // Stock keeps HA at 64 KB whatever is configured; patched, as 4.9.3, the HA sockets take the property's.
            s.assertEach("master HA: the property's", s.masterHa, 2 * property, 2 * property);
            s.assertEach("slave HA: the property's", s.slaveHa, 2 * property, 2 * property);
        }
    }

    /** A patched SYNC_MASTER + SLAVE with JVM flags for all servers and broker config overrides. */
    private static TestCluster cluster(String... flagsThenConf) {
        try {
            String[] conf = flagsThenConf.length > 1 ? new String[] {flagsThenConf[1]} : new String[0];
            TestCluster tc = new TestCluster(TestCluster.dist("patched"), "ms-sync/broker-a.conf", conf)
                .topology(Topology.MS_SYNC);
            if (flagsThenConf.length > 0) {
                tc.javaOpt(flagsThenConf[0]);
            }
            return tc.start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One established TCP socket of a server process, as ss reports it. */
    record Sock(long pid, int localPort, int peerPort, int rb, int tb) {
    }

    /** The five kinds of server socket, each found at least once (a missing kind fails rather than passes). */
    static final class Sockets {
        List<Sock> masterRemoting;
        List<Sock> masterToNamesrv;
        List<Sock> namesrvAccepted;
        List<Sock> masterHa;
        List<Sock> slaveHa;

        static Sockets of(TestCluster tc) throws Exception {
            DefaultMQProducer producer = sendSome(tc);
            try {
                return find(tc.cluster());
            } finally {
                producer.shutdown();
            }
        }

        private static Sockets find(LocalCluster c) throws Exception {
            long master = c.brokerPid();
            long slave = c.slave().process().pid();
            long namesrv = c.namesrvPid();
            int broker = c.brokerPort();
            int ha = broker + 1;
            int ns = c.namesrvPort();
            Sockets s = new Sockets();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                List<Sock> all = established();
                s.masterRemoting = pick(all, k -> k.pid == master && k.localPort == broker);
                s.masterToNamesrv = pick(all, k -> k.pid == master && k.peerPort == ns);
                s.namesrvAccepted = pick(all, k -> k.pid == namesrv && k.localPort == ns);
                s.masterHa = pick(all, k -> k.pid == master && k.localPort == ha);
                s.slaveHa = pick(all, k -> k.pid == slave && k.peerPort == ha);
                boolean complete = !s.masterRemoting.isEmpty() && !s.masterToNamesrv.isEmpty()
                    && !s.namesrvAccepted.isEmpty() && !s.masterHa.isEmpty() && !s.slaveHa.isEmpty();
                if (complete) {
                    System.out.println("SocketBuffersIT: " + all);
                    return s;
                }
                assertFalse(System.nanoTime() > deadline, "not every kind of server socket is established: " + all);
                Thread.sleep(500);
            }
        }

        void assertEach(String what, List<Sock> socks, int tb, int rb) {
            for (Sock sock : socks) {
                assertEquals(tb, sock.tb, what + ", send buffer: " + sock);
                assertEquals(rb, sock.rb, what + ", receive buffer: " + sock);
            }
        }

        private static List<Sock> pick(List<Sock> all, Predicate<Sock> which) {
            return all.stream().filter(which).toList();
        }
    }

    /** A few synchronous sends through the master: a producer connected to it and blocks replicated over HA. */
    private static DefaultMQProducer sendSome(TestCluster tc) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("socket-buffers-it");
        producer.setNamesrvAddr(tc.namesrvAddr());
        producer.setSendMsgTimeout(10_000);
        producer.start();
        try {
            byte[] body = new byte[4096];
            for (int i = 0; i < 50; i++) {
                assertEquals(SendStatus.SEND_OK, producer.send(new Message("SocketBuffersIT", body)).getSendStatus());
            }
        } catch (Exception e) {
            producer.shutdown();
            throw e;
        }
        return producer; // still connected: its channel to the master is one of the accepted ones read
    }

    private static final Pattern LINE = Pattern.compile(
        "\\S+:(\\d+)\\s+\\S+:(\\d+)\\s+users:\\(\\(\"[^\"]*\",pid=(\\d+),.*skmem:\\(r\\d+,rb(\\d+),t\\d+,tb(\\d+),");

    /** Every established TCP socket of this host with its owner, from {@code ss -tmnpH state established}. */
    static List<Sock> established() throws IOException, InterruptedException {
        Process ss = new ProcessBuilder("ss", "-tmnpH", "state", "established").redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ss.waitFor(30, TimeUnit.SECONDS) && ss.exitValue() == 0, "ss failed: " + out);
        List<Sock> socks = new ArrayList<>();
        // ss prints a socket's memory on an indented line of its own.
        for (String record : out.replace("\n\t", " ").replace("\n ", " ").split("\n")) {
            Matcher m = LINE.matcher(record);
            if (m.find()) {
                socks.add(new Sock(Long.parseLong(m.group(3)), Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))));
            }
        }
        return socks;
    }
}
