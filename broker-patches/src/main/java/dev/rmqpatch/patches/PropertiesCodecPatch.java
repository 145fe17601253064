package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.RequireMembers;

/**
 * P2. Targets: {@code MessageDecoder.messageProperties2String(Map)} and
 * {@code MessageDecoder.string2messageProperties(String)} in rocketmq-common.
 * Replacement: the bodies delegate to {@code MessageProperties.encode} (reused buffer, one exact-size copy, stock's very string)
 * and {@code MessageProperties.decode} (index parser returning exactly what stock returns, for any input); on 4.9.3+
 * (no trailing separator, another parser) to {@code MessageProperties493.encode/decode}, the variant.
 * Why: string2messageProperties is ~4% of broker CPU (called twice per send, docs/baseline.md), ~350 ns against
 * ~160 ns for the index parser.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class PropertiesCodecPatch implements Patch {

    @Override
    public String id() {
        return "P2";
    }

    @Override
    public String name() {
        return "properties-codec";
    }

    @Override
    public String buys() {
        return "less CPU and garbage per message; the same string as stock, byte for byte";
    }

    @Override
    public String effect() {
        return "The message-properties string is encoded through a reused per-thread buffer into one exact-size String "
            + "(no builder growth), the same string as stock's (a separator after every entry: a batch sent by a patched "
            + "client appends the batch's own properties to it), and parsed by index arithmetic into stock's "
            + "HashMap (its table size, so its iteration order, which the broker writes back to the store after adding "
            + "CLUSTER) instead of two levels of String.split. On 4.9.3+ the release's format (no trailing separator) and "
            + "parser, each separator searched for once over the string, into stock's default map.";
    }

    @Override
    public String why() {
        return "string2messageProperties runs at least twice per sent message and costs about 4% of broker CPU "
            + "(docs/baseline.md); the index parser is about 2x faster in the micro timings.";
    }

    @Override
    public String verification() {
        return "Stock 4.9.0 consumers read messages stored by the patched broker with identical properties "
            + "(mqadmin queryMsgById shows the same user properties as before); a patched client's batch keeps every "
            + "property of every message.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, DropInIT, PatchedClientBrokersIT (batches); codec: MessagePropertiesDifferentialTest; "
            + "4.9.3+ variant: Properties493DifferentialTest (stock 4.9.3, 4.9.4, 4.9.7, 4.9.8 against the codec and "
            + "the patched jars)";
    }

    @Override
    public String benchmark() {
        return "PropertiesBenchmark";
    }

    /**
     * 4.9.3 to 4.9.8 (read: 4.9.3's, 4.9.4's and 4.9.7's sources jars, 4.9.8's source release; javap of the four common
     * jars: 4.9.4, 4.9.7 and 4.9.8 the same instructions in both methods, 4.9.3's encoder with one dead null check
     * more): {@code messageProperties2String} returns {@code ""} for null, sizes a builder in a first pass and drops
     * the last separator ({@code sb.deleteCharAt(sb.length() - 1)}); {@code string2messageProperties} cuts at
     * {@code \u0002} with {@code indexOf} and splits a segment at its first {@code \u0001} when that is neither its
     * first nor its last char (the value may hold more), into a default {@code HashMap}.
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.variant(
            "4.9.3 to 4.9.8 write no trailing separator and parse by index (an empty name skipped, a value may hold "
            + "\\u0001), the same in the four (read 4.9.3, 4.9.4, 4.9.7, 4.9.8 MessageDecoder; javap): the variant "
            + "delegates both methods to that format and parser (MessageProperties493; tests: "
            + "Properties493DifferentialTest against each release's stock jar)", variantEdits()) : ReleaseFit.APPLIES;
    }

    /**
     * The 4.9.3+ edits: witnesses that the two methods are still 4.9.3's (the encoder drops the last separator with
     * {@code deleteCharAt}; the parser finds the separators with {@code indexOf(int, int)}, takes {@code substring}s
     * and does not {@code split}: 4.9.0's has no {@code deleteCharAt} and no {@code indexOf}, so the variant is refused
     * there), then the same two body delegations to the 4.9.3+ codec.
     */
    static List<MethodEdit> variantEdits() {
        return Arrays.<MethodEdit>asList(
            new RequireMembers(Stock.PROPERTIES_TO_STRING, Arrays.asList(Stock.BUILDER_DELETE_CHAR_AT)),
            new RequireMembers(Stock.STRING_TO_PROPERTIES, Arrays.asList(Stock.STRING_INDEX_OF_FROM,
                Stock.STRING_SUBSTRING), Arrays.asList(Stock.STRING_SPLIT)),
            new DelegateBody(Stock.PROPERTIES_TO_STRING, Codec.ENCODE_PROPERTIES_493),
            new DelegateBody(Stock.STRING_TO_PROPERTIES, Codec.DECODE_PROPERTIES_493));
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.PROPERTIES_TO_STRING, Codec.ENCODE_PROPERTIES),
            new DelegateBody(Stock.STRING_TO_PROPERTIES, Codec.DECODE_PROPERTIES));
    }
}
