package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.RequireMembers;

/**
 * P28. Targets: {@code MessageDecoder.decodes(ByteBuffer, boolean)} (a consumer's decode of every pull response's
 * body) and {@code MessageDecoder.decode(ByteBuffer, boolean, boolean, boolean)} (which every other decode overload
 * calls, in clients and in the broker) in rocketmq-common.
 * Replacement: the bodies delegate to codec's {@code MessageDecodes.decodes} and {@code MessageDecodes.decode}: the
 * same reads and checks, the same objects, without the per-message byte[] copies of topic and properties, the two
 * host arrays, and the ByteBuffers, address copy and char[] of the offset message id. On 4.9.3 the variant
 * {@code MessageDecodes493} (the release's properties parser), on 4.9.4+ {@code MessageDecodes494} (also the release's
 * compressor by the sysFlag's type): see {@link #on(Release)}.
 * Why: a 4.9.0 push consumer decodes every message it receives this way; see {@link #why()}.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ConsumeDecodePatch implements Patch {

    @Override
    public String id() {
        return "P28";
    }

    @Override
    public String name() {
        return "consume-decode";
    }

    @Override
    public String buys() {
        return "each message a consumer pulls decoded without copies of topic and properties or ByteBuffers for its "
            + "message id; the same messages";
    }

    @Override
    public String effect() {
        return "Stored messages (a pull response's body in a consumer; the store's records in the broker) are decoded "
            + "by the same reads and checks into the same MessageExt or MessageClientExt, field by field: ASCII "
            + "properties are parsed from the buffer's bytes by P2's parser (with P2 on), others from a String made "
            + "straight from the buffer's array, the topic String is kept while the next message's "
            + "topic bytes are the same, the host addresses go through a per-thread array (InetAddress copies it) and "
            + "the offset message id is written as hex into a per-thread char[] and made a String once; the list is "
            + "presized from the first record's size. A record stock cannot read gives null and leaves the buffer at its "
            + "limit, as stock; one whose body length exceeds the bytes left is refused before its body is allocated.";
    }

    @Override
    public String why() {
        return "A 4.9.0 push consumer runs MessageDecoder.decodes on every pull response before processPullResult "
            + "(tag filter, MIN_OFFSET and MAX_OFFSET, broker name); per message stock allocates the topic and "
            + "properties as byte[] only to copy them into Strings, two host arrays, and for the offset message id "
            + "two ByteBuffers, a copy of the store address, a char[] and a String. Measured (ConsumeDecodeBenchmark, "
            + "one pull of 32 messages of 300 B, JDK 17): P28 alone allocates 12% less than stock (143,861 against "
            + "163,520 B), with P2 62% less (61,408 against 161,625 B); the times were taken on a loaded machine "
            + "and are not usable (BENCHMARKS.md, 2026-11-26 05:47-06:01).";
    }

    @Override
    public String verification() {
        return "A 4.9.0 push consumer on the patched jars (or the agent) receives every message with the same "
            + "fields, properties, message ids and hosts as one on the stock jars; -Drmqpatch.disable=P28 in the "
            + "consumer's JVM runs stock's decode.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, PullPathIT, ConsumeDecodeVariantsTest (4.9.3's, 4.9.4's, 4.9.7's, 4.9.8's stock decode "
            + "against the variants on their patched common jars); codec: MessageDecodesDifferentialTest";
    }

    @Override
    public String benchmark() {
        return "ConsumeDecodeBenchmark";
    }

    /**
     * 4.9.3 (read, javap: decode's and decodes' instructions are 4.9.0's): zlib, but string2messageProperties parses by
     * index; as written the codec would parse by its 4.9.0 parser while P2's switch is on (P2 itself is not applied
     * there), so the variant always calls the release's parser. 4.9.4, 4.9.7, 4.9.8 (read; javap: the three
     * MessageDecoder class files disassemble identically): the one change in decode is the compressor by the sysFlag's
     * type, which the variant calls; the properties by the release's parser as on 4.9.3.
     */
    @Override
    public ReleaseFit on(Release release) {
        if (release.atLeast(Release.V4_9_4)) {
            return ReleaseFit.variant("4.9.4's MessageDecoder.decode inflates a compressed body by "
                + "CompressorFactory.getCompressor(MessageSysFlag.getCompressionType(sysFlag)) (zlib, LZ4, ZSTD; another "
                + "type throws: null), where MessageDecodes always inflates zlib, and its string2messageProperties parses "
                + "by index (read 4.9.4, 4.9.7, 4.9.8; javap: 4.9.4's, 4.9.7's and 4.9.8's MessageDecoder identical): "
                + "the variant (MessageDecodes494) calls the release's compressor and parser, same savings otherwise "
                + "(tests: ConsumeDecodeVariantsTest against stock 4.9.4, 4.9.7, 4.9.8)", variantEdits494());
        }
        if (release.atLeast(Release.V4_9_3)) {
            return ReleaseFit.variant("4.9.3's MessageDecoder.decode is 4.9.0's (javap: same instructions; zlib), but "
                + "its string2messageProperties parses by index (an empty name skipped, a value may hold \\u0001), and as "
                + "written MessageDecodes parses with the codec's 4.9.0 parser while P2's switch is on, though P2 is not "
                + "applied there (read): the variant (MessageDecodes493) always calls the release's parser "
                + "(tests: ConsumeDecodeVariantsTest against stock 4.9.3)", variantEdits493());
        }
        return ReleaseFit.APPLIES;
    }

    /** 4.9.3: decode still inflates with UtilAll.uncompress and parses with string2messageProperties. */
    static List<MethodEdit> variantEdits493() {
        return variantEdits(Arrays.asList(Stock.UTIL_UNCOMPRESS), Codec.DECODES_493, Codec.DECODE_493);
    }

    /**
     * 4.9.4+: decode inflates by the compression type (4.9.0's refers to none of these, so the variant is refused
     * there).
     */
    static List<MethodEdit> variantEdits494() {
        return variantEdits(Arrays.asList(Stock.GET_COMPRESSION_TYPE, Stock.GET_COMPRESSOR, Stock.COMPRESSOR_DECOMPRESS),
            Codec.DECODES_494, Codec.DECODE_494);
    }

    private static List<MethodEdit> variantEdits(List<MethodRef> decompression, MethodRef decodes, MethodRef decode) {
        List<MethodRef> mirrored = new ArrayList<MethodRef>(decompression);
        mirrored.addAll(Arrays.asList(Stock.STRING_TO_PROPERTIES, Stock.CREATE_MESSAGE_ID, Stock.SET_OFFSET_MSG_ID));
        return Arrays.<MethodEdit>asList(
            new RequireMembers(Stock.MESSAGE_DECODES, Arrays.asList(Stock.CLIENT_DECODE)),
            new RequireMembers(Stock.MESSAGE_DECODE, mirrored),
            new DelegateBody(Stock.MESSAGE_DECODES, decodes),
            new DelegateBody(Stock.MESSAGE_DECODE, decode));
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.MESSAGE_DECODES, Codec.DECODES),
            new DelegateBody(Stock.MESSAGE_DECODE, Codec.DECODE));
    }
}
