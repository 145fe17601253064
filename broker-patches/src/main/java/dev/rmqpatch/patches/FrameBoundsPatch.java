package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/** S6: remoting frames' lengths checked against their bytes before anything is allocated. Codec: {@code FrameBounds}. */
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
    public String closes() {
        return "unbounded allocation from remoting length fields (pre-authentication OutOfMemoryError)";
    }

    @Override
    public String fixedUpstream() {
        return "4.9.3 (#3475), 4.9.4 (#3588)";
    }

    @Override
    public String effect() {
        return "Before a frame is decoded, its header length is checked against the frame, and in the ROCKETMQ binary "
            + "header format (serialize type 1) the remark, ext-fields, key and value lengths against the bytes left: a "
            + "length that does not fit closes the connection, as any undecodable frame does, and nothing larger than "
            + "the frame is allocated for it. Well-formed frames decode exactly as before.";
    }

    @Override
    public String why() {
        return "Stock allocates whatever a length field claims before reading it: a 21-byte frame claiming a "
            + "2,000,000,000-byte remark throws OutOfMemoryError in the broker's codec thread (every connection's "
            + "decoding shares that heap), before any ACL check; the header-length word alone allocates up to 16 MB per "
            + "frame of 8 bytes. Clients and mqadmin decode the same way, so a hostile server reaches them too.";
    }

    @Override
    public String verification() {
        return "A ROCKETMQ-format frame claiming a 2 GB remark closes its connection; the broker logs 'rmqpatch S6: "
            + "ROCKETMQ-format header's remark (2000000000 bytes) exceeds ...' and keeps serving other clients.";
    }

    @Override
    public String tests() {
        return "FrameBoundsIT; codec: FrameBoundsTest";
    }

    @Override
    public String benchmark() {
        return "none (one int read and compare per frame; in every end-to-end run of the patched broker)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new EntryHook(Stock.FRAME_DECODE, Codec.CHECK_FRAME),
            new EntryHook(Stock.ROCKETMQ_HEADER_DECODE, Codec.CHECK_ROCKETMQ_HEADER));
    }
}
