package dev.rmqpatch.codec.message;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.rmqpatch.codec.properties.MessageProperties;
import dev.rmqpatch.codec.switches.PatchSwitches;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * What a release's {@code MessageDecoder.decode} does differently from 4.9.0's with a stored message's bytes (P28 and
 * its variants): how a body whose sysFlag says compressed is inflated, and how the properties are parsed. Everything
 * else (the record's layout, the hosts, the message id, null and the buffer at its limit on any exception) is the same
 * from 4.9.0 to 4.9.8 and lives in {@link MessageDecodes}.
 */
abstract class DecodeRules {

    /**
     * 4.9.0 (P28 as written): zlib ({@code UtilAll.uncompress}); the properties by P2's parser while P2 is on (on ASCII
     * bytes its byte twin, no String made), else by {@code MessageDecoder.string2messageProperties}.
     */
    static final DecodeRules V4_9_0 = new DecodeRules() {
        @Override
        byte[] decompress(byte[] body, int sysFlag) throws Exception {
            return UtilAll.uncompress(body);
        }

        @Override
        Map<String, String> properties(byte[] bytes, int off, int length) {
            if (PatchSwitches.P2) {
                Map<String, String> map = MessageProperties.decodeAscii(bytes, off, length);
                return map != null ? map : MessageProperties.decode(new String(bytes, off, length, StandardCharsets.UTF_8));
            }
            return MessageDecoder.string2messageProperties(new String(bytes, off, length, StandardCharsets.UTF_8));
        }
    };

    /**
     * 4.9.3 (P28's variant there): zlib as 4.9.0 (4.9.3's decode is 4.9.0's), the properties always by the release's
     * own {@code MessageDecoder.string2messageProperties} (4.9.3's parses by index: not the codec's 4.9.0 parser).
     */
    static final DecodeRules RELEASE_PARSER_ZLIB = new DecodeRules() {
        @Override
        byte[] decompress(byte[] body, int sysFlag) throws Exception {
            return UtilAll.uncompress(body);
        }

        @Override
        Map<String, String> properties(byte[] bytes, int off, int length) {
            return releaseProperties(bytes, off, length);
        }
    };

    /** The body of a record whose sysFlag has {@code COMPRESSED_FLAG}, as the release inflates it; may throw as it. */
    abstract byte[] decompress(byte[] body, int sysFlag) throws Exception;

    /** {@code length} (positive) bytes of UTF-8 properties at {@code off}, parsed as the release parses them. */
    abstract Map<String, String> properties(byte[] bytes, int off, int length);

    /** The release's own parser on the String stock makes of those bytes ({@code new String(bytes, UTF_8)}). */
    static Map<String, String> releaseProperties(byte[] bytes, int off, int length) {
        return MessageDecoder.string2messageProperties(new String(bytes, off, length, StandardCharsets.UTF_8));
    }
}
