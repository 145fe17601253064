package dev.rmqpatch.codec.security;

import com.alibaba.fastjson.JSONException;
import com.alibaba.fastjson.parser.ParserConfig;

/**
 * S5: no {@code @type} is honoured in anything a patched JVM parses with fastjson. Stock 4.9.0 ships fastjson
 * 1.2.76, whose autoType check lets {@code {"@type":"java.lang.Exception","@type":"AnyThrowable","prop":..}}
 * through (the CVE-2022-25845 class, fixed in fastjson 1.2.83): it loads the named Throwable subclass and calls
 * its setters. Every JSON remoting header, and heartbeat, register-broker and admin bodies, are parsed with
 * fastjson before any ACL check, so anyone who reaches a broker or name-server port can make the server
 * instantiate a class of their choice. RocketMQ never writes {@code @type} itself.
 * <p>
 * Two layers: fastjson's own safe mode (since 1.2.68: every {@code @type} refused) switched on when
 * {@code RemotingSerializable} is initialised, which every broker, name server and admin tool does before it reads
 * anything from the network, so a drop-in install needs no JVM flag; and P5's header reader hands a header it
 * declines to fastjson only when the header does not name {@code @type} in any spelling fastjson decodes.
 */
public final class AutoTypeGuard {

    private static final char[] TYPE_KEY = "@type".toCharArray();

    private AutoTypeGuard() {
    }

    /** Entry of {@code RemotingSerializable.<clinit>}: fastjson's global parser refuses every @type; false lets stock go on. */
    public static boolean enableSafeMode() {
        ParserConfig.getGlobalInstance().setSafeMode(true);
        return false;
    }

    /** Whether fastjson's global parser refuses every @type in this JVM (the start-up report shows it). */
    public static boolean safeModeOn() {
        return ParserConfig.getGlobalInstance().isSafeMode();
    }

    /**
     * For a JSON header that P5's reader declined, before fastjson sees it: throws, as fastjson does for an
     * undecodable header (the connection is then closed), when the header names {@code @type}.
     *
     * @throws JSONException naming the refusal
     */
    public static void refuseAutoType(byte[] json) {
        if (mentionsAutoType(json)) {
            throw new JSONException("rmqpatch S5: refused a remoting header that names @type (fastjson autoType, "
                + "CVE-2022-25845 class); RocketMQ never sends it");
        }
    }

    /**
     * True when {@code @type} appears in the text once every escape fastjson's lexer decodes is decoded:
     * {@code \\uXXXX}, {@code \\xXX}, and a backslash before any other character is read as that character (which
     * over-matches, on the safe side). '@' and the letters are ASCII, so the bytes of a multi-byte UTF-8 sequence
     * never match them. A plain scan, not a parse: it runs only on headers the hand-written reader declined.
     */
    static boolean mentionsAutoType(byte[] json) {
        if (json == null) {
            return false;
        }
        int matched = 0;
        int i = 0;
        int n = json.length;
        while (i < n) {
            int c = json[i] & 0xFF;
            if (c == '\\' && i + 1 < n) {
                int e = json[i + 1];
                int value;
                if (e == 'u' && (value = hex(json, i + 2, 4)) >= 0) {
                    c = value;
                    i += 6;
                } else if (e == 'x' && (value = hex(json, i + 2, 2)) >= 0) {
                    c = value;
                    i += 4;
                } else {
                    c = e & 0xFF;
                    i += 2;
                }
            } else {
                i++;
            }
            if (c == TYPE_KEY[matched]) {
                if (++matched == TYPE_KEY.length) {
                    return true;
                }
            } else {
                matched = c == TYPE_KEY[0] ? 1 : 0;
            }
        }
        return false;
    }

    /** The value of {@code digits} hex digits at {@code from}, or -1. */
    private static int hex(byte[] b, int from, int digits) {
        if (from + digits > b.length) {
            return -1;
        }
        int v = 0;
        for (int k = from; k < from + digits; k++) {
            int d = Character.digit(b[k], 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }
}
