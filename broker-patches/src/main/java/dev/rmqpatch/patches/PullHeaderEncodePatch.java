package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P11. Target: {@code RemotingCommand.makeCustomHeaderToNet()} in rocketmq-remoting, the method P4 hooks too; this
 * hook runs before P4's, behind its own switch.
 * Replacement: an entry hook, {@code RemotingCommandHooks.makePullHeaderToNet}, which writes
 * {@code PullMessageResponseHeader} (and, in a client, {@code PullMessageRequestHeader}) straight into the ext fields
 * and returns false for every other header. The keys go into a map of stock's default capacity in stock's order, so
 * the JSON header on the wire is stock's byte for byte.
 * Why: every pull response (found, not found, offset moved) encodes its four-field header by reflection; upstream
 * hand-wrote it in 4.9.3.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class PullHeaderEncodePatch implements Patch {

    @Override
    public String id() {
        return "P11";
    }

    @Override
    public String name() {
        return "pull-header-encode";
    }

    @Override
    public String buys() {
        return "no reflection per pull response; the same bytes on the wire";
    }

    @Override
    public String effect() {
        return "PullMessageResponseHeader is written into the ext fields without reflection, into a map of stock's "
            + "default capacity and in stock's key order, so pull responses are stock's bytes on the wire.";
    }

    @Override
    public String why() {
        return "Every pull response encodes its header by reflection (PullHeaderEncodeBenchmark).";
    }

    @Override
    public String verification() {
        return "Consumers receive nextBeginOffset, minOffset and maxOffset with every pull result, as from a stock "
            + "broker, and keep advancing through the queue.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT, PullPathIT, DropInIT; codec: RemotingCommandHooksTest, HeaderDifferentialTest";
    }

    @Override
    public String benchmark() {
        return "PullHeaderEncodeBenchmark";
    }

    /**
     * 4.9.7+: the variant's hook writes with {@code RpcHeaderEncoders}, which know 4.9.7's fields and key order; the
     * codecs as written would drop the pull request's {@code bname} (HeaderMirrors refuses them there).
     */
    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_7) ? ReleaseFit.variant(
            "4.9.7's pull request header carries bname (from RpcRequestHeader), and its makeCustomHeaderToNet puts "
            + "the fields of the class and its superclasses in through a HashSet, not in declaration order "
            + "(javap 4.9.7, 4.9.8; read 4.9.7): the hook makeRpcPullHeaderToNet writes those fields in that "
            + "order (RpcHeaderEncoders; RpcHeaderEncodeDifferentialTest against stock 4.9.7, 4.9.8)",
            Collections.<MethodEdit>singletonList(new EntryHook(Stock.MAKE_CUSTOM_HEADER_TO_NET,
                Codec.ENCODE_RPC_PULL_HEADER)))
            : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new EntryHook(Stock.MAKE_CUSTOM_HEADER_TO_NET, Codec.ENCODE_PULL_HEADER));
    }
}
