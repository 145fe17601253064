package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.StockHeaders.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ext fields missing, null, malformed (non-numeric, overflowing, empty, whitespace), extra, and commands without ext
 * fields: stock 4.9.0's {@code decodeCommandCustomHeader} logs a missing {@code @CFNotNull} field or a malformed value,
 * leaves that field at its default and returns the header (the request is then served); with {@code extFields == null}
 * it returns an empty header. The codecs, called directly and through the patched hooks (P1, P10), must return the
 * same header field by field, or throw what stock throws (class and message).
 */
class HeaderLenientDecodeTest {

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
        "", " ", "  ", "\t", "abc", "1.5", " 1", "1 ", "0x10", "1e3", "--1", "+", "-", "1_000", "\u00bd", "\ud835\udfcf",
        "null", "9".repeat(1 << 12), "a" + "\ud83d\ude00".repeat(40),
        "2147483648", "-2147483649", "99999999999", "+2147483648",
        "9223372036854775808", "-9223372036854775809", "1" + "0".repeat(40),
    };

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

    /** Upstream's PullMessageProcessorTest case: a pull without suspendTimeoutMillis is decoded and served. */
    @Test
    void pullWithoutSuspendTimeoutIsDecodedAsStock() throws Exception {
        HashMap<String, String> ext = StockHeaders.fullExt(PullMessageRequestHeader.class);
        ext.remove("suspendTimeoutMillis");
        CommandCustomHeader ours = StockHeaders.decodeViaHook(StockHeaders.requestWith(ext), PullMessageRequestHeader.class);
        assertNotNull(ours);
        assertNull(((PullMessageRequestHeader) ours).getSuspendTimeoutMillis());
        StockHeaders.assertSameHeader(StockHeaders.stockDecode(PullMessageRequestHeader.class, ext), ours, "no suspend");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void noExtFieldsGiveStocksEmptyHeader(HeaderCodec<T> codec) throws Exception {
        assertSameOutcome(codec, null, "null ext");
        assertSameOutcome(codec, new HashMap<>(), "empty ext");
    }

    /** Each field alone missing, then alone malformed, then every bad kind at random over many fields at once. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void randomBadHeadersDecodeAsStock(HeaderCodec<T> codec) throws Exception {
        List<Field> fields = StockHeaders.wireFields(codec.headerClass());
        for (Field f : fields) {
            HashMap<String, String> ext = StockHeaders.fullExt(codec.headerClass());
            ext.remove(f.getName());
            assertSameOutcome(codec, ext, "without " + f.getName());
            ext.put(f.getName(), null);
            assertSameOutcome(codec, ext, f.getName() + " mapped to null");
            for (String bad : NOT_A_NUMBER) {
                ext.put(f.getName(), bad);
                assertSameOutcome(codec, ext, f.getName() + "=" + bad);
            }
        }
        Random r = new Random(codec.headerClass().getName().hashCode());
        for (int round = 0; round < 600; round++) {
            HashMap<String, String> ext = new HashMap<>();
            for (Field f : fields) {
                switch (r.nextInt(6)) {
                    case 0:
                        break; // missing
                    case 1:
                        ext.put(f.getName(), null);
                        break;
                    case 2:
                        ext.put(f.getName(), NOT_A_NUMBER[r.nextInt(NOT_A_NUMBER.length)]);
                        break;
                    default:
                        ext.put(f.getName(), StockHeaders.validWireValue(r, f));
                }
            }
            if (r.nextInt(3) == 0) {
                ext.put("extra" + r.nextInt(4), StockHeaders.validWireValue(r, fields.get(r.nextInt(fields.size()))));
            }
            assertSameOutcome(codec, ext, "round " + round);
        }
    }

    /** Stock's header (or exception) against the codec's, directly and through the patched hook, on copies of ext. */
    private static <T extends CommandCustomHeader> void assertSameOutcome(HeaderCodec<T> codec, HashMap<String, String> ext,
                                                                         String what) throws Exception {
        String context = codec.headerClass().getSimpleName() + " " + what + " " + describe(ext);
        Object stock = outcome(() -> StockHeaders.stockDecode(codec.headerClass(), ext));
        Object direct = outcome(() -> codec.decode(ext == null ? null : new HashMap<>(ext)));
        RemotingCommand cmd = StockHeaders.requestWith(ext);
        Object viaHook = outcome(() -> StockHeaders.decodeViaHook(cmd, codec.headerClass()));
        for (Object ours : new Object[] {direct, viaHook}) {
            if (stock instanceof Throwable) {
                assertEquals(stock.getClass(), ours.getClass(), context);
                assertEquals(((Throwable) stock).getMessage(), ((Throwable) ours).getMessage(), context);
            } else {
                assertNotNull(stock, context);
                StockHeaders.assertSameHeader(stock, ours, context);
            }
        }
    }

    private interface Decode {
        Object run() throws Exception;
    }

    private static Object outcome(Decode d) {
        try {
            return d.run();
        } catch (Exception e) {
            return e;
        }
    }
}
