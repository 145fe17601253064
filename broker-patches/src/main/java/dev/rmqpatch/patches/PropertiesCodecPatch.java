package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P2. Targets: {@code MessageDecoder.messageProperties2String(Map)} and
 * {@code MessageDecoder.string2messageProperties(String)} in rocketmq-common.
 * Replacement: the bodies delegate to {@code MessageProperties.encode} (reused buffer, one exact-size copy, stock's very string)
 * and {@code MessageProperties.decode} (index parser returning exactly what stock returns, for any input).
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
            + "client appends the batch's own properties to it), and parsed by index arithmetic into a presized "
            + "map instead of two levels of String.split.";
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
        return "PatchedClassesIT, DropInIT, PatchedClientBrokersIT (batches); codec: MessagePropertiesDifferentialTest";
    }

    @Override
    public String benchmark() {
        return "PropertiesBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.needsVariant(
            "4.9.3 writes no trailing separator and parses by index (an empty name skipped, a value "
            + "may hold \\u0001); as written the codec stores and sends 4.9.0's string, not the release's (read 4.9.3, 4.9.7 "
            + "MessageDecoder): a variant with the release's format and parser") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.PROPERTIES_TO_STRING, Codec.ENCODE_PROPERTIES),
            new DelegateBody(Stock.STRING_TO_PROPERTIES, Codec.DECODE_PROPERTIES));
    }
}
