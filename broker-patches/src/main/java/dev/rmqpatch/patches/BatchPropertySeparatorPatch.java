package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.AddDelegate;
import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;

/**
 * P36. Target: {@code CommitLog$MessageExtBatchEncoder.encode(MessageExtBatch)} in rocketmq-store, which encodes
 * every message of a SEND_BATCH_MESSAGE request before the append: each message's own properties, then the batch's
 * (the request header's, and CLUSTER).
 * Replacement: {@code encode} first calls an added {@code rmqpatch$P36$encode}, which hands the encoder's
 * {@code msgBatchMemory} and {@code maxMessageSize} to {@code BatchPropertySeparator.encode}: for a well-formed batch in
 * which a message's properties do not end with the separator (every 4.9.1+ client writes them so) it encodes the batch
 * in stock's layout, that message's properties as 4.9.7 stores them (its own, the separator, the batch's without their
 * last separator: the same length as stock's); it returns
 * null, and stock's body runs, for every other batch (a 4.9.0 client's, anything malformed or oversized).
 * Why: without it every message of a 4.9.1+ client's batch loses its last property on a 4.9.0 broker, stock or patched
 * (issue 42). Upstream fixed it in the store's batch encoder ({@code MessageExtEncoder}, already in 4.9.3 and 4.9.4).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class BatchPropertySeparatorPatch implements Patch {

    private static final MethodRef MSG_BATCH_MEMORY = new MethodRef(Stock.BATCH_ENCODER, "msgBatchMemory",
        "Ljava/nio/ByteBuffer;");
    private static final MethodRef MAX_MESSAGE_SIZE = new MethodRef(Stock.BATCH_ENCODER, "maxMessageSize", "I");

    /** Added to the encoder: its private buffer and size limit to the codec. */
    private static final MethodRef ADDED_ENCODE = new MethodRef(Stock.BATCH_ENCODER, "rmqpatch$P36$encode",
        "(L" + Stock.BATCH_ENCODER + ";" + Stock.BATCH_ENCODE.desc.substring(1));

    /** What the codec mirrors of stock's encode: it must still read and call these. */
    private static final List<MethodRef> MIRRORED = Arrays.asList(MSG_BATCH_MEMORY, MAX_MESSAGE_SIZE,
        new MethodRef(Stock.COMMIT_LOG, "calMsgLength", "(IIII)I"),
        new MethodRef("org/apache/rocketmq/common/UtilAll", "crc32", "([BII)I"),
        Stock.PROPERTIES_TO_STRING,
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "wrap", "()Ljava/nio/ByteBuffer;"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getProperties", "()Ljava/util/Map;"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getTopic", "()Ljava/lang/String;"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getSysFlag", "()I"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getQueueId", "()I"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getBornTimestamp", "()J"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getBornHostBytes", "(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getStoreTimestamp", "()J"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getStoreHostBytes", "(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;"),
        new MethodRef(Stock.MESSAGE_EXT_BATCH, "getReconsumeTimes", "()I"));

    @Override
    public String id() {
        return "P36";
    }

    @Override
    public String name() {
        return "batch-property-separator";
    }

    @Override
    public String buys() {
        return "every message of a 4.9.1+ client's batch keeps its last property, as on 4.9.7, and its own id (5.x "
            + "clients); a 4.9.0 client's batch stored by stock's code";
    }

    @Override
    public String effect() {
        return "A batch message whose properties do not end with the separator (char 2; every 4.9.1+ client writes them "
            + "so) is stored with one separator between its properties and the batch's (CLUSTER and the request "
            + "header's, then without their last separator): the bytes a 4.9.7 broker stores, the length stock "
            + "stores; a batch whose messages all end with it (4.9.0 and older clients), or that is malformed or "
            + "oversized, is encoded by stock's code, as before.";
    }

    @Override
    public String why() {
        return "4.9.0 appends the batch's properties straight after each message's own, so with a 4.9.1+ client the "
            + "message's last value and the batch's first key run together and every message of send(Collection) is "
            + "read back without its last user property, from stock and patched brokers alike (issue 42; upstream's "
            + "fix is in 4.9.7's MessageExtEncoder). A 5.x client's batch id (UNIQ_KEY) is left out of the join, so "
            + "each message keeps its own id where 4.9.7 gives every message the batch's (upstream #9416).";
    }

    @Override
    public String verification() {
        return "A 4.9.7 client's batch read back from the broker carries every user property (a stock 4.9.0 broker, "
            + "and this one with -Drmqpatch.disable=P36, lose the last one); randomised batches encoded by the patched "
            + "4.9.0 encoder and by 4.9.7's give the same bytes, and those of 4.9.0 clients stock's bytes.";
    }

    @Override
    public String tests() {
        return "BatchPropertySeparatorIT, BatchClientBrokersIT, BatchEncoderReleasesTest (upstream on 4.9.3, 4.9.4: their "
            + "stock encoders against 4.9.7's); codec: BatchPropertySeparatorTest";
    }

    @Override
    public String benchmark() {
        return "BatchEncodeBenchmark (a 4.9.0 client's batch: one scan of its message lengths more than stock; a "
            + "4.9.1+ client's: the codec's encode instead of stock's)";
    }

    @Override
    public ReleaseFit on(Release release) {
        if (release.atLeast(Release.V4_9_7)) {
            return ReleaseFit.upstream("4.9.7's MessageExtEncoder keeps every message's last property: P36 writes 4.9.7's "
                + "bytes, which its tests check against rocketmq-store 4.9.7's encoder");
        }
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's and 4.9.4's batch encoder (CommitLog$MessageExtEncoder.encode(MessageExtBatch, PutMessageContext)) "
                + "appends one separator between a message's properties and the batch's when the message's do not end "
                + "with one (needAppendLastPropertySeparator; read 4.9.3, 4.9.4: 4.9.4's loop is 4.9.7's): tests "
                + "(BatchEncoderReleasesTest) show their stock encoders store 4.9.7's bytes for 4.9.0, 4.9.3, 4.9.4 and "
                + "4.9.7 clients' batches, every property read back") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new AddDelegate(Stock.BATCH_ENCODE, MIRRORED, ADDED_ENCODE,
                Arrays.asList(Arrays.asList(MSG_BATCH_MEMORY), Arrays.asList(MAX_MESSAGE_SIZE)),
                Codec.BATCH_PROPERTY_SEPARATOR),
            EntryHook.ofAddedHook(Stock.BATCH_ENCODE, ADDED_ENCODE));
    }
}
