package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P10. Target: {@code RemotingCommand.decodeCommandCustomHeader(Class)} in rocketmq-remoting, the method P1 hooks
 * too; this hook runs before P1's, behind its own switch.
 * Replacement: an entry hook, {@code RemotingCommandHooks.decodePullCustomHeader}, which decodes
 * {@code PullMessageRequestHeader} (and, in a client, {@code PullMessageResponseHeader}) with setters and returns null
 * for every other class, which goes on to P1's hook and stock reflection.
 * Why: the broker decodes the eleven-field pull header by reflection for every pull request, and again when a held
 * (long-polling) pull is woken up; upstream hand-wrote it in 4.9.3.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class PullHeaderDecodePatch implements Patch {

    @Override
    public String id() {
        return "P10";
    }

    @Override
    public String name() {
        return "pull-header-decode";
    }

    @Override
    public String buys() {
        return "no reflection per pull request (and per wake-up of a held long-polling pull); a missing or malformed "
            + "field logged and left unset, as stock";
    }

    @Override
    public String effect() {
        return "PULL_MESSAGE request headers are decoded by hand-written setters instead of reflection. A missing "
            + "required field or a malformed number is logged and left at its default, and the pull is served, as in "
            + "stock 4.9.0; a command without ext fields gets stock's empty header.";
    }

    @Override
    public String why() {
        return "Every pull request, and every wake-up of a held long-polling pull, decodes the header by reflection "
            + "over eleven fields; the hand-written decode does the same work without it (PullHeaderDecodeBenchmark).";
    }

    @Override
    public String verification() {
        return "Consumers receive their messages as from a stock broker; a PULL_MESSAGE request without "
            + "'suspendTimeoutMillis' is served as by stock (upstream's PullMessageProcessorTest).";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, PullPathIT, DropInIT; codec: HeaderDifferentialTest, HeaderLenientDecodeTest";
    }

    @Override
    public String benchmark() {
        return "PullHeaderDecodeBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.upstream(
            "4.9.4's PullMessageRequestHeader is a FastCodesHeader, decoded without reflection (javap); "
            + "4.9.7 adds bname, which the codec does not name") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.DECODE_COMMAND_CUSTOM_HEADER,
            Codec.DECODE_PULL_HEADER));
    }
}
