package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * S2. Target: {@code FilterServerManager.createFilterServer()} in rocketmq-broker, which runs every 30 s and calls
 * {@code FilterServerUtil.callShell} once per missing filter server.
 * Replacement: that one call goes to {@code FilterServerLaunch.refuse}, which runs nothing and logs the refused
 * command line (first time, then every 120th).
 * Why: the command is {@code sh <rocketmqHome>/bin/startfsrv.sh ...} built by string formatting and split at
 * spaces, so whoever sets rocketmqHome, the config path or namesrvAddr runs a command of their choice
 * (CVE-2023-33246). S1 stops the remote update; S2 removes the command runner itself, so no other way to those
 * values (a config file edited by another hole, a future update path) leads to a shell. Upstream removed filter
 * servers in 5.1.1 (and 4.9.6 stopped the update); users of filter servers move to tag or SQL92 filtering.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class FilterServerShellPatch implements Patch {

    @Override
    public String id() {
        return "S2";
    }

    @Override
    public String name() {
        return "no-filter-server-shell";
    }

    @Override
    public String buys() {
        return "the broker never runs the shell command built from config values; filter servers are not started";
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
        return "The broker never starts filter servers: the shell command FilterServerManager builds from config values "
            + "is logged (WARN, first time and every 120th) and not run. filterServerNums has no effect.";
    }

    @Override
    public String why() {
        return "It is the only place a 4.9.0 broker runs an operating-system command, and the command line is built "
            + "from values an attacker could set (CVE-2023-33246). Filter servers were removed upstream; filter with "
            + "tags or SQL92 (enablePropertyFilter=true) instead.";
    }

    @Override
    public String verification() {
        return "With filterServerNums=1 in the broker's config file, the broker log shows 'rmqpatch S2: refused to "
            + "start a filter server' within 35 s of start and no startfsrv.sh process appears.";
    }

    @Override
    public String tests() {
        return "ConfigUpdateExploitIT, JarPatcherTest";
    }

    @Override
    public String benchmark() {
        return "none (not on the message path)";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_7) ? ReleaseFit.upstream(
            "4.9.7 removed the filter server (no filtersrv package, read): the "
            + "shell command S2 guards is gone") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new ReplaceCall(Stock.CREATE_FILTER_SERVER, Stock.CALL_SHELL, Codec.REFUSE_FILTER_SERVER, 1));
    }
}
