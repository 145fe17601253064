package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The config-update holes on each later release ({@link ReleaseInstalls}: 4.9.4, 4.9.7, 4.9.8), tried against its stock
 * install (the control) and the same install with its lib/ patched by patch-lib:
 * <ul>
 * <li>config-line smuggling, open in every 4.9.x: a config update whose value holds a line break, which stock persists
 * as a config line of the attacker's choice (here rocketmqHome and configStorePath, past 4.9.6/4.9.7's lists of
 * protected keys), read as a key by the next start; patched (S1, S3) refuses it and writes nothing;</li>
 * <li>CVE-2023-33246's update (filterServerNums and a rocketmqHome that smuggles a shell command): stock applies it on
 * every release (the running config shows it); where S2 is declared to apply (4.9.3, 4.9.4: the filter server is still
 * there) its filter-server manager then runs the command, as ConfigUpdateExploitIT shows on 4.9.0, whose manager is
 * the same; 4.9.7 fixed the CVE by removing the filter server, not the update. Patched refuses the update everywhere,
 * naming the CVE (S1);</li>
 * <li>CVE-2023-37582 (configStorePath): stock 4.9.4's name server writes its config to the attacker's path, 4.9.7's
 * and 4.9.8's do not (fixed upstream); patched refuses it everywhere and writes nothing.</li>
 * </ul>
 * On 4.9.8 also its new UPDATE_BROKER_CONFIG black list (brokerConfigPath, configBlackList), which fails open as read
 * from its source (the check sets NO_PERMISSION, then the update is applied and SUCCESS answered): shown for
 * brokerConfigPath, harmless there since no config field has that name; patched answers NO_PERMISSION.
 */
class ReleaseSecurityIT {

    @TempDir
    Path tmp;

