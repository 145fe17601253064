package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.StockHeaders.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed ext fields. The codec throws a {@link RemotingCommandException} naming the field; stock 4.9.0 logs
 * the problem and returns a half-filled header (its own "is null" exception is thrown inside the try block that
 * swallows every Throwable). Each test asserts both behaviours so the deliberate difference stays visible.
 */
class HeaderBadInputTest {

    /** The {@code @CFNotNull} fields, spelled out so a change in stock shows up here as well as in the model. */
    private static final Map<Class<?>, Set<String>> REQUIRED = Map.of(
        SendMessageRequestHeaderV2.class, Set.of("a", "b", "c", "d", "e", "f", "g", "h"),
        SendMessageRequestHeader.class, Set.of("producerGroup", "topic", "defaultTopic", "defaultTopicQueueNums",
            "queueId", "sysFlag", "bornTimestamp", "flag"),
        SendMessageResponseHeader.class, Set.of("msgId", "queueId", "queueOffset"),
        PullMessageRequestHeader.class, Set.of("consumerGroup", "topic", "queueId", "queueOffset", "maxMsgNums", "sysFlag",
            "commitOffset", "suspendTimeoutMillis", "subVersion"),
        PullMessageResponseHeader.class, Set.of("suggestWhichBrokerId", "nextBeginOffset", "minOffset", "maxOffset"));

    private static final String[] NOT_A_NUMBER = {
        "", " ", "abc", "1.5", " 1", "1 ", "0x10", "1e3", "--1", "+", "-", "1_000", "\u00bd", "\ud835\udfcf", "null",
        "9".repeat(1 << 20), "a" + "\ud83d\ude00".repeat(40),
    };
    private static final String[] INT_OVERFLOW = {"2147483648", "-2147483649", "99999999999", "+2147483648"};
    private static final String[] LONG_OVERFLOW = {"9223372036854775808", "-9223372036854775809", "1" + "0".repeat(40)};

