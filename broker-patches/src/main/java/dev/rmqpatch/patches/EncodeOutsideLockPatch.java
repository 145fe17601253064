package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.AddDelegate;
import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.ReplaceCall;
import dev.rmqpatch.patches.transform.RequireMembers;
import org.objectweb.asm.Opcodes;

/**
 * P20. Targets: {@code CommitLog.putMessage} and {@code asyncPutMessage} (single messages) and
 * {@code CommitLog$DefaultAppendMessageCallback.doAppend(long, ByteBuffer, int, MessageExtBrokerInner)} in
 * rocketmq-store, which 4.9.0 calls holding the CommitLog's put lock.
 * Replacement: the put methods remember the message on entry ({@code EncodeOutsideLock.beginPut}), and their
 * {@code putMessageLock.lock()} becomes {@code EncodeOutsideLock.lock}, which encodes it into a per-thread buffer
 * first; {@code doAppend} first calls an added {@code rmqpatch$P20$doAppend}, which hands the callback's
 * {@code maxMessageSize} and its CommitLog's {@code topicQueueTable} and store to {@code EncodeOutsideLock.doAppend}:
 * it writes the queue offset, physical offset and store timestamp into the encoded bytes and copies them, and
 * returns stock's result with a msgId made when read. Whatever it declines (an error, END_OF_FILE, a message not
 * encoded) runs stock's body. The stock code the codec mirrors is checked at build time.
 * Why: 4.9.0 does all of the encoding (and the msgId's hex string) while every other sender waits on the lock.
 * Upstream made the same change in 4.9.1 (apache/rocketmq#2889).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class EncodeOutsideLockPatch implements Patch {

    private static final String STORE = "org/apache/rocketmq/store/";
    private static final String INNER = "L" + Stock.MESSAGE_EXT_BROKER_INNER + ";";

    private static final MethodRef CB_MAX_MESSAGE_SIZE = new MethodRef(Stock.APPEND_CALLBACK, "maxMessageSize", "I");
    private static final MethodRef CB_COMMIT_LOG = new MethodRef(Stock.APPEND_CALLBACK, "this$0",
        "L" + Stock.COMMIT_LOG + ";");
    private static final MethodRef LOG_TOPIC_QUEUE_TABLE = new MethodRef(Stock.COMMIT_LOG, "topicQueueTable",
        "Ljava/util/HashMap;");
    private static final MethodRef LOG_STORE = new MethodRef(Stock.COMMIT_LOG, "defaultMessageStore",
        "L" + Stock.DEFAULT_MESSAGE_STORE + ";");
    private static final MethodRef STORE_NOW = new MethodRef(Stock.DEFAULT_MESSAGE_STORE, "now", "()J");
    private static final MethodRef CAL_MSG_LENGTH = new MethodRef(Stock.COMMIT_LOG, "calMsgLength", "(IIII)I");
    private static final MethodRef CREATE_MESSAGE_ID = new MethodRef(Stock.MESSAGE_DECODER, "createMessageId",
        "(Ljava/nio/ByteBuffer;Ljava/nio/ByteBuffer;J)Ljava/lang/String;");
    private static final MethodRef GET_TRANSACTION_VALUE = new MethodRef(
        "org/apache/rocketmq/common/sysflag/MessageSysFlag", "getTransactionValue", "(I)I");
    private static final MethodRef RESULT_INIT = new MethodRef(STORE + "AppendMessageResult", "<init>",
        "(L" + STORE + "AppendMessageStatus;JILjava/lang/String;JJJ)V");

    /** Added to the callback: doAppend's private state to the codec. */
    private static final MethodRef ADDED_DO_APPEND = new MethodRef(Stock.APPEND_CALLBACK, "rmqpatch$P20$doAppend",
        "(L" + Stock.APPEND_CALLBACK + ";" + Stock.APPEND_CALLBACK_DO_APPEND.desc.substring(1));

    /** What the single-message doAppend reads of the message, in stock's field order. */
    private static final String[][] MESSAGE_READS = {
        {"getSysFlag", "()I"}, {"getTopic", "()Ljava/lang/String;"}, {"getQueueId", "()I"},
        {"getPropertiesString", "()Ljava/lang/String;"}, {"getBody", "()[B"}, {"getBodyCRC", "()I"},
        {"getFlag", "()I"}, {"getBornTimestamp", "()J"},
        {"getBornHostBytes", "(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;"}, {"getStoreTimestamp", "()J"},
        {"getStoreHostBytes", "(Ljava/nio/ByteBuffer;)Ljava/nio/ByteBuffer;"}, {"getReconsumeTimes", "()I"},
        {"getPreparedTransactionOffset", "()J"}};

    @Override
    public String id() {
        return "P20";
    }

    @Override
    public String name() {
        return "encode-outside-lock";
    }

    @Override
    public String buys() {
        return "a single message encoded before the CommitLog put lock, not under it; msgId string made when read "
            + "(upstream 4.9.1)";
    }

    @Override
    public String effect() {
        return "A single message is encoded into a per-thread buffer before the CommitLog's put lock is taken; under "
            + "the lock only its queue offset, physical offset and store timestamp are written into it and it is "
            + "copied into the CommitLog; the msgId hex string is made when first read. Files, offsets, msgIds and "
            + "results are stock's.";
    }

    @Override
    public String why() {
        return "4.9.0 builds the host buffers, the msgId hex string, the properties' and topic's bytes and the "
            + "encoded message inside DefaultAppendMessageCallback.doAppend, holding the lock every sender waits on "
            + "(docs/send-path.md row 9; apache/rocketmq#2889, 4.9.1).";
    }

    @Override
    public String verification() {
        return "Randomised messages (v4/v6 hosts, transaction types, delay levels, oversize ones, enough to cross file "
            + "ends) put through a stock store and a patched one give the same results and the same CommitLog bytes "
            + "(store timestamps and the unread tail of end-of-file blanks masked); with -Drmqpatch.disable=P20 the "
            + "stock code runs.";
    }

    @Override
    public String tests() {
        return "EncodeOutsideLockIT, MasterSlaveIT, DropInIT; codec: EncodeOutsideLockTest";
    }

    @Override
    public String benchmark() {
        return "EncodeOutsideLockBenchmark; end to end: scripts/compare.sh --efficiency with and without "
            + "-Drmqpatch.disable=P20";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.1 encodes a message before the put lock; CommitLog has no "
            + "putMessage(MessageExtBrokerInner) (javap)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        List<MethodRef> mirrored = new ArrayList<MethodRef>(Arrays.asList(CB_MAX_MESSAGE_SIZE, CB_COMMIT_LOG,
            LOG_TOPIC_QUEUE_TABLE, LOG_STORE, STORE_NOW, CAL_MSG_LENGTH, CREATE_MESSAGE_ID, GET_TRANSACTION_VALUE,
            RESULT_INIT));
        for (String[] read : MESSAGE_READS) {
            mirrored.add(new MethodRef(Stock.MESSAGE_EXT_BROKER_INNER, read[0], read[1]));
        }
        List<MethodRef> putReads = Arrays.asList(new MethodRef(Stock.COMMIT_LOG, "putMessageLock",
                "L" + Stock.PUT_MESSAGE_LOCK + ";"),
            new MethodRef(Stock.MESSAGE_EXT_BROKER_INNER, "setStoreTimestamp", "(J)V"),
            new MethodRef(STORE + "MappedFile", "appendMessage",
                "(" + INNER + "L" + STORE + "AppendMessageCallback;)L" + STORE + "AppendMessageResult;"));
        return Arrays.<MethodEdit>asList(
            new RequireMembers(Stock.COMMIT_LOG_PUT, putReads),
            new RequireMembers(Stock.COMMIT_LOG_ASYNC_PUT, putReads),
            new EntryHook(Stock.COMMIT_LOG_PUT, Codec.ENCODE_BEGIN_PUT),
            new EntryHook(Stock.COMMIT_LOG_ASYNC_PUT, Codec.ENCODE_BEGIN_ASYNC_PUT),
            ReplaceCall.ofInstanceCall(Stock.COMMIT_LOG_PUT, Stock.PUT_MESSAGE_LOCK_LOCK, Opcodes.INVOKEINTERFACE,
                Codec.ENCODE_LOCK, 1),
            ReplaceCall.ofInstanceCall(Stock.COMMIT_LOG_ASYNC_PUT, Stock.PUT_MESSAGE_LOCK_LOCK, Opcodes.INVOKEINTERFACE,
                Codec.ENCODE_LOCK, 1),
            new AddDelegate(Stock.APPEND_CALLBACK_DO_APPEND, mirrored, ADDED_DO_APPEND,
                Arrays.asList(Collections.singletonList(CB_MAX_MESSAGE_SIZE),
                    Arrays.asList(CB_COMMIT_LOG, LOG_TOPIC_QUEUE_TABLE), Arrays.asList(CB_COMMIT_LOG, LOG_STORE)),
                Codec.ENCODE_DO_APPEND),
            EntryHook.ofAddedHook(Stock.APPEND_CALLBACK_DO_APPEND, ADDED_DO_APPEND));
    }
}
