package dev.rmqpatch.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The codec's ASCII-digit fast path for int and long header fields (added after the header-decode profile, see
 * BENCHMARKS.md) around its limits: 9 digits for an int, 18 for a long, signs, leading zeros and non-ASCII digits
 * fall through to the JDK parsers. Checked against stock reflective decode of the same SEND_MESSAGE_V2 fields.
 */
class NumberFastPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"0", "7", "00", "0017", "999999999", "000000001", "1000000000", "2147483647", "-2147483648",
        "+17", "-0", "\uff11\uff12", "\u0661\u0662"})
    void intFieldsDecodeAsStockDoes(String value) throws Exception {
        SendMessageRequestHeaderV2 stock = stock(fields("4", value, "1718000000123"));
        SendMessageRequestHeaderV2 patched = patched(fields("4", value, "1718000000123"));
        assertEquals(Integer.valueOf(Integer.parseInt(value)), stock.getE());
        SameWorkTest.assertFieldsEqual(stock, patched);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1718000000123", "999999999999999999", "000000000000000000001", "1000000000000000000",
        "9223372036854775807", "-9223372036854775808", "+5", "\u0661"})
    void longFieldsDecodeAsStockDoes(String value) throws Exception {
        SendMessageRequestHeaderV2 stock = stock(fields("4", "2", value));
        SendMessageRequestHeaderV2 patched = patched(fields("4", "2", value));
        assertEquals(Long.valueOf(Long.parseLong(value)), stock.getG());
        SameWorkTest.assertFieldsEqual(stock, patched);
    }

    /**
     * Malformed numbers as stock decodes them: the field is logged and left at its default (null), the request served
     * (stock's decodeCommandCustomHeader catches per field); the fast path must not change that.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "2147483648", "9999999999", "1a", "a1", "/", ":", " 1", "1 ", "--1"})
    void malformedIntsAreLeftAtTheirDefaultAsStockLeavesThem(String value) throws Exception {
        SendMessageRequestHeaderV2 stock = stock(fields("4", value, "1"));
        SendMessageRequestHeaderV2 patched = patched(fields("4", value, "1"));
        assertNull(stock.getE(), "stock leaves a malformed int field unset");
        SameWorkTest.assertFieldsEqual(stock, patched);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "9223372036854775808", "99999999999999999999", "12x", "x"})
    void malformedLongsAreLeftAtTheirDefaultAsStockLeavesThem(String value) throws Exception {
        SendMessageRequestHeaderV2 stock = stock(fields("4", "2", value));
        SendMessageRequestHeaderV2 patched = patched(fields("4", "2", value));
        assertNull(stock.getG(), "stock leaves a malformed long field unset");
        SameWorkTest.assertFieldsEqual(stock, patched);
    }

    private static RemotingCommand fields(String d, String e, String g) {
        HashMap<String, String> ext = new HashMap<>();
        ext.put("a", "group");
        ext.put("b", "topic");
        ext.put("c", "TBW102");
        ext.put("d", d);
        ext.put("e", e);
        ext.put("f", "0");
        ext.put("g", g);
        ext.put("h", "0");
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, null);
        cmd.setExtFields(ext);
        return cmd;
    }

    private static SendMessageRequestHeaderV2 stock(RemotingCommand cmd) throws RemotingCommandException {
        return (SendMessageRequestHeaderV2) cmd.decodeCommandCustomHeader(SendMessageRequestHeaderV2.class);
    }

    private static SendMessageRequestHeaderV2 patched(RemotingCommand cmd) throws RemotingCommandException {
        return (SendMessageRequestHeaderV2) RemotingCommandHooks.decodeCommandCustomHeader(cmd, SendMessageRequestHeaderV2.class);
    }
}
