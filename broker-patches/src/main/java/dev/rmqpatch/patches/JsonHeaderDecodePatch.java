package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P5. Target: the one {@code RemotingSerializable.decode(headerData, RemotingCommand.class)} in
 * {@code RemotingCommand.headerDecode(byte[], SerializeType)} (rocketmq-remoting): the JSON branch of every frame
 * decode, the header every 4.x Java client sends by default.
 * Replacement: {@code RemotingCommandHooks.decodeJsonHeader}, which reads the header's UTF-8 bytes by hand
 * ({@code JsonHeaderReader}: the RemotingCommand schema only, no String of the whole header, the properties value's
 * escapes decoded in one pass) and calls that same fastjson decode for whatever it does not recognise. Every other
 * use of fastjson (bodies, configs) stays stock: only this call site changes.
 * Why: the fastjson parse of the request header is the largest single codec cost left on the produce path (5% of
 * broker CPU profiled, docs/send-path.md; ~10% in docs/baseline.md's JFR samples).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class JsonHeaderDecodePatch implements Patch {

    @Override
    public String id() {
        return "P5";
    }

    @Override
    public String name() {
        return "json-header-decode";
    }

    @Override
    public String buys() {
        return "no fastjson and no String of the header per JSON request; garbage fails as before";
    }

    @Override
    public String effect() {
        return "JSON request and response headers are read into RemotingCommand straight from their UTF-8 bytes by a "
            + "reader of RemotingCommand's own schema instead of fastjson, with exactly fastjson's result. Headers it "
            + "does not recognise (a name fastjson would match leniently, a field given twice, a number fastjson would "
            + "coerce, malformed JSON or UTF-8, a changed fastjson configuration) go to fastjson as before, so garbage "
            + "fails as it did.";
    }

    @Override
    public String why() {
        return "fastjson's parse of the JSON header, a String of the whole header first, is the largest codec cost left "
            + "on the produce path: about 5% of broker CPU in the async-profiler run of docs/send-path.md, and the "
            + "properties value's \\u0001/\\u0002 escapes are most of its work.";
    }

    @Override
    public String verification() {
        return "Clients keep working unchanged: every request is decoded into the same command as before (same "
            + "code, opaque, flag, remark and ext fields, in the same map order). With -Drmqpatch.disable=P5 the "
            + "broker decodes with fastjson again.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, MalformedSendIT, DropInIT, JsonHeaderReleasesTest (4.9.4+: the variant against stock "
            + "4.9.4, 4.9.7, 4.9.8); codec: JsonHeaderDifferentialTest, JsonHeaderEdgeCaseTest";
    }

    @Override
    public String benchmark() {
        return "JsonHeaderDecodeBenchmark";
    }

    /**
     * 4.9.4+: {@code RemotingCommand.decode(ByteBuf)} calls {@code headerDecode(ByteBuf, int, SerializeType)}, whose
     * JSON branch copies the header into a byte[] and calls the same {@code RemotingSerializable.decode(headerData,
     * RemotingCommand.class)} once (javap 4.9.4, 4.9.7, 4.9.8; read 4.9.8), and 4.9.0's {@code headerDecode(byte[],
     * SerializeType)} is gone. RemotingCommand has 4.9.0's fields and properties there; LanguageCode adds RUST, which
     * the reader takes from the release's enum. What the reader calls of 4.9.0's alone is
     * {@code RocketMQSerializable.rocketMQProtocolDecode(byte[])}, its blank command: the variant's hook
     * ({@code JsonHeaderHooks}) makes it with 4.9.4's {@code rocketMQProtocolDecode(ByteBuf, int)}.
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.variant(
            "4.9.4 decodes headers from the ByteBuf: headerDecode(ByteBuf, int, SerializeType) copies the JSON header "
            + "into a byte[] and calls RemotingSerializable.decode(headerData, RemotingCommand.class) once, and "
            + "rocketMQProtocolDecode(byte[]), the reader's way to a blank command, is gone (javap 4.9.4, 4.9.7, 4.9.8; "
            + "read 4.9.4, 4.9.8 RemotingCommand, RocketMQSerializable): the variant replaces that call with "
            + "JsonHeaderHooks.decodeJsonHeader, the same reader with the blank command from rocketMQProtocolDecode("
            + "ByteBuf, int), @type left to the release's fastjson (JsonHeaderReleasesTest against stock 4.9.4, 4.9.7, "
            + "4.9.8)", variantEdits()) : ReleaseFit.APPLIES;
    }

    /** The 4.9.4+ edit: exactly one fastjson decode in headerDecode(ByteBuf, int, SerializeType), else refused. */
    static List<MethodEdit> variantEdits() {
        return Collections.<MethodEdit>singletonList(
            new ReplaceCall(Stock.HEADER_DECODE_BYTE_BUF, Stock.JSON_DECODE, Codec.DECODE_JSON_HEADER_BYTE_BUF_ERA, 1));
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new ReplaceCall(Stock.HEADER_DECODE, Stock.JSON_DECODE, Codec.DECODE_JSON_HEADER, 1));
    }
}
