package dev.rmqpatch.codec.hook;

import java.util.HashMap;

import dev.rmqpatch.codec.header.HeaderCodec;
import dev.rmqpatch.codec.json.JsonHeaderReader;
import dev.rmqpatch.codec.json.JsonHeaderWriter;
import dev.rmqpatch.codec.security.AutoTypeGuard;
import dev.rmqpatch.codec.switches.PatchSwitches;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;

/**
 * Entry points that the patched {@code RemotingCommand} calls. The custom-header hooks run first thing in its
 * reflective header methods and return a "not handled" value (null, false) for header classes without a codec,
 * and the stock method body then runs unchanged. The JSON-header hooks replace the one fastjson call in
 * {@code headerDecode} and {@code headerEncode} and make that call themselves for whatever their reader or writer
 * declines. Uses only RemotingCommand's public API, and names no rocketmq-common class: the header codecs are reached
 * through {@link HeaderGroups}, only for a header of one of their classes.
 */
public final class RemotingCommandHooks {

    private RemotingCommandHooks() {
    }

    /**
     * P1, start of {@code decodeCommandCustomHeader(Class)}: the decoded send-path header, or null to fall back to
     * reflection (or to P10's hook, which runs first, declined the class).
     */
    public static CommandCustomHeader decodeCommandCustomHeader(RemotingCommand cmd,
                                                                Class<? extends CommandCustomHeader> headerClass)
        throws RemotingCommandException {
        if (HeaderGroups.of(headerClass) != HeaderGroups.SEND) {
            return null;
        }
        HeaderCodec<? extends CommandCustomHeader> codec = HeaderGroups.codecs().sendPath(headerClass);
        return codec == null ? null : codec.decode(cmd.getExtFields());
    }

    /** P10, start of {@code decodeCommandCustomHeader(Class)}: the decoded pull-path header, or null. */
    public static CommandCustomHeader decodePullCustomHeader(RemotingCommand cmd,
                                                             Class<? extends CommandCustomHeader> headerClass)
        throws RemotingCommandException {
        if (HeaderGroups.of(headerClass) != HeaderGroups.PULL) {
            return null;
        }
        HeaderCodec<? extends CommandCustomHeader> codec = HeaderGroups.codecs().pullPath(headerClass);
        return codec == null ? null : codec.decode(cmd.getExtFields());
    }

    /** P4, start of {@code makeCustomHeaderToNet()}: true when the send-path custom header was encoded here. */
    public static boolean makeCustomHeaderToNet(RemotingCommand cmd) {
        CommandCustomHeader header = cmd.readCustomHeader();
        return header != null && HeaderGroups.of(header.getClass()) == HeaderGroups.SEND
            && encode(cmd, header, HeaderGroups.codecs().sendPath(header.getClass()));
    }

    /** P11, start of {@code makeCustomHeaderToNet()}: true when the pull-path custom header was encoded here. */
    public static boolean makePullHeaderToNet(RemotingCommand cmd) {
        CommandCustomHeader header = cmd.readCustomHeader();
        return header != null && HeaderGroups.of(header.getClass()) == HeaderGroups.PULL
            && encode(cmd, header, HeaderGroups.codecs().pullPath(header.getClass()));
    }

    @SuppressWarnings("unchecked")
    private static boolean encode(RemotingCommand cmd, CommandCustomHeader header,
                                  HeaderCodec<? extends CommandCustomHeader> found) {
        if (found == null) {
            return false;
        }
        HeaderCodec<CommandCustomHeader> codec = (HeaderCodec<CommandCustomHeader>) found;
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

    /**
     * Replaces {@code RemotingSerializable.decode(headerData, RemotingCommand.class)} in {@code headerDecode}, the
     * JSON branch of every frame decode: the hand-written reader's command, or fastjson's for what it declines and
     * does not name {@code @type} (S5: such a header is refused, as fastjson refuses an undecodable one).
     */
    @SuppressWarnings("unchecked")
    public static <T> T decodeJsonHeader(byte[] headerData, Class<T> classOfT) {
        if (classOfT == RemotingCommand.class) {
            RemotingCommand cmd = JsonHeaderReader.read(headerData);
            if (cmd != null) {
                return (T) cmd;
            }
            if (PatchSwitches.S5) {
                AutoTypeGuard.refuseAutoType(headerData);
            }
        }
        return RemotingSerializable.decode(headerData, classOfT);
    }

    /**
     * Replaces {@code RemotingSerializable.encode(this)} in {@code headerEncode}, the JSON branch of every frame
     * encode: the hand-written writer's bytes, or fastjson's for what it declines.
     */
    public static byte[] encodeJsonHeader(Object command) {
        byte[] json = JsonHeaderWriter.write(command);
        return json != null ? json : RemotingSerializable.encode(command);
    }
}
