package dev.rmqpatch.codec.message;

import java.nio.ByteBuffer;
import java.util.List;

import org.apache.rocketmq.common.message.MessageExt;

/**
 * P28's variant on 4.9.3: {@link MessageDecodes} with 4.9.3's rules. 4.9.3's {@code MessageDecoder.decode} and
 * {@code decodes} are 4.9.0's (zlib for a compressed body), but its {@code string2messageProperties} parses by index
 * (an empty name skipped, a value may hold the separator), so the properties go to the release's own parser, never to
 * the codec's 4.9.0 one (which 4.9.0's P28 uses while P2 is on).
 */
public final class MessageDecodes493 {

    private MessageDecodes493() {
    }

    /** Replaces 4.9.3's {@code MessageDecoder.decodes(ByteBuffer, boolean)}. */
    public static List<MessageExt> decodes(ByteBuffer byteBuffer, boolean readBody) {
        return MessageDecodes.decodes(byteBuffer, readBody, DecodeRules.RELEASE_PARSER_ZLIB);
    }

    /** Replaces 4.9.3's {@code MessageDecoder.decode(ByteBuffer, boolean, boolean, boolean)}. */
    public static MessageExt decode(ByteBuffer byteBuffer, boolean readBody, boolean deCompressBody, boolean isClient) {
        return MessageDecodes.decode(byteBuffer, readBody, deCompressBody, isClient, DecodeRules.RELEASE_PARSER_ZLIB);
    }
}
