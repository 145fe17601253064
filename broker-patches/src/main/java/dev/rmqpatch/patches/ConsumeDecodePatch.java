package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P28. Targets: {@code MessageDecoder.decodes(ByteBuffer, boolean)} (a consumer's decode of every pull response's
 * body) and {@code MessageDecoder.decode(ByteBuffer, boolean, boolean, boolean)} (which every other decode overload
 * calls, in clients and in the broker) in rocketmq-common.
 * Replacement: the bodies delegate to codec's {@code MessageDecodes.decodes} and {@code MessageDecodes.decode}: the
 * same reads and checks, the same objects, without the per-message byte[] copies of topic and properties, the two
 * host arrays, and the ByteBuffers, address copy and char[] of the offset message id.
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
        return "PatchedClassesIT, PullPathIT; codec: MessageDecodesDifferentialTest";
    }

    @Override
    public String benchmark() {
        return "ConsumeDecodeBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.needsVariant(
            "4.9.4's MessageDecoder.decode picks zlib, LZ4 or ZSTD by the sysFlag; MessageDecodes "
            + "always inflates zlib, so an LZ4 or ZSTD body fails or comes out wrong (read 4.9.4, 4.9.7): a variant by type") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.MESSAGE_DECODES, Codec.DECODES),
            new DelegateBody(Stock.MESSAGE_DECODE, Codec.DECODE));
    }
}
