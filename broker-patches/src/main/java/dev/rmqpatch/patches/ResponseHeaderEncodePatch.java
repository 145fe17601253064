package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P4. Target: {@code RemotingCommand.makeCustomHeaderToNet()} in rocketmq-remoting.
 * Replacement: an entry hook, {@code RemotingCommandHooks.makeCustomHeaderToNet}, which writes headers that have
 * a codec ({@code SendMessageResponseHeader}, the one sent for every message) straight into the ext fields and
 * returns false for all others, which keep stock reflection. A command without ext fields gets a default-capacity
 * HashMap as in stock, so the JSON header lists the keys in stock's order.
 * Why: reflective makeCustomHeaderToNet is ~3% of broker CPU on the produce path (docs/baseline.md).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class ResponseHeaderEncodePatch implements Patch {

    @Override
    public String id() {
        return "P4";
    }

    @Override
    public String name() {
        return "response-header-encode";
    }

    @Override
    public String buys() {
        return "no reflection per send response";
    }

    @Override
    public String effect() {
        return "SendMessageResponseHeader (and the send request headers, when a patched jar is used on the client "
            + "side) is written into the ext fields without reflection; a command without ext fields gets a map of "
            + "stock's default capacity, so the keys iterate, and go on the wire, in stock's order.";
    }

    @Override
    public String why() {
        return "The reflective makeCustomHeaderToNet is about 3% of broker CPU on the produce path "
            + "(docs/baseline.md).";
    }

    @Override
    public String verification() {
        return "Producers receive msgId, queueId and queueOffset for every send, as from a stock broker.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, every acknowledged send in the ITs; codec: RemotingCommandHooksTest";
    }

    @Override
    public String benchmark() {
        return "ResponseHeaderEncodeBenchmark";
    }

    /**
     * 4.9.7+: the variant's hook writes with {@code RpcHeaderEncoders}, which know 4.9.7's fields and key order; the
     * codecs as written would drop {@code bname} and V2's {@code n} (HeaderMirrors refuses them there).
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_7) ? ReleaseFit.variant(
            "4.9.7's send request headers carry bname (from RpcRequestHeader) and SEND_MESSAGE_V2 n (no getter), "
            + "and its makeCustomHeaderToNet puts the fields of the class and its superclasses in through a HashSet, "
            + "not in declaration order (javap 4.9.7, 4.9.8; read 4.9.7): the hook makeRpcHeaderToNet writes those "
            + "fields in that order (RpcHeaderEncoders; RpcHeaderEncodeDifferentialTest against stock 4.9.7, 4.9.8)",
            Collections.<MethodEdit>singletonList(new EntryHook(Stock.MAKE_CUSTOM_HEADER_TO_NET, Codec.ENCODE_RPC_HEADER)))
            : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.MAKE_CUSTOM_HEADER_TO_NET, Codec.ENCODE_HEADER));
    }
}
