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
            + "field gets an error response naming it";
    }

    @Override
    public String effect() {
        return "PULL_MESSAGE request headers are decoded by hand-written setters instead of reflection. A missing "
            + "required field or a malformed number gets an error response naming the field (stock 4.9.0 logs it, "
            + "leaves the field null and fails later, usually with a NullPointerException).";
    }

    @Override
    public String why() {
        return "Every pull request, and every wake-up of a held long-polling pull, decodes the header by reflection "
            + "over eleven fields; the hand-written decode does the same work without it (PullHeaderDecodeBenchmark).";
    }

    @Override
    public String verification() {
        return "Consumers receive their messages as from a stock broker; a PULL_MESSAGE request without 'queueId' "
            + "gets SYSTEM_ERROR with the remark 'the custom field <queueId> is null'.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, PullPathIT, DropInIT; codec: HeaderDifferentialTest, HeaderBadInputTest";
    }

    @Override
    public String benchmark() {
        return "PullHeaderDecodeBenchmark";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.DECODE_COMMAND_CUSTOM_HEADER,
            Codec.DECODE_PULL_HEADER));
    }
}
