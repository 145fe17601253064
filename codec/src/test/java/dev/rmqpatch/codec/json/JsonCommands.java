package dev.rmqpatch.codec.json;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * Generators for the JSON-header tests: random commands as RocketMQ code builds them, the same content written
 * the way a client of another language might (any field order, whitespace, escapes where none are needed,
 * unknown keys), byte-level mutations, and a description of a decoded command that covers every field.
 */
final class JsonCommands {

    /** Text units that exercise every escaping rule and every UTF-8 length, including lone surrogates. */
    private static final String[] UNITS = {
        "a", "b", "Z", "0", "9", "_", "-", ".", " ", "=", "/", "'", "<", "(", "{", "}", "[", ":", ",", "@", "$",
        "\"", "\\", "\t", "\n", "\r", "\b", "\f", "\u0000", "\u0001", "\u0002", "\u000b", "\u001a", "\u001f",
        "\u007f", "\u0080", "\u009f", "\u00a0", "\u00e9", "\u00ff", "\u0100", "\u07ff", "\u0800", "\u2028",
        "\u2029", "\u4e2d", "\ufeff", "\uffff", "\ud83d\ude00", "\udbff\udfff", "\ud800", "\udfff", "\udc00\ud800",
    };

    /** Names real headers use, so that random ext fields look like real traffic too. */
    private static final String[] REAL_KEYS = {
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "msgId", "queueId", "queueOffset",
        "transactionId", MessageConst.PROPERTY_MSG_REGION, MessageConst.PROPERTY_TRACE_SWITCH, "consumerGroup", "topic",
        "producerGroup", "properties", "bornTimestamp", "sysFlag", "commitOffset", "subscription",
    };

    private static final int[] CODES = {
        RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2, RequestCode.PULL_MESSAGE, RequestCode.HEART_BEAT,
        RequestCode.SEND_BATCH_MESSAGE, RequestCode.UPDATE_AND_CREATE_TOPIC, ResponseCode.SUCCESS,
        ResponseCode.SYSTEM_ERROR, ResponseCode.TOPIC_NOT_EXIST, ResponseCode.FLUSH_DISK_TIMEOUT,
    };

    private static final String[] WHITESPACE = {"", "", "", " ", "  ", "\n", "\t", "\r\n", " \n\t "};

    /** Bytes a mutation inserts or writes: structure, quotes, escapes, digits, UTF-8 lead and continuation bytes. */
    private static final byte[] MUTATION_BYTES = "{}[]:,\"\\'/-+.0123456789eEnulltrufasxU ".getBytes(StandardCharsets.US_ASCII);

    private JsonCommands() {
    }

