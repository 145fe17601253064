package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P1. Target: {@code RemotingCommand.decodeCommandCustomHeader(Class)} in rocketmq-remoting.
 * Replacement: an entry hook, {@code RemotingCommandHooks.decodeCommandCustomHeader}, which decodes header
 * classes registered in {@code HeaderCodecs} (send V1 and V2 now) with setters and returns null for all others,
 * so they keep stock reflection.
 * Why: reflective header decode is ~3% of broker CPU on the produce path (docs/baseline.md), ~250 ns against ~100 ns
 * hand-written per SendMessageRequestHeaderV2.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class HeaderDecodePatch implements Patch {

    @Override
    public String id() {
        return "P1";
    }

    @Override
    public String name() {
        return "header-decode";
    }

    @Override
    public String buys() {
        return "no reflection per send request; a missing or malformed field gets an error response naming it";
    }

    @Override
    public String effect() {
        return "SEND_MESSAGE and SEND_MESSAGE_V2 request headers are decoded by hand-written setters instead of "
            + "reflection; other headers keep stock reflection. A missing required field or a malformed number "
            + "gets an error response naming the field (stock 4.9.0 logs it and fails later with a NullPointerException).";
    }

    @Override
    public String why() {
        return "Reflective header decode is about 3% of broker CPU on the produce path (docs/baseline.md) and about "
            + "2.5x the cost of the hand-written decode in the micro timings.";
    }

    @Override
    public String verification() {
        return "Send a message with a SEND_MESSAGE_V2 request that lacks field 'b' (topic): the patched broker "
            + "answers SYSTEM_ERROR with the remark 'the custom field <b> is null'.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, MalformedSendIT; codec: HeaderDifferentialTest, HeaderBadInputTest";
    }

    @Override
    public String benchmark() {
        return "SendHeaderDecodeBenchmark";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.DECODE_COMMAND_CUSTOM_HEADER, Codec.DECODE_HEADER));
    }
}
