package dev.rmqpatch.codec.hook;

import dev.rmqpatch.codec.header.HeaderCodec;
import org.apache.rocketmq.remoting.CommandCustomHeader;

/**
 * The header codecs as the remoting hooks see them: an interface that names only remoting types, implemented by
 * {@code HeaderCodecs.Lookup}, which names rocketmq-common's header classes and is loaded only once a header of one of
 * those classes is in hand ({@link HeaderGroups}). So the patched rocketmq-remoting, like stock, runs without
 * rocketmq-common.
 */
public interface HeaderCodecLookup {

    /** The send-path codec (P1, P4) for exactly this class, or null. */
    HeaderCodec<? extends CommandCustomHeader> sendPath(Class<? extends CommandCustomHeader> headerClass);

    /** The pull-path codec (P10, P11) for exactly this class, or null. */
    HeaderCodec<? extends CommandCustomHeader> pullPath(Class<? extends CommandCustomHeader> headerClass);
}
