package dev.rmqpatch.codec.hook;

import java.util.HashMap;

import dev.rmqpatch.codec.header.HeaderCodec;
import dev.rmqpatch.codec.header.HeaderCodecs;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Entry points that the patched {@code RemotingCommand} calls first thing in its reflective header methods.
 * Each returns a "not handled" value (null, false) for header classes without a codec, and the stock method
 * body then runs unchanged. Uses only RemotingCommand's public API.
 */
public final class RemotingCommandHooks {

    private RemotingCommandHooks() {
    }

    /** Start of {@code decodeCommandCustomHeader(Class)}: the decoded header, or null to fall back to reflection. */
    public static CommandCustomHeader decodeCommandCustomHeader(RemotingCommand cmd,
                                                                Class<? extends CommandCustomHeader> headerClass)
        throws RemotingCommandException {
        HeaderCodec<? extends CommandCustomHeader> codec = HeaderCodecs.forClass(headerClass);
        return codec == null ? null : codec.decode(cmd.getExtFields());
    }

    /** Start of {@code makeCustomHeaderToNet()}: true when the custom header was encoded here. */
    public static boolean makeCustomHeaderToNet(RemotingCommand cmd) {
        CommandCustomHeader header = cmd.readCustomHeader();
        if (header == null) {
            return false;
        }
        HeaderCodec<CommandCustomHeader> codec = codecOf(header);
        if (codec == null) {
            return false;
        }
        HashMap<String, String> ext = cmd.getExtFields();
        if (ext == null) {
            // Stock's own default-capacity map, not a presized one: the capacity decides the HashMap's iteration
            // order, and with it the order of the keys in the JSON header, which must be stock's byte for byte.
            ext = new HashMap<String, String>();
            cmd.setExtFields(ext);
        }
        codec.encode(header, ext);
        return true;
    }

    @SuppressWarnings("unchecked")
    private static HeaderCodec<CommandCustomHeader> codecOf(CommandCustomHeader header) {
        return (HeaderCodec<CommandCustomHeader>) HeaderCodecs.forClass(header.getClass());
    }
}
