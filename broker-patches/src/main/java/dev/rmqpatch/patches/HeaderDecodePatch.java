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
        return "no reflection per send request; a missing or malformed field logged and left unset, as stock";
    }

    @Override
    public String effect() {
        return "SEND_MESSAGE and SEND_MESSAGE_V2 request headers are decoded by hand-written setters instead of "
            + "reflection; other headers keep stock reflection. A missing required field or a malformed number "
            + "is logged and left at its default, and the request goes on, as in stock 4.9.0; a command without ext "
            + "fields gets stock's empty header.";
    }

    @Override
    public String why() {
        return "Reflective header decode is about 3% of broker CPU on the produce path (docs/baseline.md) and about "
            + "2.5x the cost of the hand-written decode in the micro timings.";
    }

    @Override
    public String verification() {
        return "Send a SEND_MESSAGE_V2 request that lacks field 'b' (topic): the patched broker logs 'Failed field [b] "
            + "decoding' and answers as stock does (the request reaches the send processor).";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, MalformedSendIT; codec: HeaderDifferentialTest, HeaderLenientDecodeTest";
    }

    @Override
    public String benchmark() {
        return "SendHeaderDecodeBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.upstream(
            "4.9.4's SendMessageRequestHeaderV2 is a FastCodesHeader, decoded without reflection (javap; only the "
            + "rare SEND_MESSAGE v1 keeps reflection); 4.9.7 adds fields (n, bname) the codec does not name") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.DECODE_COMMAND_CUSTOM_HEADER, Codec.DECODE_HEADER));
    }
}
