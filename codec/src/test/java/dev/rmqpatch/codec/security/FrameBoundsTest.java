package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RocketMQSerializable;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.Test;

/**
 * S6 against stock's own ROCKETMQ-format decode on the same inputs: a header passes the check exactly when stock
 * decodes it without reading past its end, and then stock's result is the one used; every length that does not fit
 * is refused before stock would allocate it.
 */
class FrameBoundsTest {

    @Test
    void wellFormedHeadersPassAndDecodeAsStock() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int n = 0; n < 1_000; n++) {
            RemotingCommand cmd = RemotingCommand.createRequestCommand(r.nextInt(400), null);
            cmd.setOpaque(r.nextInt());
            cmd.setFlag(r.nextInt(4));
            if (r.nextBoolean()) {
                cmd.setRemark(text(r, r.nextInt(40)));
            }
            HashMap<String, String> ext = new HashMap<>();
            for (int k = r.nextInt(6); k > 0; k--) {
                ext.put(text(r, 1 + r.nextInt(8)), text(r, r.nextInt(30)));
            }
            cmd.setExtFields(ext.isEmpty() ? null : ext);
            byte[] header = RocketMQSerializable.rocketMQProtocolEncode(cmd);
            assertNull(FrameBounds.checkRocketMQHeader(header), Seeds.replay(seed, n));
            RemotingCommand back = RocketMQSerializable.rocketMQProtocolDecode(header);
            // An empty remark is written as length 0, which stock reads back as no remark.
            String remark = cmd.getRemark() == null || cmd.getRemark().isEmpty() ? null : cmd.getRemark();
            assertEquals(remark, back.getRemark(), Seeds.replay(seed, n));
            assertEquals(cmd.getExtFields(), back.getExtFields(), Seeds.replay(seed, n));
        }
    }

    /** Random bytes and random corruptions of real headers, lengths kept small: refused exactly when stock fails. */
    @Test
    void refusedExactlyWhenStockCannotDecode() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        int refused = 0;
        for (int n = 0; n < 3_000; n++) {
            byte[] header = corrupted(r);
            boolean stockFails;
            try {
                RocketMQSerializable.rocketMQProtocolDecode(header);
                stockFails = false;
            } catch (RuntimeException e) {
                stockFails = true;
            }
            boolean checkRefuses;
            try {
                FrameBounds.checkRocketMQHeader(header);
                checkRefuses = false;
            } catch (FrameBounds.ClaimExceedsFrame e) {
                checkRefuses = true;
                assertTrue(e.getMessage().startsWith("rmqpatch S6: "), e.getMessage());
            }
            assertEquals(stockFails, checkRefuses, Seeds.replay(seed, n));
            refused += checkRefuses ? 1 : 0;
        }
        assertTrue(refused > 150 && refused < 2_850, "both outcomes exercised: " + refused + " refused");
    }

    @Test
    void hugeLengthsInEveryFieldAreRefused() {
        byte[] blank = new byte[13 + 4 + 4];
        // remark
        assertRefused(ByteBuffer.wrap(blank.clone()).putInt(13, 2_000_000_000).array(), "remark (2000000000 bytes)");
        // ext-fields length
        assertRefused(ByteBuffer.wrap(blank.clone()).putInt(17, 2_000_000_000).array(), "ext fields (2000000000 bytes)");
        // key length (a short), then value length
        byte[] withEntry = ByteBuffer.allocate(21 + 2 + 1 + 4 + 1).putInt(13, 0).putInt(17, 8)
            .putShort(21, (short) 32_000).array();
        assertRefused(withEntry, "ext-field key (32000 bytes)");
        ByteBuffer value = ByteBuffer.wrap(withEntry.clone());
        value.putShort(21, (short) 1).put(23, (byte) 'k').putInt(24, 2_000_000_000);
        assertRefused(value.array(), "ext-field value (2000000000 bytes)");
        ByteBuffer negative = ByteBuffer.wrap(withEntry.clone());
        negative.putShort(21, (short) -5);
        assertRefused(negative.array(), "ext-field key (-5 bytes)");
    }

    @Test
    void frameHeaderLengthIsCheckedAgainstTheFrame() {
        ByteBuffer fits = ByteBuffer.allocate(4 + 10 + 3).putInt(0, 10);
        assertNull(FrameBounds.checkFrame(fits));
        ByteBuffer past = ByteBuffer.allocate(8).putInt(0, 0xFFFFFF | (SerializeType.ROCKETMQ.getCode() << 24));
        FrameBounds.ClaimExceedsFrame e = assertThrows(FrameBounds.ClaimExceedsFrame.class, () -> FrameBounds.checkFrame(past));
        assertTrue(e.getMessage().contains("16777215") && e.getMessage().contains("4 bytes"), e.getMessage());
        assertEquals(0, past.position(), "the check reads without moving the buffer");
    }

    private static void assertRefused(byte[] header, String expected) {
        FrameBounds.ClaimExceedsFrame e = assertThrows(FrameBounds.ClaimExceedsFrame.class,
            () -> FrameBounds.checkRocketMQHeader(header));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static byte[] corrupted(Random r) {
        if (r.nextInt(4) == 0) {
            byte[] b = new byte[r.nextInt(40)];
            r.nextBytes(b);
            // Small length fields, so that stock's decode (the reference) never allocates much.
            if (b.length >= 17) {
                int remark = r.nextInt(30) - 5;
                ByteBuffer.wrap(b).putInt(13, remark);
                int ext = 17 + Math.max(remark, 0);
                if (ext + 4 <= b.length) {
                    ByteBuffer.wrap(b).putInt(ext, r.nextInt(30) - 5);
                }
            }
            return b;
        }
        RemotingCommand cmd = RemotingCommand.createRequestCommand(1, null);
        cmd.setRemark(r.nextBoolean() ? text(r, r.nextInt(10)) : null);
        HashMap<String, String> ext = new HashMap<>();
        for (int k = r.nextInt(4); k > 0; k--) {
            ext.put(text(r, 1 + r.nextInt(5)), text(r, r.nextInt(8)));
        }
        cmd.setExtFields(ext.isEmpty() ? null : ext);
        byte[] b = RocketMQSerializable.rocketMQProtocolEncode(cmd);
        switch (r.nextInt(3)) {
            case 0: // one byte changed anywhere past the fixed fields (small values: a length's high byte set to 40
                // would make stock allocate 670 MB, which only slows the test)
                if (b.length > 13) {
                    b[13 + r.nextInt(b.length - 13)] = (byte) (r.nextInt(16) - 8);
                }
                return b;
            case 1: // truncated
                byte[] t = new byte[r.nextInt(b.length + 1)];
                System.arraycopy(b, 0, t, 0, t.length);
                return t;
            default: // trailing bytes, which stock ignores
                byte[] longer = new byte[b.length + 1 + r.nextInt(5)];
                System.arraycopy(b, 0, longer, 0, b.length);
                return longer;
        }
    }

    private static String text(Random r, int len) {
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            sb.append((char) (r.nextInt(5) == 0 ? 0x4E00 + r.nextInt(200) : 'a' + r.nextInt(26)));
        }
        return sb.toString();
    }
}
