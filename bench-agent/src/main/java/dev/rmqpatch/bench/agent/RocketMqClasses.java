package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.LoadedClass;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Where this JVM's RocketMQ client classes come from, and whether they run patched: one class of each client-side jar
 * (rocketmq-client, -remoting, -common), its jar and that jar's RocketMQ-Patches attribute, and the rmqpatch$ methods
 * the class has as loaded (rmqpatch's bridges, whether its jar was rewritten or the Java agent rewrote it at load). The
 * classes are loaded without being initialised.
 */
final class RocketMqClasses {
    /** One class per jar whose patches add rmqpatch$ methods to it, or that a client patch may rewrite. */
    static final List<String> CLASSES = Jdk8.listOf("org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl",
        "org.apache.rocketmq.remoting.protocol.RemotingCommand", "org.apache.rocketmq.common.message.MessageDecoder");
    /** The manifest attribute the patcher writes (PatchSwitches.MANIFEST_ATTRIBUTE; the codec is not on the harness's class path). */
    static final String MANIFEST_ATTRIBUTE = "RocketMQ-Patches";
    static final String BRIDGE_PREFIX = "rmqpatch$";

    private RocketMqClasses() {
    }

    static List<LoadedClass> describe() {
        List<LoadedClass> all = new ArrayList<>();
        for (String name : CLASSES) {
            all.add(describe(name));
        }
        return all;
    }

    static LoadedClass describe(String name) {
        LoadedClass c = new LoadedClass();
        c.name = name;
        Class<?> loaded;
        try {
            loaded = Class.forName(name, false, RocketMqClasses.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return c;
        }
        CodeSource source = loaded.getProtectionDomain() == null ? null : loaded.getProtectionDomain().getCodeSource();
        URL location = source == null ? null : source.getLocation();
        if (location != null) {
            c.jar = location.toString();
            c.jarPatches = patchesOf(location);
        }
        try {
            for (Method m : loaded.getDeclaredMethods()) {
                if (m.getName().startsWith(BRIDGE_PREFIX)) {
                    c.rmqpatchMethods++;
                }
            }
        } catch (LinkageError e) {
            c.rmqpatchMethods = -1;
        }
        return c;
    }

    private static String patchesOf(URL location) {
        if (!"file".equals(location.getProtocol()) || !location.getPath().endsWith(".jar")) {
            return null;
        }
        try (JarFile jar = new JarFile(Paths.get(location.toURI()).toFile())) {
            return jar.getManifest() == null ? null : jar.getManifest().getMainAttributes().getValue(MANIFEST_ATTRIBUTE);
        } catch (Exception e) {
            return null;
        }
    }

    /** One line per class, as the agent prints them at start. */
    static List<String> lines(List<LoadedClass> classes) {
        List<String> lines = new ArrayList<>();
        for (LoadedClass c : classes) {
            lines.add("RocketMQ class " + c.name + (c.jar == null ? ": not found" : " from " + c.jar + (c.jarPatches == null ? " (stock jar)"
                : " (jar patched: " + c.jarPatches + ")") + ", " + c.rmqpatchMethods + " rmqpatch$ method(s)"));
        }
        return lines;
    }
}
