package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * S1. Target: {@code AdminBrokerProcessor.updateBrokerConfig} in rocketmq-broker, the handler of
 * UPDATE_BROKER_CONFIG (request code 25, what {@code mqadmin updateBrokerConfig} sends).
 * Replacement: an entry hook, {@code ConfigUpdateGuard.checkBrokerUpdate}, answers NO_PERMISSION naming the keys
 * when the update sets any of {@code ConfigUpdateGuard.BROKER_KEYS}, before stock parses or persists anything;
 * every other update runs the stock body.
 * Why: stock 4.9.0 applies and persists any key from anyone who reaches the broker port; with {@code rocketmqHome}
 * and {@code filterServerNums} the filter-server manager then runs a shell command built from them
 * (CVE-2023-33246, closed upstream in 4.9.6 and 5.1.1 with a key black list, extended in 4.9.7/4.9.8).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class BrokerConfigGuardPatch implements Patch {

    @Override
    public String id() {
        return "S1";
    }

    @Override
    public String name() {
        return "broker-config-guard";
    }

    @Override
    public String buys() {
        return "UPDATE_BROKER_CONFIG of a path or of what reaches a shell refused with NO_PERMISSION naming the "
            + "keys; nothing applied or written";
    }

    @Override
    public String fixedUpstream() {
        return "4.9.6, 5.1.1";
    }

    @Override
    public String closes() {
        return "CVE-2023-33246";
    }

    @Override
    public String effect() {
        return "UPDATE_BROKER_CONFIG requests that set brokerConfigPath, rocketmqHome, configBlackList, filterServerNums, "
            + "storePathRootDir or storePathCommitLog are refused whole with NO_PERMISSION and a remark naming the keys; "
            + "nothing is applied or written, and the broker log names the caller. Other keys update as before.";
    }

    @Override
    public String why() {
        return "Anyone who reaches the broker port can change these keys at run time; the filter-server manager then "
            + "runs a shell command built from rocketmqHome (CVE-2023-33246, public exploits), and the store paths "
            + "decide where the broker creates and deletes files. Change them in the config file and restart instead.";
    }

    @Override
    public String verification() {
        return "mqadmin updateBrokerConfig -b HOST:PORT -k rocketmqHome -v /tmp answers NO_PERMISSION naming "
            + "rocketmqHome and the broker's config file is unchanged; -k flushIntervalCommitLog -v 600 still succeeds.";
    }

    @Override
    public String tests() {
        return "ConfigUpdateExploitIT; codec: ConfigUpdateGuardTest";
    }

    @Override
    public String benchmark() {
        return "none (admin request, not on the message path)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.UPDATE_BROKER_CONFIG, Codec.CHECK_BROKER_CONFIG_UPDATE));
    }
}
