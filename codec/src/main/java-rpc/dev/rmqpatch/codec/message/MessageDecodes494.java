package dev.rmqpatch.codec.message;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.apache.rocketmq.common.compression.CompressorFactory;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;

/**
 * P28's variant on 4.9.4 to 4.9.8: {@link MessageDecodes} with those releases' rules. Their
 * {@code MessageDecoder.decode} (the same source in 4.9.4, 4.9.7 and 4.9.8) differs from 4.9.0's in one place: a
 * compressed body is inflated by {@code CompressorFactory.getCompressor(MessageSysFlag.getCompressionType(sysFlag))
 * .decompress(body)} (zlib for type 0 or 3, LZ4 for 1, ZSTD for 2; a type of 4 to 7 throws, so the record gives null as
 * any other failure); and their {@code string2messageProperties} parses by index, so the properties go to the
 * release's own parser. Both are called here directly, which is why this class is compiled against 4.9.7's common
 * (src/main/java-rpc): 4.9.0 has no {@code CompressorFactory}, and the patch plan's link check and P28's witness keep
 * the variant off releases without it.
 */
public final class MessageDecodes494 {

    static final DecodeRules RULES = new DecodeRules() {
        @Override
        byte[] decompress(byte[] body, int sysFlag) throws Exception {
            return CompressorFactory.getCompressor(MessageSysFlag.getCompressionType(sysFlag)).decompress(body);
        }

        @Override
        Map<String, String> properties(byte[] bytes, int off, int length) {
            return releaseProperties(bytes, off, length);
        }
    };

    private MessageDecodes494() {
    }

    /** Replaces 4.9.4+'s {@code MessageDecoder.decodes(ByteBuffer, boolean)}. */
    public static List<MessageExt> decodes(ByteBuffer byteBuffer, boolean readBody) {
        return MessageDecodes.decodes(byteBuffer, readBody, RULES);
    }

    /** Replaces 4.9.4+'s {@code MessageDecoder.decode(ByteBuffer, boolean, boolean, boolean)}. */
    public static MessageExt decode(ByteBuffer byteBuffer, boolean readBody, boolean deCompressBody, boolean isClient) {
        return MessageDecodes.decode(byteBuffer, readBody, deCompressBody, isClient, RULES);
    }
}
