package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * S6: the lengths a remoting frame and a compressed register-broker body claim are checked against the bytes they have
 * before anything is allocated, and QUERY_MESSAGE's count is cut before the index allocates it. Codec:
 * {@code FrameBounds}, {@code CompressedBodies}, {@code QueryLimits}.
 */
final class FrameBoundsPatch implements Patch {

    @Override
    public String id() {
        return "S6";
    }

    @Override
    public String name() {
        return "frame-bounds";
    }

    @Override
    public String buys() {
        return "nothing allocated for a length a frame or a compressed register-broker body claims beyond the bytes "
            + "that came; QUERY_MESSAGE's maxNum cut to 65,536";
    }

    @Override
    public String closes() {
        return "unbounded allocation from lengths and counts in requests (pre-authentication OutOfMemoryError)";
    }

    @Override
    public String fixedUpstream() {
        return "4.9.3 (#3475), 4.9.4 (#3588) for the header; 5.3.3 (#9265) for QUERY_MESSAGE";
    }

    @Override
    public String effect() {
        return "Before a frame is decoded, its header length is checked against the frame, and in the ROCKETMQ binary "
            + "header format (serialize type 1) the remark, ext-fields, key and value lengths against the bytes left: a "
            + "length that does not fit closes the connection, as any undecodable frame does, and nothing larger than "
            + "the frame is allocated for it. The name server reads a compressed REGISTER_BROKER body's parts into buffers "
            + "that grow with the bytes that arrive instead of allocating each claimed length at once. QUERY_MESSAGE's "
            + "maxNum is cut to 65,536 before the index allocates a list of that size (stock then cuts it to "
            + "maxMsgsNumBatch, 64 by default, as before). Well-formed frames, bodies and queries give stock's results.";
    }

    @Override
    public String why() {
        return "Stock allocates whatever a length field claims before reading it: a 21-byte frame claiming a "
            + "2,000,000,000-byte remark throws OutOfMemoryError in the broker's codec thread (every connection's "
            + "decoding shares that heap), before any ACL check; the header-length word alone allocates up to 16 MB per "
            + "frame of 8 bytes. Clients and mqadmin decode the same way, so a hostile server reaches them too. The name "
            + "server, which has no authentication, allocates every length a compressed REGISTER_BROKER body claims, and "
            + "the broker's index query allocates a list of the maxNum a QUERY_MESSAGE asks for (2 GB for 500,000,000).";
    }

    @Override
    public String verification() {
        return "A ROCKETMQ-format frame claiming a 2 GB remark closes its connection; the broker logs 'rmqpatch S6: "
            + "ROCKETMQ-format header's remark (2000000000 bytes) exceeds ...' and keeps serving other clients.";
    }

    @Override
    public String tests() {
        return "FrameBoundsIT; codec: FrameBoundsTest, CompressedBodiesTest";
    }

    @Override
    public String benchmark() {
        return "none (one int read and compare per frame; in every end-to-end run of the patched broker)";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.variant(
            "4.9.4 decodes frames from the ByteBuf with upstream's bounds: the header length against the frame "
            + "(RemotingCommand.decode(ByteBuf): 'bad header length') and the ROCKETMQ header's string and ext-fields "
            + "lengths (rocketMQProtocolDecode(ByteBuf, int), #3588) (javap 4.9.4; read 4.9.8), so the frame edits are "
            + "left out; its compressed REGISTER_BROKER body (RegisterBrokerBody.readBytes: new byte[length]) and "
            + "QUERY_MESSAGE (IndexService.queryOffset: new ArrayList(maxNum), one call in DefaultMessageStore.queryMessage) "
            + "still allocate what they claim (javap 4.9.4; read 4.9.8): the variant keeps those two edits",
            boundsEdits()) : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        List<MethodEdit> edits = new ArrayList<MethodEdit>(Arrays.<MethodEdit>asList(
            new EntryHook(Stock.FRAME_DECODE, Codec.CHECK_FRAME),
            new EntryHook(Stock.ROCKETMQ_HEADER_DECODE, Codec.CHECK_ROCKETMQ_HEADER)));
        edits.addAll(boundsEdits());
        return edits;
    }

    /** The register-broker body and QUERY_MESSAGE edits: all of S6 on 4.9.4+, whose frame decode has bounds. */
    static List<MethodEdit> boundsEdits() {
        return Arrays.<MethodEdit>asList(
            new DelegateBody(Stock.REGISTER_BROKER_BODY_READ_BYTES, Codec.READ_COMPRESSED_BYTES),
            ReplaceCall.ofInstanceCall(Stock.STORE_QUERY_MESSAGE, Stock.INDEX_QUERY_OFFSET, Opcodes.INVOKEVIRTUAL,
                Codec.QUERY_OFFSET_BOUNDED, 1));
    }
}
