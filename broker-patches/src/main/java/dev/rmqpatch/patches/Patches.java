package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Every patch rmqpatch applies, in the order they are applied and listed: performance patches P1.., security patches
 * S1... A new patch is one class added here and its switch in the codec's PatchSwitches.
 */
public final class Patches {

    private static final List<Patch> ALL = Collections.unmodifiableList(Arrays.<Patch>asList(
        new HeaderDecodePatch(),
        new PropertiesCodecPatch(),
        new TransientPropertiesPatch(),
        new ResponseHeaderEncodePatch(),
        new JsonHeaderDecodePatch(),
        new JsonHeaderEncodePatch(),
        new CodecOnIoThreadPatch(),
        new RemoteAddressCachePatch(),
        new InlineResponsePatch(),
        new PullHeaderDecodePatch(),
        new PullHeaderEncodePatch(),
        new ConsumeQueueMappedWritePatch(),
        new ReplicaAckPatch(),
        new SlaveMappedAppendPatch(),
        new DirectResponsePatch(),
        new HaWakeupPatch(),
        new SocketBuffersPatch(),
        new StatsCountersPatch(),
        new SlaveReadInPlacePatch(),
        new EncodeOutsideLockPatch(),
        new StatsItemsPatch(),
        new GroupCommitLockPatch(),
        new HaGatherWritePatch(),
        new HaDrainedReadPatch(),
        new ClientIoThreadPatch(),
        new UniqueKeyPatch(),
        new ConsumeDecodePatch(),
        new InlineSendPatch(),
        new InlinePullCallbackPatch(),
        new ClientFlushBatchingPatch(),
        new InlineNextPullPatch(),
        new TopicCheckPatch(),
        new NamespaceMemoPatch(),
        new BatchPropertySeparatorPatch(),
        new HaAckPerReadPatch(),
        new ReputWakeupPatch(),
        new FastFailureTicksPatch(),
        new DelayLevelRestPatch(),
        new BrokerConfigGuardPatch(),
        new FilterServerShellPatch(),
        new NamesrvConfigGuardPatch(),
        new BindAddressPatch(),
        new FastjsonSafeModePatch(),
        new FrameBoundsPatch(),
        new AclConfigLeakPatch(),
        new AclAdminCodesPatch(),
        new GroupNamePatch()));

    private Patches() {
    }

    public static List<Patch> all() {
        return ALL;
    }
}
