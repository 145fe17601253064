package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.StockHeaders.assertSameHeader;
import static dev.rmqpatch.codec.header.StockHeaders.describe;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import dev.rmqpatch.codec.Brief;
import dev.rmqpatch.codec.RandomText;
import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every registered codec against stock 4.9.0 {@code RemotingCommand} reflection, directly and through the hooks
 * the patched {@code RemotingCommand} calls. On valid input the results must be indistinguishable.
 */
class HeaderDifferentialTest {

    private static final int CASES = 10_000;

    static Stream<HeaderCodec<?>> codecs() {
        return Arrays.stream(HeaderCodecs.all());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void randomValidExtDecodesLikeStock(HeaderCodec<T> codec) throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            HashMap<String, String> ext = StockHeaders.randomValidExt(r, codec.headerClass());
            checkDecode(codec, ext, Seeds.replay(seed, i));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void namedExtDecodesLikeStock(HeaderCodec<T> codec) throws Exception {
        List<Field> fields = StockHeaders.wireFields(codec.headerClass());
        String[][] numberSpellings = {
            {"0", "0"}, {"-0", "+0"}, {"2147483647", "9223372036854775807"}, {"-2147483648", "-9223372036854775808"},
            {"+17", "0017"}, {"\uff11\uff12", "\u0661\u0662"},
        };
        String[] stringSpellings = {"", " ", "\u0001", "k\u0001v\u0002k2\u0001v2\u0002", "\ud83d\ude00\u4e2d", "\ud800"};
        String[] booleanSpellings = {"true", "TRUE", "false", "", "yes", "1"};
        for (int s = 0; s < numberSpellings.length; s++) {
            for (boolean withOptionals : new boolean[] {false, true}) {
                HashMap<String, String> ext = new HashMap<>();
                for (Field f : fields) {
                    if (!StockHeaders.required(f) && !withOptionals) {
                        continue;
                    }
                    String value;
                    if (StockHeaders.numeric(f)) {
                        value = numberSpellings[s][StockHeaders.isLong(f) ? 1 : 0];
                    } else if (f.getType() == String.class) {
                        value = stringSpellings[s % stringSpellings.length];
                    } else {
                        value = booleanSpellings[s % booleanSpellings.length];
                    }
                    ext.put(f.getName(), value);
                }
                checkDecode(codec, ext, "named case " + s + (withOptionals ? " with" : " without") + " optional fields");
            }
        }
        HashMap<String, String> big = StockHeaders.fullExt(codec.headerClass());
        for (Field f : fields) {
            if (f.getType() == String.class) {
                big.put(f.getName(), "\u4e2d".repeat(1 << 20));
            }
        }
        checkDecode(codec, big, "1 MB string fields");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void randomHeadersEncodeLikeStock(HeaderCodec<T> codec) {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        List<Field> fields = StockHeaders.wireFields(codec.headerClass());
        for (int i = 0; i < CASES; i++) {
            String where = Seeds.replay(seed, i);
            T header = StockHeaders.newHeader(codec.headerClass());
            for (Field f : fields) {
                StockHeaders.write(f, header, StockHeaders.randomFieldValue(r, f));
            }
            HashMap<String, String> existing = null;
            if (r.nextInt(3) == 0) {
                // A command that already carries fields (stale values of header fields included) keeps the others.
                existing = new HashMap<>();
                existing.put("other", RandomText.text(r, 5));
                existing.put(fields.get(r.nextInt(fields.size())).getName(), "stale");
            }
            checkEncode(codec, header, existing, where);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void encodeThenDecodeRoundTripsWithStockEitherSide(HeaderCodec<T> codec)
        throws Exception {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        List<Field> fields = StockHeaders.wireFields(codec.headerClass());
        for (int i = 0; i < CASES; i++) {
            String where = Seeds.replay(seed, i);
            T header = StockHeaders.newHeader(codec.headerClass());
            for (Field f : fields) {
                Object v;
                do {
                    v = StockHeaders.randomFieldValue(r, f);
                } while (v == null && StockHeaders.required(f)); // decodable: every required field set
                StockHeaders.write(f, header, v);
            }
            HashMap<String, String> ours = new HashMap<>();
            codec.encode(header, ours);
            assertSameHeader(header, codec.decode(ours), where + " ours -> ours " + describe(ours));
            assertSameHeader(header, StockHeaders.stockDecode(codec.headerClass(), ours), where + " ours -> stock");
            HashMap<String, String> stock = StockHeaders.stockEncode(header, null);
            assertSameHeader(header, codec.decode(stock), where + " stock -> ours " + describe(stock));
        }
    }

    private static <T extends CommandCustomHeader> void checkDecode(HeaderCodec<T> codec, HashMap<String, String> ext,
                                                                    String where) throws Exception {
        Map<String, String> before = new HashMap<>(ext);
        String context = where + " ext=" + describe(ext);
        CommandCustomHeader stock = StockHeaders.stockDecode(codec.headerClass(), ext);
        assertNotNull(stock, context);

        T ours = codec.decode(ext);
        assertSameHeader(stock, ours, context + " [codec]");

        RemotingCommand cmd = StockHeaders.requestWith(ext);
        CommandCustomHeader viaHook = StockHeaders.decodeViaHook(cmd, codec.headerClass());
        assertNotNull(viaHook, context + " [hook declined a registered class]");
        assertSameHeader(stock, viaHook, context + " [hook]");
        Brief.assertEqual(before, ext, () -> context + ": decode must not touch the ext fields");
    }

    private static <T extends CommandCustomHeader> void checkEncode(HeaderCodec<T> codec, T header,
                                                                    HashMap<String, String> existing, String where) {
        HashMap<String, String> stock = StockHeaders.stockEncode(header, existing);

        HashMap<String, String> ours = existing == null ? new HashMap<>() : new HashMap<>(existing);
        codec.encode(header, ours);
        Brief.assertEqual(stock, ours, () -> where + " [codec]");

        RemotingCommand cmd = RemotingCommand.createRequestCommand(0, header);
        cmd.setExtFields(existing == null ? null : new HashMap<>(existing));
        assertTrue(StockHeaders.encodeViaHook(cmd), where + " [hook declined a registered class]");
        Brief.assertEqual(stock, cmd.getExtFields(), () -> where + " [hook]");
        // The iteration order is the order of the keys in the JSON header on the wire: it must be stock's too.
        Brief.assertEqual(new ArrayList<>(stock.entrySet()), new ArrayList<>(cmd.getExtFields().entrySet()),
            () -> where + " [hook, iteration order]");
    }
}
