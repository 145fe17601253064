package dev.rmqpatch.codec.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.rmqpatch.codec.Brief;
import dev.rmqpatch.codec.RandomText;
import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.annotation.CFNotNull;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * What stock 4.9.0 {@code RemotingCommand} sees in a header class, derived by reflection the same way stock does
 * (declared non-static fields, {@code @CFNotNull}), plus generators of wire values and header objects. Tests
 * drive every codec from this model, so a header class that gains a field changes the model, not the tests.
 */
public final class StockHeaders {

    private StockHeaders() {
    }

    /** The fields stock puts on the wire: declared, non-static, not starting with "this". */
    public static List<Field> wireFields(Class<?> headerClass) {
        List<Field> out = new ArrayList<>();
        for (Field f : headerClass.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && !f.getName().startsWith("this")) {
                f.setAccessible(true);
                out.add(f);
            }
        }
        return out;
    }

    public static boolean required(Field f) {
        return f.isAnnotationPresent(CFNotNull.class);
    }

    public static boolean numeric(Field f) {
        Class<?> t = f.getType();
        return t == Integer.class || t == int.class || t == Long.class || t == long.class;
    }

    public static boolean isLong(Field f) {
        return f.getType() == Long.class || f.getType() == long.class;
    }

    /** A text that stock's parser accepts for this field type; spellings vary (sign, leading zeros, non-ASCII digits). */
    public static String validWireValue(Random r, Field f) {
        Class<?> t = f.getType();
        if (t == String.class) {
            return r.nextInt(8) == 0 ? RandomText.separatorHeavy(r, 60) : RandomText.text(r, 30);
        }
        if (t == Integer.class || t == int.class) {
            return spell(r, Integer.toString(randomInt(r)));
        }
        if (t == Long.class || t == long.class) {
            return spell(r, Long.toString(randomLong(r)));
        }
        if (t == Boolean.class || t == boolean.class) {
            String[] spellings = {"true", "false", "TRUE", "True", "tRuE", "FALSE", "yes", "1", "", " true", "on"};
            return spellings[r.nextInt(spellings.length)];
        }
        return fail("field " + f + " has a type the tests (and the codecs) do not know: " + t);
    }

    /** A field value for encoding: any value of the type, null for about one in five reference-typed fields. */
    public static Object randomFieldValue(Random r, Field f) {
        Class<?> t = f.getType();
        if (!t.isPrimitive() && r.nextInt(5) == 0) {
            return null;
        }
        if (t == String.class) {
            return RandomText.text(r, 30);
        }
        if (t == Integer.class || t == int.class) {
            return randomInt(r);
        }
        if (t == Long.class || t == long.class) {
            return randomLong(r);
        }
        if (t == Boolean.class || t == boolean.class) {
            return r.nextBoolean();
        }
        return fail("field " + f + " has a type the tests (and the codecs) do not know: " + t);
    }

    /** Ext fields a well-behaved client could send: every required field, each optional one with probability 1/2. */
    public static HashMap<String, String> randomValidExt(Random r, Class<?> headerClass) {
        HashMap<String, String> ext = new HashMap<>();
        for (Field f : wireFields(headerClass)) {
            if (required(f) || r.nextBoolean()) {
                ext.put(f.getName(), validWireValue(r, f));
            }
        }
        if (r.nextInt(4) == 0) {
            ext.put("unrelated" + r.nextInt(3), RandomText.text(r, 5)); // stock ignores keys that are not fields
        }
        return ext;
    }

    /** Every wire field present with a plain, distinct value: field #i of type int is "i+1", and so on. */
    public static HashMap<String, String> fullExt(Class<?> headerClass) {
        HashMap<String, String> ext = new HashMap<>();
        int i = 1;
        for (Field f : wireFields(headerClass)) {
            ext.put(f.getName(), sampleWireValue(f, i++));
        }
        return ext;
    }

    public static String sampleWireValue(Field f, int i) {
        Class<?> t = f.getType();
        if (t == String.class) {
            return "value-of-" + f.getName();
        }
        if (t == Integer.class || t == int.class) {
            return Integer.toString(i);
        }
        if (t == Long.class || t == long.class) {
            return Long.toString(10_000_000_000L + i);
        }
        if (t == Boolean.class || t == boolean.class) {
            return "true"; // the non-default value, so a codec that skips the field is caught
        }
        return fail("field " + f + " has a type the tests (and the codecs) do not know: " + t);
    }

    public static <T> T newHeader(Class<T> headerClass) {
        try {
            return headerClass.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    public static Object read(Field f, Object header) {
        try {
            return f.get(header);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    public static void write(Field f, Object header, Object value) {
        try {
            f.set(header, value);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** Public no-argument get/is methods declared by the header class itself. */
    public static List<Method> getters(Class<?> headerClass) {
        List<Method> out = new ArrayList<>();
        for (Method m : headerClass.getDeclaredMethods()) {
            String n = m.getName();
            if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0
                && (n.startsWith("get") || n.startsWith("is")) && m.getReturnType() != void.class) {
                out.add(m);
            }
        }
        out.sort(Comparator.comparing(Method::getName));
        return out;
    }

    /** Compares every getter, and (so nothing hides behind a getter-less field) every wire field too. */
    public static void assertSameHeader(Object expected, Object actual, String where) {
        assertEquals(expected.getClass(), actual.getClass(), where);
        List<Method> getters = getters(expected.getClass());
        assertTrue(getters.size() >= wireFields(expected.getClass()).size(), "fewer getters than fields: " + getters);
        for (Method g : getters) {
            try {
                Object e = g.invoke(expected);
                Object a = g.invoke(actual);
                Brief.assertEqual(e, a, () -> where + ": " + g.getName() + "()");
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        for (Field f : wireFields(expected.getClass())) {
            Object e = read(f, expected);
            Object a = read(f, actual);
            Brief.assertEqual(e, a, () -> where + ": field " + f.getName());
        }
    }

    public static RemotingCommand requestWith(Map<String, String> ext) {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, null);
        cmd.setExtFields(ext == null ? null : new HashMap<>(ext));
        return cmd;
    }

    /** Stock 4.9.0 reflection decode of a copy of {@code ext}. */
    public static CommandCustomHeader stockDecode(Class<? extends CommandCustomHeader> headerClass, Map<String, String> ext)
        throws RemotingCommandException {
        return requestWith(ext).decodeCommandCustomHeader(headerClass);
    }

    /** Stock 4.9.0 reflection encode, into a copy of {@code existing} (null: stock creates the map). */
    public static HashMap<String, String> stockEncode(CommandCustomHeader header, Map<String, String> existing) {
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, header);
        cmd.setExtFields(existing == null ? null : new HashMap<>(existing));
        cmd.makeCustomHeaderToNet();
        return cmd.getExtFields();
    }

    /**
     * Decodes through the hook of the patch that owns the header class (P1 for the send path, P10 for the pull path),
     * after checking that the other patch's hook, which sits in the same patched method, declines the class.
     */
    public static CommandCustomHeader decodeViaHook(RemotingCommand cmd, Class<? extends CommandCustomHeader> headerClass)
        throws RemotingCommandException {
        boolean pull = HeaderCodecs.pullPath(headerClass) != null;
        CommandCustomHeader other = pull ? RemotingCommandHooks.decodeCommandCustomHeader(cmd, headerClass)
            : RemotingCommandHooks.decodePullCustomHeader(cmd, headerClass);
        assertNull(other, (pull ? "P1" : "P10") + "'s hook must decline " + headerClass.getName());
        return pull ? RemotingCommandHooks.decodePullCustomHeader(cmd, headerClass)
            : RemotingCommandHooks.decodeCommandCustomHeader(cmd, headerClass);
    }

    /**
     * Encodes through the hook of the patch that owns the command's header class (P4 send path, P11 pull path), after
     * checking that the other patch's hook declines it without touching the ext fields.
     */
    public static boolean encodeViaHook(RemotingCommand cmd) {
        boolean pull = HeaderCodecs.pullPath(cmd.readCustomHeader().getClass()) != null;
        HashMap<String, String> before = cmd.getExtFields();
        Map<String, String> copy = before == null ? null : new HashMap<>(before);
        assertFalse(pull ? RemotingCommandHooks.makeCustomHeaderToNet(cmd) : RemotingCommandHooks.makePullHeaderToNet(cmd),
            (pull ? "P4" : "P11") + "'s hook must decline " + cmd.readCustomHeader().getClass().getName());
        assertSame(before, cmd.getExtFields());
        assertEquals(copy, cmd.getExtFields());
        return pull ? RemotingCommandHooks.makePullHeaderToNet(cmd) : RemotingCommandHooks.makeCustomHeaderToNet(cmd);
    }

    public static String describe(Map<String, String> ext) {
        if (ext == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("{");
        ext.keySet().stream().sorted().forEach(k -> sb.append(k).append('=').append(Brief.of(ext.get(k))).append(", "));
        return sb.append('}').toString();
    }

    public static int randomInt(Random r) {
        switch (r.nextInt(6)) {
            case 0:
                return r.nextInt(16);
            case 1:
                return -r.nextInt(16);
            case 2:
                return Integer.MAX_VALUE - r.nextInt(3);
            case 3:
                return Integer.MIN_VALUE + r.nextInt(3);
            default:
                return r.nextInt();
        }
    }

    public static long randomLong(Random r) {
        switch (r.nextInt(6)) {
            case 0:
                return r.nextInt(16);
            case 1:
                return System.currentTimeMillis() + r.nextInt(1000);
            case 2:
                return Long.MAX_VALUE - r.nextInt(3);
            case 3:
                return Long.MIN_VALUE + r.nextInt(3);
            default:
                return r.nextLong();
        }
    }

    /** Alternative spellings that Integer/Long.parseXxx accept: '+', leading zeros, Unicode decimal digits. */
    private static String spell(Random r, String canonical) {
        switch (r.nextInt(8)) {
            case 0:
                return canonical.startsWith("-") ? canonical : "+" + canonical;
            case 1:
                return canonical.startsWith("-") ? "-00" + canonical.substring(1) : "00" + canonical;
            case 2:
                return toDigits(canonical, '\uff10'); // fullwidth
            case 3:
                return toDigits(canonical, '\u0660'); // Arabic-Indic
            default:
                return canonical;
        }
    }

    private static String toDigits(String canonical, char zero) {
        char[] c = canonical.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= '0' && c[i] <= '9') {
                c[i] = (char) (zero + (c[i] - '0'));
            }
        }
        return new String(c);
    }

    /** Field names, in declaration order, for messages. */
    public static List<String> names(List<Field> fields) {
        return Arrays.asList(fields.stream().map(Field::getName).toArray(String[]::new));
    }
}