    static List<String> laterReleases() {
        return ReleaseInstalls.releases().stream().filter(r -> !r.equals("4.9.0")).collect(Collectors.toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("laterReleases")
    void configUpdateHolesOpenOnStockAreClosedByPatchLib(String release) throws Exception {
        Path stockDist = ReleaseInstalls.stock(release);
        Path patchedDist = ReleaseInstalls.patched(release, tmp);
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try (TestCluster stock = new TestCluster(stockDist, "broker.conf").start();
             TestCluster patched = new TestCluster(patchedDist, "broker.conf").start()) {
            String brokerLine = "rocketmqHome=" + tmp.resolve("smuggled-home");
            String brokerBody = "msgTraceTopicName=RMQ_SYS_TRACE_TOPIC\\n" + brokerLine;
            RemotingCommand onStock = invoke(client, stock.brokerAddr(), RequestCode.UPDATE_BROKER_CONFIG, brokerBody);
            assertEquals(ResponseCode.SUCCESS, onStock.getCode(), onStock.getRemark());
            assertTrue(Files.readAllLines(stock.brokerConfFile()).contains(brokerLine),
                "control: stock " + release + " persisted the smuggled line, which its next start reads as a key");
            byte[] conf = Files.readAllBytes(patched.brokerConfFile());
            RemotingCommand onPatched = invoke(client, patched.brokerAddr(), RequestCode.UPDATE_BROKER_CONFIG, brokerBody);
            assertEquals(ResponseCode.NO_PERMISSION, onPatched.getCode(), onPatched.getRemark());
            assertTrue(onPatched.getRemark().contains("a line break in its name or value"), onPatched.getRemark());
            assertArrayEquals(conf, Files.readAllBytes(patched.brokerConfFile()), "refused update wrote the config file");

            String namesrvLine = "configStorePath=" + tmp.resolve("smuggled-namesrv.properties");
            String namesrvBody = "productEnvName=rmqpatch-it\\n" + namesrvLine;
            RemotingCommand nsStock = invoke(client, stock.namesrvAddr(), RequestCode.UPDATE_NAMESRV_CONFIG, namesrvBody);
            assertEquals(ResponseCode.SUCCESS, nsStock.getCode(), nsStock.getRemark());
            assertTrue(Files.readAllLines(stock.namesrvConfFile()).contains(namesrvLine),
                "control: stock " + release + "'s name server persisted the smuggled line");
            byte[] nsConf = Files.readAllBytes(patched.namesrvConfFile());
            RemotingCommand nsPatched = invoke(client, patched.namesrvAddr(), RequestCode.UPDATE_NAMESRV_CONFIG,
                namesrvBody);
            assertEquals(ResponseCode.NO_PERMISSION, nsPatched.getCode(), nsPatched.getRemark());
            assertArrayEquals(nsConf, Files.readAllBytes(patched.namesrvConfFile()), "refused update wrote the config file");

            cve202333246(client, release, stock, patched);
            cve202337582(client, release, stock, patched);

            if (release.equals("4.9.8")) {
                RemotingCommand listed = invoke(client, stock.brokerAddr(), RequestCode.UPDATE_BROKER_CONFIG,
                    "brokerConfigPath=" + tmp.resolve("listed.properties"));
                assertEquals(ResponseCode.SUCCESS, listed.getCode(), "4.9.8's black list answers SUCCESS: "
                    + listed.getRemark());
                assertFalse(Files.exists(tmp.resolve("listed.properties")), "no config field is named brokerConfigPath");
                RemotingCommand refused = invoke(client, patched.brokerAddr(), RequestCode.UPDATE_BROKER_CONFIG,
                    "brokerConfigPath=" + tmp.resolve("listed.properties"));
                assertEquals(ResponseCode.NO_PERMISSION, refused.getCode(), refused.getRemark());
            }
        } finally {
            client.shutdown();
        }
    }

    /** The published update (as ConfigUpdateExploitIT sends it): applied by stock, refused by patched. */
    private void cve202333246(NettyRemotingClient client, String release, TestCluster stock, TestCluster patched)
        throws Exception {
        String home = "-c $@|sh . echo touch " + tmp.resolve("cve-2023-33246-marker") + ";";
        String body = "filterServerNums=1\nrocketmqHome=" + home + "\n";
        boolean shellThere = new FilterServerShellPatch().on(Release.of(release)).kind() != ReleaseFit.Kind.UPSTREAM;
        RemotingCommand onStock = invoke(client, stock.brokerAddr(), RequestCode.UPDATE_BROKER_CONFIG, body);
        assertEquals(ResponseCode.SUCCESS, onStock.getCode(), onStock.getRemark());
        String stockConfig = brokerConfig(client, stock);
        assertTrue(stockConfig.contains("rocketmqHome=" + home) && (!shellThere || stockConfig.contains("filterServerNums=1")),
            "control: stock " + release + " applied CVE-2023-33246's update ("
                + (shellThere ? "its filter-server manager runs it" : "no filter server left to run it") + "): " + stockConfig);
        byte[] conf = Files.readAllBytes(patched.brokerConfFile());
        RemotingCommand onPatched = invoke(client, patched.brokerAddr(), RequestCode.UPDATE_BROKER_CONFIG, body);
        assertEquals(ResponseCode.NO_PERMISSION, onPatched.getCode(), onPatched.getRemark());
        assertTrue(onPatched.getRemark().contains("CVE-2023-33246"), onPatched.getRemark());
        assertFalse(brokerConfig(client, patched).contains("rocketmqHome=" + home), "refused update changed the running config");
        assertArrayEquals(conf, Files.readAllBytes(patched.brokerConfFile()), "refused update wrote the config file");
    }

    /** configStorePath: stock 4.9.4's name server writes its config where the attacker says; 4.9.7+ fixed it. */
    private void cve202337582(NettyRemotingClient client, String release, TestCluster stock, TestCluster patched)
        throws Exception {
        Path stockTarget = tmp.resolve("stock-namesrv-target");
        Path patchedTarget = tmp.resolve("patched-namesrv-target");
        invoke(client, stock.namesrvAddr(), RequestCode.UPDATE_NAMESRV_CONFIG,
            "configStorePath=" + stockTarget + "\nproductEnvName=rmqpatch-it\n");
        boolean open = !Release.of(release).atLeast(Release.V4_9_7);
        assertEquals(open, Files.exists(stockTarget), open ? "control: stock " + release + "'s name server wrote its config "
            + "to the attacker's path" : "stock " + release + " fixed CVE-2023-37582, yet wrote " + stockTarget);
        byte[] nsConf = Files.readAllBytes(patched.namesrvConfFile());
        RemotingCommand onPatched = invoke(client, patched.namesrvAddr(), RequestCode.UPDATE_NAMESRV_CONFIG,
            "configStorePath=" + patchedTarget + "\nproductEnvName=rmqpatch-it\n");
        assertEquals(ResponseCode.NO_PERMISSION, onPatched.getCode(), onPatched.getRemark());
        assertTrue(onPatched.getRemark().contains("CVE-2023-37582"), onPatched.getRemark());
        assertFalse(Files.exists(patchedTarget), "patched name server wrote the attacker's file");
        assertArrayEquals(nsConf, Files.readAllBytes(patched.namesrvConfFile()), "refused update wrote the config file");
    }

    private static String brokerConfig(NettyRemotingClient client, TestCluster c) throws Exception {
        RemotingCommand response = client.invokeSync(c.brokerAddr(),
            RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CONFIG, null), 10_000);
        assertEquals(ResponseCode.SUCCESS, response.getCode(), response.getRemark());
        return new String(response.getBody(), StandardCharsets.UTF_8);
    }

    private static RemotingCommand invoke(NettyRemotingClient client, String addr, int code, String body) throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        request.setBody(body.getBytes(StandardCharsets.UTF_8));
        return client.invokeSync(addr, request, 10_000);
    }
}
