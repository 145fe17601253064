package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P6. Target: the one {@code RemotingSerializable.encode(this)} in {@code RemotingCommand.headerEncode()}
 * (rocketmq-remoting): the JSON branch of every frame encode, so every response to a JSON client.
 * Replacement: {@code RemotingCommandHooks.encodeJsonHeader}, which writes the header's UTF-8 bytes by hand
 * ({@code JsonHeaderWriter}: fastjson's field order, escapes and omissions, byte for byte) and calls that same
 * fastjson encode for what it does not handle (a RemotingCommand subclass, ext fields in another map type or with
 * non-String entries, a changed fastjson configuration). Every other use of fastjson stays stock.
 * Why: the fastjson print of the response header is about 4% of broker CPU (docs/send-path.md), for a header of
 * a few fixed fields and a handful of ext fields.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class JsonHeaderEncodePatch implements Patch {

    @Override
    public String id() {
        return "P6";
    }

    @Override
    public String name() {
        return "json-header-encode";
    }

    @Override
    public String buys() {
        return "no fastjson and no String per JSON response; the same bytes on the wire";
    }

    @Override
    public String effect() {
        return "JSON headers (every response to a JSON client, and the requests of a patched name server's or "
            + "broker's own clients) are written straight into UTF-8 bytes instead of through fastjson and a String; "
            + "the bytes are identical to fastjson's: fields in alphabetical order, nulls left out, ext fields in map "
            + "order, fastjson's escapes.";
    }

    @Override
    public String why() {
        return "fastjson's print of the response header, then String.getBytes, is about 4% of broker CPU in the "
            + "async-profiler run of docs/send-path.md, for a header of a few fixed fields and a handful of ext "
            + "fields.";
    }

    @Override
    public String verification() {
        return "No client can tell: a capture of a response (tcpdump on the broker port) shows the same JSON header "
            + "bytes as from a stock broker for the same command. With -Drmqpatch.disable=P6 fastjson writes them again.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, DropInIT, JsonHeaderEncodeReleasesTest (4.9.4+: the variant against stock 4.9.4, "
            + "4.9.7, 4.9.8); codec: JsonHeaderDifferentialTest, JsonHeaderEdgeCaseTest, RemotingCommandHooksTest";
    }

    @Override
    public String benchmark() {
        return "JsonHeaderEncodeBenchmark";
    }

    /**
     * 4.9.4+: NettyEncoder calls {@code fastEncodeHeader(ByteBuf)}, whose JSON branch is {@code makeCustomHeaderToNet();
     * byte[] header = RemotingSerializable.encode(this); headerSize = header.length; out.writeBytes(header)}, then
     * the length and {@code markProtocolType} words set from {@code headerSize} (javap 4.9.4, 4.9.7, 4.9.8: the same
     * instructions; read 4.9.4, 4.9.8). {@code headerEncode()} is 4.9.0's (javap: the same instructions), left for
     * {@code encodeHeader(int)}, which the zero-copy pull and query responses call. Each makes exactly one call of the
     * fastjson encode; RemotingCommand's public getters are 4.9.0's, LanguageCode adds RUST (the writer takes the
     * names from the release's enum). The variant replaces both calls with the same hook (one bridge, P6's switch).
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.variant(
            "4.9.4's NettyEncoder encodes through fastEncodeHeader(ByteBuf), whose JSON branch calls "
            + "RemotingSerializable.encode(this) once and writes its bytes, their length and markProtocolType's word "
            + "into the frame; headerEncode, 4.9.0's, is left for the zero-copy pull and query responses (javap 4.9.4, "
            + "4.9.7, 4.9.8: one call in each, the same instructions in the three; read 4.9.4, 4.9.8 RemotingCommand, "
            + "NettyEncoder): the variant replaces both calls with RemotingCommandHooks.encodeJsonHeader, the same "
            + "writer (JsonHeaderEncodeReleasesTest against stock 4.9.4, 4.9.7, 4.9.8)", variantEdits())
            : ReleaseFit.APPLIES;
    }

    /** The 4.9.4+ edits: exactly one fastjson encode in headerEncode() and one in fastEncodeHeader(ByteBuf), else refused. */
    static List<MethodEdit> variantEdits() {
        return Arrays.<MethodEdit>asList(
            new ReplaceCall(Stock.HEADER_ENCODE, Stock.JSON_ENCODE, Codec.ENCODE_JSON_HEADER, 1),
            new ReplaceCall(Stock.FAST_ENCODE_HEADER, Stock.JSON_ENCODE, Codec.ENCODE_JSON_HEADER, 1));
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new ReplaceCall(Stock.HEADER_ENCODE, Stock.JSON_ENCODE, Codec.ENCODE_JSON_HEADER, 1));
    }
}
