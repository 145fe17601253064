package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * S5: fastjson's safe mode on in every JVM that loads the patched rocketmq-remoting, and no JSON remoting header
 * naming {@code @type} handed to fastjson. The codec side is {@code AutoTypeGuard}; P5's hook reads this patch's
 * switch before its fallback to fastjson.
 */
final class FastjsonSafeModePatch implements Patch {

    @Override
    public String id() {
        return "S5";
    }

    @Override
    public String name() {
        return "fastjson-safe-mode";
    }

    @Override
    public String buys() {
        return "no `@type` honoured in any header, body or config file the broker, name server or mqadmin parses "
            + "(JVM-wide: see PATCHES.md)";
    }

    @Override
    public String closes() {
        return "fastjson autoType (CVE-2022-25845 class)";
    }

    @Override
    public String fixedUpstream() {
        return "4.9.4 (ships fastjson 1.2.69_noneautotype, which refuses every @type); fastjson 1.2.83";
    }

    @Override
    public String effect() {
        return "fastjson's own safe mode is switched on when RemotingSerializable is initialised (before the broker, the "
            + "name server or mqadmin reads anything from the network), so no @type is honoured in any header, body or "
            + "config file they parse, and a JSON header that P5's reader declines is refused, as an undecodable one is "
            + "(connection closed), when it names @type in any spelling fastjson decodes. The start-up log says whether "
            + "safe mode is on. RocketMQ itself never sends @type. The mode is JVM-wide: an application that relies on "
            + "fastjson autoType must not load the patched rocketmq-remoting (or must start with -Drmqpatch.disable=S5).";
    }

    @Override
    public String why() {
        return "4.9.0 ships fastjson 1.2.76, whose autoType check lets {\"@type\":\"java.lang.Exception\",\"@type\":"
            + "\"AnyThrowable\",...} through: it loads and instantiates the named Throwable subclass and calls its setters. "
            + "Every JSON remoting header (the extFields values and the remark) and the heartbeat and register-broker "
            + "bodies are parsed before any ACL check, so anyone who reaches a broker or name-server port picks a class "
            + "to instantiate. On JDK 9+ fastjson happens to fail opening Throwable's fields; on JDK 8 nothing stops it.";
    }

    @Override
    public String verification() {
        return "The broker and name-server logs say 'rmqpatch: fastjson safe mode (S5): on'. A header whose extFields "
            + "value is {\"@type\":\"java.lang.Exception\",\"@type\":\"some.Throwable\"} closes the connection and "
            + "instantiates nothing.";
    }

    @Override
    public String tests() {
        return "AutoTypeExploitIT; codec: AutoTypeGuardTest";
    }

    @Override
    public String benchmark() {
        return "none (one flag set at class initialisation; the @type scan runs only on headers P5's reader declines)";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_4) ? ReleaseFit.upstream(
            "4.9.4+ ship fastjson 1.2.69_noneautotype (rocketmq-all's fastjson.version, read), whose parser refuses every "
            + "@type with 'safeMode not support autoType' before it loads a class (tests: FastjsonReleasesTest)")
            : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new EntryHook(Stock.REMOTING_SERIALIZABLE_INIT, Codec.ENABLE_FASTJSON_SAFE_MODE));
    }
}