    static String text(Random r, int maxUnits) {
        int n = r.nextInt(maxUnits + 1);
        int mode = r.nextInt(4);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (mode == 0) {
                sb.append((char) ('a' + r.nextInt(26)));
            } else if (mode == 1) {
                sb.append(UNITS[r.nextInt(UNITS.length)]);
            } else if (mode == 2) {
                sb.append(r.nextInt(3) == 0 ? (char) r.nextInt(0x10000) : (char) (' ' + r.nextInt(95)));
            } else {
                // Properties-string shaped: name, \u0001, value, \u0002.
                sb.append(r.nextBoolean() ? "KEY" + r.nextInt(30) : UNITS[r.nextInt(UNITS.length)]);
                sb.append(r.nextBoolean() ? '\u0001' : '\u0002');
            }
        }
        return sb.toString();
    }

    static int randomInt(Random r) {
        switch (r.nextInt(6)) {
            case 0:
                return r.nextInt();
            case 1:
                return r.nextBoolean() ? Integer.MAX_VALUE - r.nextInt(3) : Integer.MIN_VALUE + r.nextInt(3);
            case 2:
                return r.nextInt(21) - 10;
            default:
                return r.nextInt(1 << (1 + r.nextInt(30)));
        }
    }

    /** A command as broker or client code builds one before encoding it. */
    static RemotingCommand randomCommand(Random r) {
        RemotingCommand cmd = r.nextBoolean()
            ? RemotingCommand.createRequestCommand(CODES[r.nextInt(CODES.length)], null)
            : RemotingCommand.createResponseCommand(CODES[r.nextInt(CODES.length)], null);
        if (r.nextInt(4) == 0) {
            cmd.setCode(randomInt(r));
        }
        if (r.nextInt(3) == 0) {
            cmd.markOnewayRPC();
        }
        if (r.nextInt(6) == 0) {
            cmd.setFlag(randomInt(r));
        }
        cmd.setOpaque(randomInt(r));
        if (r.nextInt(4) == 0) {
            cmd.setVersion(randomInt(r));
        }
        int language = r.nextInt(LanguageCode.values().length + 3);
        if (language < LanguageCode.values().length) {
            cmd.setLanguage(LanguageCode.values()[language]);
        } else if (language == LanguageCode.values().length) {
            cmd.setLanguage(null);
        }
        if (r.nextInt(8) == 0) {
            cmd.setSerializeTypeCurrentRPC(r.nextBoolean() ? SerializeType.ROCKETMQ : null);
        }
        if (r.nextBoolean()) {
            cmd.setRemark(text(r, 30));
        }
        if (r.nextInt(5) != 0) {
            cmd.setExtFields(randomExtFields(r));
        }
        return cmd;
    }

    static HashMap<String, String> randomExtFields(Random r) {
        int n = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(r.nextInt(8) == 0 ? 40 : 14);
        HashMap<String, String> ext = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String key = r.nextInt(3) != 0 ? REAL_KEYS[r.nextInt(REAL_KEYS.length)] : text(r, 8);
            String value = r.nextInt(12) == 0 ? null : text(r, r.nextInt(6) == 0 ? 300 : 24);
            ext.put(key, value);
        }
        return ext;
    }

    static byte[] stockJson(RemotingCommand cmd) {
        return RemotingSerializable.encode(cmd);
    }

    /**
     * The command's content written by a different hand: fields in random order, whitespace between tokens,
     * optional escapes, sometimes nulls written out, unknown keys, the serialize type left out.
     */
    static byte[] styledJson(RemotingCommand cmd, Random r) {
        List<String> members = new ArrayList<>();
        members.add(member(r, "code", Integer.toString(cmd.getCode())));
        members.add(member(r, "opaque", Integer.toString(cmd.getOpaque())));
        if (r.nextInt(4) != 0) {
            members.add(member(r, "flag", Integer.toString(cmd.getFlag())));
        }
        if (r.nextInt(4) != 0) {
            members.add(member(r, "version", Integer.toString(cmd.getVersion())));
        }
        if (cmd.getLanguage() != null && r.nextInt(4) != 0) {
            members.add(member(r, "language", quoted(r, cmd.getLanguage().name(), false)));
        }
        if (cmd.getSerializeTypeCurrentRPC() != null && r.nextBoolean()) {
            members.add(member(r, "serializeTypeCurrentRPC", quoted(r, cmd.getSerializeTypeCurrentRPC().name(), false)));
        }
        if (cmd.getRemark() != null) {
            members.add(member(r, "remark", quoted(r, cmd.getRemark(), true)));
        } else if (r.nextInt(4) == 0) {
            members.add(member(r, "remark", "null"));
        }
        if (cmd.getExtFields() != null) {
            List<String> entries = new ArrayList<>();
            for (Map.Entry<String, String> e : cmd.getExtFields().entrySet()) {
                if (e.getValue() != null) {
                    entries.add(ws(r) + quoted(r, e.getKey(), true) + ws(r) + ":" + ws(r) + quoted(r, e.getValue(), true) + ws(r));
                }
            }
            if (r.nextInt(4) == 0) {
                Collections.shuffle(entries, r);
            }
            if (r.nextInt(8) == 0 && !entries.isEmpty()) {
                entries.add(entries.get(r.nextInt(entries.size())).replaceFirst(":.*", ":\"duplicate\""));
            }
            members.add(member(r, "extFields", "{" + String.join(",", entries) + ws(r) + "}"));
        } else if (r.nextInt(4) == 0) {
            members.add(member(r, "extFields", "null"));
        }
        if (r.nextInt(3) == 0) {
            members.add(unknownMember(r));
        }
        Collections.shuffle(members, r);
        return (ws(r) + "{" + String.join(",", members) + "}" + ws(r)).getBytes(StandardCharsets.UTF_8);
    }

    private static String unknownMember(Random r) {
        String[] names = {"traceId", "x", "zone_id", "client-name", "bodyCrc", "serializeType", "extField", "remarks",
            "CODE", "Opaque", "is_flag", "ext_fields", "isRemark", "type", "body", "@type", "$ref", "lang uage", ""};
        String[] values = {"\"v\"", "\"\\u0041\\n\"", "12", "-7", "0", "true", "false", "null", "123456789012345678",
            "1.5", "1e3", "[1]", "{}", "{\"a\":1}", "\"\"", "01", "-0", "1234567890123456789012"};
        return member(r, names[r.nextInt(names.length)], values[r.nextInt(values.length)]);
    }

    private static String member(Random r, String name, String json) {
        return ws(r) + "\"" + name + "\"" + ws(r) + ":" + ws(r) + json + ws(r);
    }

    static String ws(Random r) {
        return r.nextInt(3) == 0 ? WHITESPACE[r.nextInt(WHITESPACE.length)] : "";
    }

    /** A JSON string for {@code s}: required escapes in a random spelling, optional ones at random. */
    static String quoted(Random r, String s, boolean optionalEscapes) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        boolean upper = r.nextBoolean();
        int escapeRate = optionalEscapes ? r.nextInt(4) == 0 ? 3 : 40 : Integer.MAX_VALUE;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String shortEscape = shortEscape(c);
            boolean required = c == '"' || c == '\\' || c < 0x20 || Character.isSurrogate(c);
            if (required || r.nextInt(escapeRate) == 0) {
                if (shortEscape != null && r.nextInt(3) != 0) {
                    sb.append(shortEscape);
                } else {
                    String digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
                    sb.append("\\u");
                    for (int shift = 12; shift >= 0; shift -= 4) {
                        sb.append(digits.charAt((c >> shift) & 0xF));
                    }
                }
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private static String shortEscape(char c) {
        switch (c) {
            case '"':
                return "\\\"";
            case '\\':
                return "\\\\";
            case '/':
                return "\\/";
            case '\b':
                return "\\b";
            case '\f':
                return "\\f";
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                return null;
        }
    }

    /** One to three random byte-level edits: delete, insert, overwrite, truncate, repeat a slice. */
    static byte[] mutate(byte[] in, Random r) {
        byte[] b = in;
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = b.length == 0 ? 0 : r.nextInt(b.length);
            switch (r.nextInt(5)) {
                case 0:
                    if (b.length > 0) {
                        b = splice(b, at, 1, new byte[0]);
                    }
                    break;
                case 1:
                    b = splice(b, at, 0, new byte[] {randomByte(r)});
                    break;
                case 2:
                    if (b.length > 0) {
                        b = splice(b, at, 1, new byte[] {randomByte(r)});
                    }
                    break;
                case 3:
                    b = java.util.Arrays.copyOf(b, at);
                    break;
                default:
                    int len = Math.min(b.length - at, 1 + r.nextInt(12));
                    byte[] slice = java.util.Arrays.copyOfRange(b, at, at + len);
                    b = splice(b, at, 0, slice);
                    break;
            }
        }
        return b;
    }

    private static byte randomByte(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return (byte) (0x80 + r.nextInt(0x80));
            case 1:
                return (byte) r.nextInt(0x20);
            default:
                return MUTATION_BYTES[r.nextInt(MUTATION_BYTES.length)];
        }
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }

    private static final Field CUSTOM_HEADER = field("customHeader");
    private static final Field BODY = field("body");

    private static Field field(String name) {
        try {
            Field f = RemotingCommand.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Whether no caller can tell the two commands apart: the same class and equal values in every field that
     * {@link #describe} shows, the ext fields equal entry for entry in iteration order. Cheaper than comparing
     * descriptions, which the tests build only to report a difference.
     */
    static boolean same(RemotingCommand a, RemotingCommand b) {
        try {
            if (a.getClass() != b.getClass() || a.getCode() != b.getCode() || a.getLanguage() != b.getLanguage()
                || a.getVersion() != b.getVersion() || a.getOpaque() != b.getOpaque() || a.getFlag() != b.getFlag()
                || !java.util.Objects.equals(a.getRemark(), b.getRemark())
                || a.getSerializeTypeCurrentRPC() != b.getSerializeTypeCurrentRPC()
                || CUSTOM_HEADER.get(a) != CUSTOM_HEADER.get(b)
                || !java.util.Arrays.equals((byte[]) BODY.get(a), (byte[]) BODY.get(b))) {
                return false;
            }
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
        HashMap<String, String> x = a.getExtFields();
        HashMap<String, String> y = b.getExtFields();
        if (x == null || y == null) {
            return x == y;
        }
        if (x.getClass() != y.getClass() || x.size() != y.size()) {
            return false;
        }
        java.util.Iterator<Map.Entry<String, String>> ix = x.entrySet().iterator();
        java.util.Iterator<Map.Entry<String, String>> iy = y.entrySet().iterator();
        while (ix.hasNext()) {
            if (!ix.next().equals(iy.next())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every instance field of the command (body and custom header included), with the ext fields as their entries
     * in iteration order: equal descriptions mean no caller can tell the commands apart.
     */
    static String describe(RemotingCommand cmd) {
        if (cmd == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(cmd.getClass().getName()).append('{');
        for (Field f : RemotingCommand.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object v;
            try {
                v = f.get(cmd);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
            sb.append(f.getName()).append('=');
            if (v instanceof HashMap) {
                sb.append(v.getClass().getSimpleName()).append(new ArrayList<>(((HashMap<?, ?>) v).entrySet()));
            } else if (v instanceof byte[]) {
                sb.append(java.util.Arrays.toString((byte[]) v));
            } else if (v instanceof String) {
                sb.append('"').append(escapeForMessage((String) v)).append('"');
            } else {
                sb.append(v);
            }
            sb.append(", ");
        }
        return sb.append('}').toString();
    }

    static String escapeForMessage(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 400; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    static String show(byte[] json) {
        return escapeForMessage(new String(json, StandardCharsets.ISO_8859_1));
    }
}
