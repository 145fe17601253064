package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * S3. Target: {@code DefaultRequestProcessor.updateConfig} in rocketmq-namesrv, the handler of
 * UPDATE_NAMESRV_CONFIG (request code 318; {@code ClusterTestRequestProcessor} inherits it).
 * Replacement: an entry hook, {@code ConfigUpdateGuard.checkNamesrvUpdate}, answers NO_PERMISSION naming the keys
 * when the update sets any of {@code ConfigUpdateGuard.NAMESRV_KEYS}, before stock parses or persists anything.
 * Why: the name server persists its whole config to {@code configStorePath} after every update, and the update
 * may change that path: anyone who reaches port 9876 writes a file of their choice, for example a cron entry
 * (CVE-2023-37582, closed upstream in 4.9.7 and 5.1.2; the first fix of CVE-2023-33246 missed it).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class NamesrvConfigGuardPatch implements Patch {

    @Override
    public String id() {
        return "S3";
    }

    @Override
    public String name() {
        return "namesrv-config-guard";
    }

    @Override
    public String buys() {
        return "UPDATE_NAMESRV_CONFIG of a path refused with NO_PERMISSION naming the keys; nothing applied or written";
    }

    @Override
    public String fixedUpstream() {
        return "4.9.7, 5.1.2";
    }

    @Override
    public String closes() {
        return "CVE-2023-37582";
    }

    @Override
    public String effect() {
        return "UPDATE_NAMESRV_CONFIG requests that set configStorePath, kvConfigPath, rocketmqHome or configBlackList "
            + "are refused whole with NO_PERMISSION and a remark naming the keys; nothing is applied or written, and the "
            + "name server log names the caller. Other keys update as before.";
    }

    @Override
    public String why() {
        return "The name server writes its config to configStorePath after each update, and the update can change "
            + "that path: an arbitrary file write for anyone who reaches the name server port (CVE-2023-37582).";
    }

    @Override
    public String verification() {
        return "mqadmin updateNamesrvConfig -k configStorePath -v /tmp/x answers NO_PERMISSION naming configStorePath "
            + "and /tmp/x is not created; -k orderMessageEnable -v true still succeeds.";
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
        return Collections.<MethodEdit>singletonList(
            new EntryHook(Stock.UPDATE_NAMESRV_CONFIG, Codec.CHECK_NAMESRV_CONFIG_UPDATE));
    }
}
