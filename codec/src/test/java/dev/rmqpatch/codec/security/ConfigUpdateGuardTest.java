package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;

/**
 * What the guard sees in an update is what stock would apply: the body is read as stock reads it
 * (UTF-8, java.util.Properties), so escapes, separators and blanks cannot smuggle a protected key past it.
 */
class ConfigUpdateGuardTest {

    @Test
    void findsProtectedKeysHoweverThePropertiesSyntaxSpellsThem() {
        assertEquals(List.of("rocketmqHome"), brokerKeys("rocketmqHome=/tmp"));
        assertEquals(List.of("rocketmqHome"), brokerKeys("  rocketmqHome : /tmp"), "':' separator, leading blanks");
        assertEquals(List.of("rocketmqHome"), brokerKeys("rocketmqHome /tmp"), "blank separator");
        assertEquals(List.of("rocketmqHome"), brokerKeys("\\u0072ocketmqHome=/tmp"), "unicode escape in the key");
        assertEquals(List.of("rocketmqHome"), brokerKeys("rocketmq\\\nHome=/tmp"), "line continuation in the key");
        assertEquals(List.of("rocketmqHome", "filterServerNums"),
            brokerKeys("flushIntervalCommitLog=500\r\nfilterServerNums=1\r\nrocketmqHome=-c $@|sh . echo touch /tmp/x;"));
        assertEquals(List.of("storePathRootDir", "storePathCommitLog"), brokerKeys("storePathCommitLog=/a\nstorePathRootDir=/b"));
        assertEquals(List.of("configStorePath"),
            ConfigUpdateGuard.protectedKeysIn(bytes("configStorePath=/etc/cron.d/x"), ConfigUpdateGuard.NAMESRV_KEYS));
    }

    /** An escaped line break would be persisted raw by stock: the next start would read the smuggled line as a key. */
    @Test
    void lineBreaksInKeysOrValuesAreRefused() {
        for (String body : new String[] {"brokerClusterName=x\\nrocketmqHome=/tmp/evil\\nfilterServerNums=1",
            "a=b\\rrocketmqHome=x", "a=\\u0085x", "a=\\u2028x", "a=\\u2029x", "bad\\nkey=1"}) {
            List<String> hits = ConfigUpdateGuard.protectedKeysIn(body.getBytes(StandardCharsets.UTF_8),
                ConfigUpdateGuard.BROKER_KEYS);
            assertEquals(1, hits.size(), body + ": " + hits);
            assertTrue(hits.get(0).endsWith("(a line break in its name or value)"), hits.toString());
        }
        assertEquals(List.of(), ConfigUpdateGuard.protectedKeysIn(
            "flushIntervalCommitLog=730\nbrokerClusterName=c\n".getBytes(StandardCharsets.UTF_8), ConfigUpdateGuard.BROKER_KEYS),
            "plain lines are separate keys, as stock reads them");
    }

    @Test
    void harmlessOrUnparseableBodiesAreLeftToStock() {
        assertEquals(List.of(), brokerKeys("flushIntervalCommitLog=500\nbrokerPermission=6"));
        assertEquals(List.of(), brokerKeys("#rocketmqHome=/tmp\n!filterServerNums=1"), "comments set nothing");
        assertEquals(List.of(), brokerKeys("RocketmqHome=/tmp"), "stock matches keys exactly: this one sets nothing");
        assertEquals(List.of(), brokerKeys("rocketmqHome\\uZZZZ=1"), "malformed escape: stock answers its own error");
        assertEquals(List.of(), ConfigUpdateGuard.protectedKeysIn(null, ConfigUpdateGuard.BROKER_KEYS));
    }

    @Test
    void refusalIsNoPermissionNamingKeysAndCve() {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.UPDATE_BROKER_CONFIG, null);
        request.setBody(bytes("rocketmqHome=/tmp\nfilterServerNums=1"));
        RemotingCommand response = ConfigUpdateGuard.checkBrokerUpdate(null, null, request);
        assertEquals(ResponseCode.NO_PERMISSION, response.getCode());
        assertTrue(response.getRemark().contains("[rocketmqHome, filterServerNums]")
            && response.getRemark().contains("CVE-2023-33246") && response.getRemark().contains("nothing was changed"),
            response.getRemark());

        RemotingCommand namesrv = RemotingCommand.createRequestCommand(RequestCode.UPDATE_NAMESRV_CONFIG, null);
        namesrv.setBody(bytes("kvConfigPath=/tmp/kv.json"));
        RemotingCommand refused = ConfigUpdateGuard.checkNamesrvUpdate(null, null, namesrv);
        assertEquals(ResponseCode.NO_PERMISSION, refused.getCode());
        assertTrue(refused.getRemark().contains("kvConfigPath") && refused.getRemark().contains("CVE-2023-37582"),
            refused.getRemark());

        request.setBody(bytes("flushIntervalCommitLog=600"));
        assertNull(ConfigUpdateGuard.checkBrokerUpdate(null, null, request), "harmless update: stock handles it");
    }

    @Test
    void coversUpstreamsListAndTheKeysTheExploitsUse() {
        assertTrue(ConfigUpdateGuard.BROKER_KEYS.containsAll(List.of("brokerConfigPath", "rocketmqHome", "configBlackList",
            "filterServerNums")));
        assertTrue(ConfigUpdateGuard.NAMESRV_KEYS.containsAll(List.of("configStorePath", "kvConfigPath", "rocketmqHome",
            "configBlackList")));
    }

    private static List<String> brokerKeys(String body) {
        return ConfigUpdateGuard.protectedKeysIn(bytes(body), ConfigUpdateGuard.BROKER_KEYS);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