    static Stream<HeaderCodec<?>> codecs() {
        return Arrays.stream(HeaderCodecs.all());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void requiredFieldsAreStocksCfNotNullFields(HeaderCodec<?> codec) {
        Set<String> fromAnnotations = new TreeSet<>();
        for (Field f : StockHeaders.wireFields(codec.headerClass())) {
            if (StockHeaders.required(f)) {
                fromAnnotations.add(f.getName());
            }
        }
        assertEquals(new TreeSet<>(REQUIRED.get(codec.headerClass())), fromAnnotations);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void eachMissingRequiredFieldIsNamed(HeaderCodec<T> codec) throws Exception {
        int checked = 0;
        for (Field missing : StockHeaders.wireFields(codec.headerClass())) {
            HashMap<String, String> ext = StockHeaders.fullExt(codec.headerClass());
            ext.remove(missing.getName());
            if (!StockHeaders.required(missing)) {
                T ours = codec.decode(ext);
                assertEquals(StockHeaders.read(missing, StockHeaders.newHeader(codec.headerClass())),
                    StockHeaders.read(missing, ours), "an absent optional field keeps its default: " + missing.getName());
                StockHeaders.assertSameHeader(StockHeaders.stockDecode(codec.headerClass(), ext), ours,
                    "optional " + missing.getName() + " absent");
                continue;
            }
            assertRejected(codec, ext, missing.getName(), "is null");
            assertStockHalfFilled(codec, ext, missing);
            checked++;
        }
        assertEquals(REQUIRED.get(codec.headerClass()).size(), checked);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void malformedNumbersAreNamed(HeaderCodec<T> codec) throws Exception {
        int checked = 0;
        for (Field f : StockHeaders.wireFields(codec.headerClass())) {
            if (!StockHeaders.numeric(f)) {
                continue;
            }
            List<String> bad = new ArrayList<>(Arrays.asList(NOT_A_NUMBER));
            bad.addAll(Arrays.asList(StockHeaders.isLong(f) ? LONG_OVERFLOW : INT_OVERFLOW));
            for (String value : bad) {
                HashMap<String, String> ext = StockHeaders.fullExt(codec.headerClass());
                ext.put(f.getName(), value);
                RemotingCommandException e = assertRejected(codec, ext, f.getName(), "is not");
                assertTrue(e.getMessage().length() < 200, "a 1 MB value is not copied into the message: "
                    + e.getMessage().length() + " chars");
                assertTrue(e.getMessage().codePoints().noneMatch(c -> Character.isSurrogate((char) c) && c <= 0xFFFF),
                    "shortening must not split a surrogate pair: " + e.getMessage());
                assertStockHalfFilled(codec, ext, f);
                checked++;
            }
        }
        assertTrue(checked > 0, "no numeric field in " + codec.headerClass());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void nullExtFieldsAreRejected(HeaderCodec<T> codec) throws Exception {
        RemotingCommandException e = assertThrows(RemotingCommandException.class, () -> codec.decode(null));
        assertTrue(e.getMessage().contains("is null"), e.getMessage());
        RemotingCommandException viaHook = assertThrows(RemotingCommandException.class,
            () -> StockHeaders.decodeViaHook(StockHeaders.requestWith(null), codec.headerClass()));
        assertEquals(e.getMessage(), viaHook.getMessage());

        // Stock: without ext fields it skips every check and returns an empty header.
        CommandCustomHeader stock = StockHeaders.stockDecode(codec.headerClass(), null);
        StockHeaders.assertSameHeader(StockHeaders.newHeader(codec.headerClass()), stock, "stock with null ext");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void emptyExtFieldsNameTheFirstRequiredField(HeaderCodec<T> codec) throws Exception {
        RemotingCommandException e = assertThrows(RemotingCommandException.class, () -> codec.decode(new HashMap<>()));
        String first = StockHeaders.wireFields(codec.headerClass()).stream().filter(StockHeaders::required)
            .findFirst().orElseThrow().getName();
        assertTrue(e.getMessage().contains("<" + first + ">"), e.getMessage());
    }

    /** Booleans cannot be malformed: stock's Boolean.parseBoolean reads anything but "true" (any case) as false. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void garbageBooleansReadAsFalseLikeStock(HeaderCodec<T> codec) throws Exception {
        for (Field f : StockHeaders.wireFields(codec.headerClass())) {
            if (f.getType() != boolean.class) {
                continue;
            }
            for (String value : new String[] {"", "yes", "1", " true", "true ", "\u0001", "x".repeat(1 << 20)}) {
                HashMap<String, String> ext = StockHeaders.fullExt(codec.headerClass());
                ext.put(f.getName(), value);
                T ours = codec.decode(ext);
                assertEquals(false, StockHeaders.read(f, ours), f.getName() + "=" + value);
                StockHeaders.assertSameHeader(StockHeaders.stockDecode(codec.headerClass(), ext), ours, f.getName());
            }
        }
    }

    @Test
    void v1FieldNamesDoNotSatisfyV2() {
        HashMap<String, String> v1Names = StockHeaders.fullExt(SendMessageRequestHeader.class);
        RemotingCommandException e = assertThrows(RemotingCommandException.class,
            () -> HeaderCodecs.forClass(SendMessageRequestHeaderV2.class).decode(v1Names));
        assertTrue(e.getMessage().contains("<a>"), e.getMessage());
    }

    private static <T extends CommandCustomHeader> RemotingCommandException assertRejected(
        HeaderCodec<T> codec, HashMap<String, String> ext, String field, String what) {
        String context = codec.headerClass().getSimpleName() + " " + describe(ext);
        RemotingCommandException e = assertThrows(RemotingCommandException.class, () -> codec.decode(ext), context);
        assertNotNull(e.getMessage(), context);
        assertTrue(e.getMessage().contains("<" + field + ">") && e.getMessage().contains(what),
            context + ": message does not name <" + field + ">: " + e.getMessage());
        RemotingCommandException viaHook = assertThrows(RemotingCommandException.class,
            () -> StockHeaders.decodeViaHook(StockHeaders.requestWith(ext), codec.headerClass()),
            context + " [hook]");
        assertEquals(e.getMessage(), viaHook.getMessage());
        return e;
    }

    /** Stock returns a header with the bad field left at its default and every other field filled. */
    private static void assertStockHalfFilled(HeaderCodec<?> codec, HashMap<String, String> ext, Field bad)
        throws RemotingCommandException {
        CommandCustomHeader stock = StockHeaders.stockDecode(codec.headerClass(), ext);
        assertNotNull(stock, "stock 4.9.0 returns a header");
        assertNull(StockHeaders.read(bad, stock), "stock 4.9.0 leaves " + bad.getName() + " null");
        HashMap<String, String> full = StockHeaders.fullExt(codec.headerClass());
        for (Field f : StockHeaders.wireFields(codec.headerClass())) {
            if (!f.getName().equals(bad.getName())) {
                assertEquals(full.get(f.getName()), String.valueOf(StockHeaders.read(f, stock)),
                    "stock 4.9.0 fills " + f.getName() + " although " + bad.getName() + " is bad");
            }
        }
        assertFalse(StockHeaders.wireFields(codec.headerClass()).isEmpty());
    }
}
