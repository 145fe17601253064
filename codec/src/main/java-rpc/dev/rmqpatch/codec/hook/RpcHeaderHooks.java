package dev.rmqpatch.codec.hook;

import java.util.HashMap;

import dev.rmqpatch.codec.header.HeaderEncoder;
import dev.rmqpatch.codec.header.RpcHeaderEncoders;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The entry hooks of P4's and P11's 4.9.7+ variants, first thing in {@code RemotingCommand.makeCustomHeaderToNet()}:
 * true when the header was written here (with 4.9.7's {@code bname} and V2's {@code n}, in 4.9.7's key order:
 * {@code RpcHeaderEncoders}), false for every other header, which stock reflection then writes. Like
 * {@code RemotingCommandHooks}, names no rocketmq-common class: the encoders are reached through a holder only after
 * {@code HeaderGroups} matched the header's class by name. Compiled from src/main/java-rpc against 4.9.7's headers.
 */
public final class RpcHeaderHooks {

    private RpcHeaderHooks() {
    }

    /** P4 on 4.9.7+: the send group's headers (SEND_MESSAGE_V2 and V1 requests, the send response). */
    public static boolean makeRpcHeaderToNet(RemotingCommand cmd) {
        CommandCustomHeader header = cmd.readCustomHeader();
        return header != null && HeaderGroups.of(header.getClass()) == HeaderGroups.SEND
            && write(cmd, header, Loaded.sendPath(header.getClass()));
    }

    /** P11 on 4.9.7+: the pull group's headers (the pull request and response). */
    public static boolean makeRpcPullHeaderToNet(RemotingCommand cmd) {
        CommandCustomHeader header = cmd.readCustomHeader();
        return header != null && HeaderGroups.of(header.getClass()) == HeaderGroups.PULL
            && write(cmd, header, Loaded.pullPath(header.getClass()));
    }

    @SuppressWarnings("unchecked")
    private static boolean write(RemotingCommand cmd, CommandCustomHeader header,
                                 HeaderEncoder<? extends CommandCustomHeader> found) {
        if (found == null) {
            return false;
        }
        HeaderEncoder<CommandCustomHeader> encoder = (HeaderEncoder<CommandCustomHeader>) found;
        HashMap<String, String> ext = cmd.getExtFields();
        if (ext == null) {
            // Stock's default capacity: it decides the HashMap's iteration order, the order of the keys on the wire.
            ext = new HashMap<String, String>();
            cmd.setExtFields(ext);
        }
        encoder.write(header, ext);
        return true;
    }

    /** The gate to the encoders, which name rocketmq-common's header classes (HeaderGroups' Loaded likewise). */
    private static final class Loaded {
        static HeaderEncoder<? extends CommandCustomHeader> sendPath(Class<? extends CommandCustomHeader> c) {
            return RpcHeaderEncoders.sendPath(c);
        }

        static HeaderEncoder<? extends CommandCustomHeader> pullPath(Class<? extends CommandCustomHeader> c) {
            return RpcHeaderEncoders.pullPath(c);
        }
    }
}
