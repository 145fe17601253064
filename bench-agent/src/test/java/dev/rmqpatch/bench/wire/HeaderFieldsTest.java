package dev.rmqpatch.bench.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.Test;

/** Code, opaque and flag read without decoding, against what stock code encoded, JSON and ROCKETMQ; and Decimal. */
class HeaderFieldsTest {
    private static ByteBuf frameOf(RemotingCommand cmd) {
        ByteBuffer encoded = cmd.encode();
        encoded.getInt();  // the frame length, which netty's length-field decoder strips
        return Unpooled.wrappedBuffer(encoded);
    }

    private static RemotingCommand response(int code, int opaque, String remark) {
        RemotingCommand r = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader h = (SendMessageResponseHeader) r.readCustomHeader();
        h.setMsgId("AB");
        h.setQueueId(3);
        h.setQueueOffset(99L);
        r.setCode(code);
        r.setRemark(remark);
        r.setOpaque(opaque);
        // Ext fields and a remark that look like the keys the scanner looks for must not confuse it.
        r.addExtField("opaque", "777");
        r.addExtField("x\"code\":5", "{\"flag\":9}");
        return r;
    }

    @Test
    void readsJsonHeadersAsStockEncodesThem() {
        HeaderFields f = new HeaderFields();
        for (int opaque : new int[] {0, 1, 123456, Integer.MAX_VALUE, -5}) {
            RemotingCommand r = response(14, opaque, "\"opaque\":1, {\"code\":3}");
            ByteBuf frame = frameOf(r);
            f.read(frame);
            assertEquals(14, f.code);
            assertEquals(opaque, f.opaque);
            assertTrue(f.isResponse());
            assertEquals(0, frame.readerIndex(), "the reader index is left alone");
        }
        RemotingCommand request = RemotingCommand.createRequestCommand(310, null);
        request.setOpaque(42);
        request.markOnewayRPC();
        request.setBody(new byte[] {1, 2, 3});
        ByteBuf frame = frameOf(request);
        f.read(frame);
        assertEquals(310, f.code);
        assertEquals(42, f.opaque);
        assertEquals(2, f.flag);
        assertEquals(3, frame.writerIndex() - f.bodyIndex, "body follows the header");
    }

    @Test
    void readsRocketmqBinaryHeaders() {
        RemotingCommand r = response(0, 987654, null);
        r.setSerializeTypeCurrentRPC(SerializeType.ROCKETMQ);
        HeaderFields f = new HeaderFields();
        f.read(frameOf(r));
        assertEquals(0, f.code);
        assertEquals(987654, f.opaque);
        assertTrue(f.isResponse());
    }

    @Test
    void malformedHeadersAreRefused() {
        HeaderFields f = new HeaderFields();
        ByteBuf noOpaque = Unpooled.buffer();
        byte[] json = "{\"code\":1}".getBytes();
        noOpaque.writeInt(json.length).writeBytes(json);
        assertThrows(IllegalArgumentException.class, () -> f.read(noOpaque));
        ByteBuf tooLong = Unpooled.buffer();
        tooLong.writeInt(100).writeBytes(json);
        assertThrows(IllegalArgumentException.class, () -> f.read(tooLong));
    }

    @Test
    void decimalSpellsLikeLongToString() {
        long[] values = {0, 7, 9, 10, 99, 100, 1234567890123L, Long.MAX_VALUE, -1, -10, Long.MIN_VALUE, Integer.MAX_VALUE};
        for (long v : values) {
            ByteBuf b = Unpooled.buffer();
            Decimal.write(b, v);
            assertEquals(Long.toString(v), b.toString(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(Long.toString(v).length(), Decimal.length(v));
        }
    }

    @Test
    void templatesRefuseMissingOrRepeatedSentinels() {
        byte[] header = "{\"a\":\"X1\",\"b\":\"X1\",\"c\":\"Y\"}".getBytes();
        assertThrows(IllegalStateException.class, () -> FrameTemplate.cut(header, (byte) 0, "X1"));
        assertThrows(IllegalStateException.class, () -> FrameTemplate.cut(header, (byte) 0, "Z"));
        FrameTemplate t = FrameTemplate.cut(header, (byte) 0, "Y");
        assertEquals(1, t.variableCount());
        assertEquals(header.length - 1, t.constantLength());
    }

    @Test
    void theFastPathAgreesWithTheFullScanAndOtherJsonFallsBackToIt() {
        List<RemotingCommand> commands = new ArrayList<>();
        commands.add(response(0, 5, null));
        commands.add(response(2, 77, "[TIMEOUT_CLEAN_QUEUE]broker busy \\\"opaque\\\":9 \"flag\":3"));
        RemotingCommand send = RemotingCommand.createRequestCommand(310, null);
        send.addExtField("i", "UNIQ_KEY\u0001ABC\u0002WAIT\u0001true");
        send.addExtField("opaque", "12");
        send.setOpaque(123456789);
        commands.add(send);
        for (RemotingCommand c : commands) {
            byte[] header = FrameTemplate.stockHeader(c);
            HeaderFields fast = new HeaderFields();
            fast.readJson(header, header.length);
            HeaderFields scan = new HeaderFields();
            scan.scanJson(header, header.length);
            assertEquals(c.getCode(), fast.code);
            assertEquals(c.getOpaque(), fast.opaque);
            assertEquals(c.getFlag(), fast.flag);
            assertEquals(scan.code, fast.code);
            assertEquals(scan.opaque, fast.opaque);
            assertEquals(scan.flag, fast.flag);
        }
        byte[] spaced = "{ \"code\" : 3, \"extFields\" : {\"opaque\":\"1\"}, \"flag\" : 1, \"opaque\" : 42 }".getBytes();
        HeaderFields f = new HeaderFields();
        f.readJson(spaced, spaced.length);
        assertEquals(3, f.code);
        assertEquals(42, f.opaque);
        assertEquals(1, f.flag);
    }
}
