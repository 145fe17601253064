package dev.rmqpatch.codec.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HeaderCodecsTest {

    static Stream<HeaderCodec<?>> codecs() {
        return Arrays.stream(HeaderCodecs.all());
    }

    /** The remoting hooks recognise exactly these classes by name, in the same groups (HeaderGroups names no class). */
    @Test
    void headerGroupsNameExactlyTheRegisteredClasses() throws Exception {
        Set<String> send = new TreeSet<>();
        Set<String> pull = new TreeSet<>();
        for (HeaderCodec<?> c : HeaderCodecs.all()) {
            (HeaderCodecs.sendPath(c.headerClass()) != null ? send : pull).add(c.headerClass().getName());
        }
        assertEquals(send, new TreeSet<>(Arrays.asList(dev.rmqpatch.codec.hook.HeaderGroups.SEND_PATH)));
        assertEquals(pull, new TreeSet<>(Arrays.asList(dev.rmqpatch.codec.hook.HeaderGroups.PULL_PATH)));
        dev.rmqpatch.codec.hook.HeaderCodecLookup lookup = new HeaderCodecs.Lookup();
        for (HeaderCodec<?> c : HeaderCodecs.all()) {
            assertSame(c, HeaderCodecs.sendPath(c.headerClass()) != null ? lookup.sendPath(c.headerClass())
                : lookup.pullPath(c.headerClass()));
        }
    }

    @Test
    void registersTheSendAndPullPathHeaders() {
        Set<Class<?>> registered = codecs().map(HeaderCodec::headerClass).collect(Collectors.toSet());
        assertEquals(Set.of(SendMessageRequestHeaderV2.class, SendMessageRequestHeader.class,
            SendMessageResponseHeader.class, PullMessageRequestHeader.class, PullMessageResponseHeader.class), registered);
        assertEquals(HeaderCodecs.all().length, registered.size(), "one codec per header class");
    }

    @Test
    void everyRegisteredCodecIsFoundByItsClass() {
        for (HeaderCodec<?> codec : HeaderCodecs.all()) {
            assertSame(codec, HeaderCodecs.forClass(codec.headerClass()), codec.getClass().getName());
        }
    }

    /** P1/P4 and P10/P11 have their own switches, so each group's lookup must not find the other's headers. */
    @Test
    void sendAndPullGroupsAreSeparate() {
        for (Class<? extends CommandCustomHeader> send : List.of(SendMessageRequestHeaderV2.class,
            SendMessageRequestHeader.class, SendMessageResponseHeader.class)) {
            assertSame(HeaderCodecs.forClass(send), HeaderCodecs.sendPath(send), send.getName());
            assertNull(HeaderCodecs.pullPath(send), send.getName());
        }
        for (Class<? extends CommandCustomHeader> pull : List.of(PullMessageRequestHeader.class,
            PullMessageResponseHeader.class)) {
            assertNotNull(HeaderCodecs.pullPath(pull), pull.getName());
            assertSame(HeaderCodecs.forClass(pull), HeaderCodecs.pullPath(pull), pull.getName());
            assertNull(HeaderCodecs.sendPath(pull), pull.getName());
        }
    }

    @Test
    void unregisteredClassesFallBackToStock() {
        assertNull(HeaderCodecs.forClass(QueryConsumerOffsetRequestHeader.class));
        assertNull(HeaderCodecs.forClass(CommandCustomHeader.class));
        assertNull(HeaderCodecs.forClass(null));
        assertNull(HeaderCodecs.sendPath(null));
        assertNull(HeaderCodecs.pullPath(null));
        // A subclass may add fields the codec would drop, so the registry matches exact classes only.
        CommandCustomHeader subclass = new SendMessageRequestHeader() {
        };
        assertNull(HeaderCodecs.forClass(subclass.getClass()));
        CommandCustomHeader pullSubclass = new PullMessageRequestHeader() {
        };
        assertNull(HeaderCodecs.forClass(pullSubclass.getClass()));
    }

    @Test
    void allReturnsACopy() {
        HeaderCodec<?>[] all = HeaderCodecs.all();
        assertNotSame(all, HeaderCodecs.all());
        HeaderCodec<?> first = all[0];
        all[0] = null;
        assertNotNull(HeaderCodecs.all()[0]);
        assertSame(first, HeaderCodecs.forClass(first.headerClass()));
    }

    /** Encoding a header with every field set must write exactly the stock class's declared fields. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void encodeCoversExactlyTheStockFields(HeaderCodec<T> codec) {
        List<Field> fields = StockHeaders.wireFields(codec.headerClass());
        T header = StockHeaders.newHeader(codec.headerClass());
        int i = 1;
        for (Field f : fields) {
            String wire = StockHeaders.sampleWireValue(f, i++);
            StockHeaders.write(f, header, parse(f, wire));
        }
        HashMap<String, String> ext = new HashMap<>();
        codec.encode(header, ext);
        assertEquals(new TreeSet<>(StockHeaders.names(fields)), new TreeSet<>(ext.keySet()),
            codec.headerClass().getName() + ": declared fields vs encoded keys");
        assertEquals(StockHeaders.fullExt(codec.headerClass()), ext, "each field under its own name");
    }

    /** Decoding ext fields that carry every declared field must set every one of them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    <T extends CommandCustomHeader> void decodeCoversExactlyTheStockFields(HeaderCodec<T> codec) throws Exception {
        List<Field> fields = StockHeaders.wireFields(codec.headerClass());
        HashMap<String, String> ext = StockHeaders.fullExt(codec.headerClass());
        T decoded = codec.decode(ext);
        Set<String> set = new HashSet<>();
        for (Field f : fields) {
            assertEquals(parse(f, ext.get(f.getName())), StockHeaders.read(f, decoded), f.getName());
            set.add(f.getName());
        }
        assertEquals(ext.keySet(), set);
    }

    private static Object parse(Field f, String wire) {
        Class<?> t = f.getType();
        if (t == String.class) {
            return wire;
        }
        if (t == Integer.class || t == int.class) {
            return Integer.valueOf(wire);
        }
        if (t == Long.class || t == long.class) {
            return Long.valueOf(wire);
        }
        return Boolean.valueOf(wire);
    }
}
