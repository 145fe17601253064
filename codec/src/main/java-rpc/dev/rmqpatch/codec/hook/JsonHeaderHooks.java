package dev.rmqpatch.codec.hook;

import dev.rmqpatch.codec.json.JsonHeaderReader;
import io.netty.buffer.Unpooled;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RocketMQSerializable;

/**
 * P5's 4.9.4+ variant: replaces the one {@code RemotingSerializable.decode(headerData, RemotingCommand.class)} in
 * {@code RemotingCommand.headerDecode(ByteBuf, int, SerializeType)}, whose JSON branch copies the header out of the
 * frame into a byte[] first, as 4.9.0's caller did. The same reader as 4.9.0's hook ({@code JsonHeaderReader}); what
 * differs is only how the blank command is made: 4.9.4 replaced {@code RocketMQSerializable.rocketMQProtocolDecode(byte[])}
 * by {@code rocketMQProtocolDecode(ByteBuf, int)}, the one public way there to RemotingCommand's protected constructor
 * that sets nothing else (code 0, JAVA, version 0, opaque 0, flag 0, no remark, no ext fields: as constructed but for
 * opaque, which the reader always sets). Unlike 4.9.0's hook it never refuses {@code @type} itself: 4.9.4+ ship
 * fastjson 1.2.69_noneautotype, which refuses it (S5 is upstream there), so a header naming it goes to that fastjson and
 * fails with its exception, as stock. Compiled from src/main/java-rpc against 4.9.7's remoting and Netty 4.1; the patch
 * plan's CodecLinks witness keeps it off 4.9.0, which lacks that decoder.
 */
public final class JsonHeaderHooks {

    /** A ROCKETMQ-serialised header of all zeros (code, language, version, opaque, flag, remark and ext-field lengths). */
    private static final byte[] BLANK_ROCKETMQ_HEADER = new byte[2 + 1 + 2 + 4 + 4 + 4 + 4];

    private JsonHeaderHooks() {
    }

    /** Instead of {@code RemotingSerializable.decode(headerData, classOfT)}: the reader's command, else fastjson's. */
    @SuppressWarnings("unchecked")
    public static <T> T decodeJsonHeader(byte[] headerData, Class<T> classOfT) {
        if (classOfT == RemotingCommand.class) {
            JsonHeaderReader header = JsonHeaderReader.parse(headerData);
            if (header != null) {
                return (T) header.into(blankCommand());
            }
        }
        return RemotingSerializable.decode(headerData, classOfT);
    }

    /** A command as RemotingCommand's constructor leaves it (one request id drawn), but for opaque 0. */
    private static RemotingCommand blankCommand() {
        try {
            return RocketMQSerializable.rocketMQProtocolDecode(Unpooled.wrappedBuffer(BLANK_ROCKETMQ_HEADER),
                BLANK_ROCKETMQ_HEADER.length);
        } catch (RemotingCommandException e) {
            // Not for this header: its remark and ext-field lengths are 0.
            throw new IllegalStateException(e);
        }
    }
}
