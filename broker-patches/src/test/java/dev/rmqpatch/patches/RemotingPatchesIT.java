package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remoting patches (P7 handlers on the IO thread, P8 cached remote address, P9 inline response) where they
 * meet the parts of the server that change its pipeline or read the address: TLS, whose handshake handler adds
 * the SSL handler to the pipeline per connection, and the ACL RPC hook, which checks the client's address and
 * signature on every request. Every stock producer also sends on the VIP channel (listenPort-2), another patched
 * server. Clients are stock 4.9.0 in their own JVMs.
 */
class RemotingPatchesIT {

    private static final String ACCESS_KEY = "rmqpatchAK";
    private static final String SECRET_KEY = "rmqpatchSecret42";

    @TempDir
    Path tmp;

    @Test
    void tlsEnforcedOnNameServerAndBroker() throws Exception {
        Path cert = tmp.resolve("cert.pem");
        Path key = tmp.resolve("key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-keyout", key.toString(), "-out", cert.toString()).redirectErrorStream(true).start();
        String out = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0, "openssl: " + out);

        // Both servers accept TLS only; the broker, as a client of the name server, speaks TLS too.
        String tls = "-Dtls.server.mode=enforcing -Dtls.enable=true -Dtls.test.mode.enable=false"
            + " -Dtls.server.certPath=" + cert + " -Dtls.server.keyPath=" + key;
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf").javaOpt(tls).start()) {
            assertRemotingPatchesActive(c);
            DropInIT.roundTrip(c, "TLS", 20, "-Dtls.enable=true");
            NettyRemotingClient plain = new NettyRemotingClient(new NettyClientConfig());
            plain.start();
            try {
                assertThrows(Exception.class, () -> plain.invokeSync(c.brokerAddr(),
                    RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CONFIG, null), 3_000),
                    "a plaintext client is refused, so the round trip above really used TLS");
            } finally {
                plain.shutdown();
            }
        }
    }

    /**
     * Clients of both versions the product meets in the field: 4.9.0's, and 4.9.1's (netty 4.1, fastjson 1.2.76, its own
     * send path), each in its own JVM on its own jars only, sending and reading back through the patched remoting layer.
     */
    @Test
    void stock490And491ClientsRoundTrip() throws Exception {
        try (TestCluster c = new TestCluster(TestCluster.dist("patched"), "broker-tuned.conf").start()) {
            assertRemotingPatchesActive(c);
            assertEquals("V4_9_0", DropInIT.roundTrip(c, "4.9.0 client", Path.of(System.getProperty("rmqpatch.stock.lib")),
                "RoundTrip490", 30));
            assertEquals("V4_9_1", DropInIT.roundTrip(c, "4.9.1 client", Path.of(System.getProperty("rmqpatch.client491.lib")),
                "RoundTrip491", 30));
        }
    }

    @Test
    void aclHookSeesTheClientAndItsSignature() throws Exception {
        Path acl = tmp.resolve("plain_acl.yml");
        Files.write(acl, List.of(
            "globalWhiteRemoteAddresses:",
            "accounts:",
            "- accessKey: " + ACCESS_KEY,
            "  secretKey: " + SECRET_KEY,
            "  whiteRemoteAddress:",
            "  admin: true",
            "  defaultTopicPerm: PUB|SUB",
            "  defaultGroupPerm: PUB|SUB"));
        Path dist = TestCluster.dist("patched");
        // The broker reads ROCKETMQ_HOME + this property: point it at the test's file without touching the distribution.
        String relative = "/" + dist.toAbsolutePath().relativize(acl.toAbsolutePath());
        try (TestCluster c = new TestCluster(dist, "broker-tuned.conf", "aclEnable=true")
            .javaOpt("-Drocketmq.acl.plain.file=" + relative).start()) {
            assertRemotingPatchesActive(c);
            DropInIT.roundTrip(c, "ACL", 20, "-Drt.accessKey=" + ACCESS_KEY, "-Drt.secretKey=" + SECRET_KEY);
            NettyRemotingClient anonymous = new NettyRemotingClient(new NettyClientConfig());
            anonymous.start();
            try {
                RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.UPDATE_BROKER_CONFIG, null);
                request.setBody("flushIntervalCommitLog=600".getBytes(StandardCharsets.UTF_8));
                request.addExtField("AccessKey", "nobody");
                RemotingCommand response = anonymous.invokeSync(c.brokerAddr(), request, 5_000);
                assertNotEquals(ResponseCode.SUCCESS, response.getCode(), "an unknown account is refused: " + response);
                assertTrue(String.valueOf(response.getRemark()).contains("nobody"), response.getRemark());
            } finally {
                anonymous.shutdown();
            }
        }
    }

    /** The broker's start-up line lists the patches that run: these tests are only worth something with P7-P9 on. */
    private static void assertRemotingPatchesActive(TestCluster c) throws Exception {
        String line = Files.readAllLines(c.brokerLog()).stream().filter(l -> l.contains("rmqpatch: patches in the jars:"))
            .findFirst().orElseThrow();
        String active = line.substring(line.indexOf("active:"));
        assertTrue(active.contains("P7") && active.contains("P8") && active.contains("P9"), line);
    }
}
