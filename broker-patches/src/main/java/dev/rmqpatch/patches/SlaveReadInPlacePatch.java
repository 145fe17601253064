package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.AddDelegate;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.MoveBlock;
import dev.rmqpatch.patches.transform.MoveBlock.Insn;
import dev.rmqpatch.patches.transform.RequireMembers;
import org.objectweb.asm.Opcodes;

/**
 * P19. Target: {@code HAService$HAClient.dispatchReadRequest()} in rocketmq-store, the SLAVE's replication thread
 * cutting the blocks its master pushes out of its read buffer.
 * Replacement: the statements that copy a block into a new {@code byte[bodySize]} and hand it to
 * {@code DefaultMessageStore.appendToCommitLog} move into a bridge which, while the patch is on, passes the read
 * buffer, the block's start and size instead; an added {@code DefaultMessageStore.rmqpatch$P19$appendToCommitLog}
 * gives codec's {@code SlaveReadInPlace} the store's private parts, and it runs {@code appendToCommitLog} and
 * {@code CommitLog.appendData} for that slice: the block goes from the read buffer to the file channel (or, with P14
 * enabled, into the CommitLog mapping) without the copy into an array. {@code appendToCommitLog} and {@code appendData} themselves are unchanged, but checked to still read and
 * call what the codec mirrors.
 * Why: 4.9.0 allocates (and zeroes) an array of up to 32 KB per block and copies the block twice. Upstream made the
 * same change in 4.9.1 (apache/rocketmq#2886).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class SlaveReadInPlacePatch implements Patch {

    private static final String BYTE_BUFFER = "java/nio/ByteBuffer";
    private static final String BUFFER_DESC = "L" + BYTE_BUFFER + ";";
    private static final String STORE_DESC = "L" + Stock.DEFAULT_MESSAGE_STORE + ";";
    private static final String STORE = "org/apache/rocketmq/store/";

    private static final MethodRef STORE_SHUTDOWN = new MethodRef(Stock.DEFAULT_MESSAGE_STORE, "shutdown", "Z");
    private static final MethodRef STORE_COMMIT_LOG = new MethodRef(Stock.DEFAULT_MESSAGE_STORE, "commitLog",
        "L" + Stock.COMMIT_LOG + ";");
    private static final MethodRef STORE_REPUT = new MethodRef(Stock.DEFAULT_MESSAGE_STORE, "reputMessageService",
        "L" + Stock.DEFAULT_MESSAGE_STORE + "$ReputMessageService;");
    private static final MethodRef REPUT_WAKEUP = new MethodRef(Stock.DEFAULT_MESSAGE_STORE + "$ReputMessageService",
        "wakeup", "()V");
    private static final MethodRef LOG_QUEUE = new MethodRef(Stock.COMMIT_LOG, "mappedFileQueue",
        "L" + STORE + "MappedFileQueue;");
    private static final MethodRef LOG_PUT_LOCK = new MethodRef(Stock.COMMIT_LOG, "putMessageLock",
        "L" + STORE + "PutMessageLock;");

    /** Added to DefaultMessageStore: appendToCommitLog for a slice of a buffer. */
    private static final MethodRef STORE_APPEND_SLICE = new MethodRef(Stock.DEFAULT_MESSAGE_STORE,
        "rmqpatch$P19$appendToCommitLog", "(" + STORE_DESC + "J" + BUFFER_DESC + "II)Z");

    /**
     * 4.9.0's {@code byte[] bodyData = new byte[bodySize]; byteBufferRead.position(dispatchPosition + msgHeaderSize);
     * byteBufferRead.get(bodyData); defaultMessageStore.appendToCommitLog(masterPhyOffset, bodyData);}.
     */
    private static final List<Insn> COPY_AND_APPEND = Arrays.asList(
        Insn.op(Opcodes.ILOAD),                                                                         // 0 bodySize
        Insn.op(Opcodes.NEWARRAY),
        Insn.op(Opcodes.ASTORE),
        Insn.op(Opcodes.ALOAD),                                                                         // 3 this
        Insn.member(Opcodes.GETFIELD, Stock.HA_CLIENT, "byteBufferRead", BUFFER_DESC),
        Insn.op(Opcodes.ALOAD),                                                                         // 5 this
        Insn.member(Opcodes.GETFIELD, Stock.HA_CLIENT, "dispatchPosition", "I"),
        Insn.op(Opcodes.BIPUSH),                                                                        // 7 msgHeaderSize
        Insn.op(Opcodes.IADD),
        Insn.member(Opcodes.INVOKEVIRTUAL, BYTE_BUFFER, "position", "(I)Ljava/nio/Buffer;"),
        Insn.op(Opcodes.POP),
        Insn.op(Opcodes.ALOAD),
        Insn.member(Opcodes.GETFIELD, Stock.HA_CLIENT, "byteBufferRead", BUFFER_DESC),
        Insn.op(Opcodes.ALOAD),
        Insn.member(Opcodes.INVOKEVIRTUAL, BYTE_BUFFER, "get", "([B)" + BUFFER_DESC),
        Insn.op(Opcodes.POP),
        Insn.op(Opcodes.ALOAD),                                                                         // 16 this
        Insn.member(Opcodes.GETFIELD, Stock.HA_CLIENT, "this$0", "L" + Stock.HA_SERVICE + ";"),
        Insn.member(Opcodes.INVOKESTATIC, Stock.HA_SERVICE, null, "(L" + Stock.HA_SERVICE + ";)" + STORE_DESC),
        Insn.op(Opcodes.LLOAD),                                                                         // 19 masterPhyOffset
        Insn.op(Opcodes.ALOAD),
        Insn.member(Opcodes.INVOKEVIRTUAL, Stock.DEFAULT_MESSAGE_STORE, "appendToCommitLog", "(J[B)Z"),
        Insn.op(Opcodes.POP));

    /** The store, the offset, the read buffer, dispatchPosition + msgHeaderSize, bodySize. */
    private static final int[] SLICE_ARGS = {16, 17, 18, 19, 3, 4, 5, 6, 7, 8, 0};

    @Override
    public String id() {
        return "P19";
    }

    @Override
    public String name() {
        return "slave-read-in-place";
    }

    @Override
    public String buys() {
        return "a slave's replicated block appended straight from the HA read buffer: no byte[] per block, one copy "
            + "instead of two (upstream 4.9.1)";
    }

    @Override
    public String effect() {
        return "A slave appends each block its master replicates straight from its HA read buffer into the CommitLog "
            + "(through the file channel as stock; into the mapping when P14 is enabled) instead of copying it into a new "
            + "array first; the "
            + "files, offsets and results are stock's.";
    }

    @Override
    public String why() {
        return "4.9.0 allocates and zeroes an array of up to 32 KB (haTransferBatchSize) per block and copies every "
            + "replicated byte twice on the slave's one replication thread.";
    }

    @Override
    public String verification() {
        return "The slave's CommitLog is byte for byte the master's up to the replicated offset, with the patch on and "
            + "with -Drmqpatch.disable=P19, P14 off (the default) and enabled.";
    }

    @Override
    public String tests() {
        return "MasterSlaveIT; codec: SlaveReadInPlaceTest";
    }

    @Override
    public String benchmark() {
        return "SlaveReadInPlaceBenchmark; end to end: scripts/compare.sh --efficiency --topology ms-sync with and "
            + "without -Drmqpatch.disable=P19";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "the slave appends from an offset and length into the read block from 4.9.1 "
            + "(javap: DefaultMessageStore.appendToCommitLog(long, byte[], int, int))") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new AddDelegate(Stock.STORE_APPEND_TO_COMMIT_LOG,
                Arrays.asList(STORE_SHUTDOWN, STORE_COMMIT_LOG, Stock.COMMIT_LOG_APPEND_DATA, STORE_REPUT, REPUT_WAKEUP),
                STORE_APPEND_SLICE,
                Arrays.asList(Collections.singletonList(STORE_SHUTDOWN), Arrays.asList(STORE_COMMIT_LOG, LOG_QUEUE),
                    Arrays.asList(STORE_COMMIT_LOG, LOG_PUT_LOCK), Collections.singletonList(STORE_REPUT)),
                Codec.SLAVE_READ_IN_PLACE),
            new RequireMembers(Stock.COMMIT_LOG_APPEND_DATA, Arrays.asList(LOG_PUT_LOCK,
                new MethodRef(STORE + "PutMessageLock", "lock", "()V"), new MethodRef(STORE + "PutMessageLock", "unlock", "()V"),
                LOG_QUEUE, new MethodRef(STORE + "MappedFileQueue", "getLastMappedFile", "(J)L" + STORE + "MappedFile;"))),
            new MoveBlock(Stock.HA_CLIENT_DISPATCH_READ, "appendBlock", COPY_AND_APPEND, SLICE_ARGS, STORE_APPEND_SLICE));
    }
}
