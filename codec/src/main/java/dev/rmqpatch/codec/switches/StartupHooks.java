package dev.rmqpatch.codec.switches;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Manifest;

import dev.rmqpatch.codec.security.AutoTypeGuard;
import dev.rmqpatch.codec.security.BindAddress;
import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;

/**
 * Called at the start of the patched name server and broker: a bad {@value PatchSwitches#SYSTEM_PROPERTY} stops
 * start-up with a clear message, and the log says which patches the jars carry and which of them run.
 */
public final class StartupHooks {

    private StartupHooks() {
    }

    /**
     * Entry of {@code BrokerStartup.createBrokerController(String[])}: a bad -Drmqpatch.disable or -Drmqpatch.enable, or (S4 on) a
     * -Drmqpatch.bindAddress that is not this host's, stops start-up here; null lets stock start-up go on.
     */
    public static Object brokerStarting(String[] args) {
        PatchSwitches.parseEnabled(System.getProperty(PatchSwitches.ENABLE_PROPERTY));
        if (!PatchSwitches.parse(System.getProperty(PatchSwitches.SYSTEM_PROPERTY)).contains("S4")) {
            BindAddress.check();
        }
        return null;
    }

    /** Entry of {@code NamesrvStartup.createNamesrvController(String[])}; null lets stock start-up go on. */
    public static Object namesrvStarting(String[] args) {
        return brokerStarting(args);
    }

    /** Entry of {@code BrokerController.start()}, once logging is configured; false lets the stock method run. */
    public static boolean brokerStarted(Object controller) {
        report(InternalLoggerFactory.getLogger(LoggerName.BROKER_LOGGER_NAME));
        return false;
    }

    /** Entry of {@code NamesrvController.start()}; false lets the stock method run. */
    public static boolean namesrvStarted(Object controller) {
        report(InternalLoggerFactory.getLogger(LoggerName.NAMESRV_LOGGER_NAME));
        return false;
    }

    static void report(InternalLogger log) {
        Set<String> built = new TreeSet<String>(builtInPatches(StartupHooks.class.getClassLoader()));
        List<String> active = new ArrayList<String>();
        List<String> ids = new ArrayList<String>();
        for (String label : built) {
            String id = label.split(" ", 2)[0];
            ids.add(id);
            if (!PatchSwitches.off().contains(id)) {
                active.add(id);
            }
        }
        List<String> shippedOff = shippedOff(ids);
        log.info("rmqpatch: patches in the jars: {}; active: {}; disabled by -D{}: {}; off by default (-D{} turns on): {}",
            built, active, PatchSwitches.SYSTEM_PROPERTY, PatchSwitches.disabled().isEmpty() ? "none" : PatchSwitches.disabled(),
            PatchSwitches.ENABLE_PROPERTY, shippedOff.isEmpty() ? "none" : shippedOff);
        if (built.toString().contains("S5 ")) {
            log.info("rmqpatch: fastjson safe mode (S5): {}", AutoTypeGuard.safeModeOn()
                ? "on, every @type refused" : "OFF, fastjson autoType is reachable from the network");
        }
        for (String id : PatchSwitches.disabled()) {
            if (id.startsWith("S")) {
                log.warn("rmqpatch: security patch {} is disabled by -D{}; the hole it closes is open again (see PATCHES.md)",
                    id, PatchSwitches.SYSTEM_PROPERTY);
            }
        }
    }

    /**
     * The patches in the jars that ship off and are not turned on: a patch a release's lib/ was not given (patch-lib
     * leaves P14 out of 4.9.3+, where it is upstream) is not offered to -Drmqpatch.enable.
     */
    static List<String> shippedOff(List<String> builtIds) {
        List<String> shippedOff = new ArrayList<String>(PatchSwitches.OFF_BY_DEFAULT);
        shippedOff.retainAll(builtIds);
        shippedOff.removeAll(PatchSwitches.enabled());
        shippedOff.removeAll(PatchSwitches.disabled());
        return shippedOff;
    }

    /** Patch labels ("P1 header-decode") from the manifests of every jar the loader sees. */
    static Set<String> builtInPatches(ClassLoader loader) {
        Set<String> labels = new LinkedHashSet<String>();
        try {
            Enumeration<URL> manifests = loader.getResources("META-INF/MANIFEST.MF");
            while (manifests.hasMoreElements()) {
                InputStream in = manifests.nextElement().openStream();
                try {
                    String list = new Manifest(in).getMainAttributes().getValue(PatchSwitches.MANIFEST_ATTRIBUTE);
                    if (list != null) {
                        for (String label : list.split(",")) {
                            labels.add(label.trim());
                        }
                    }
                } finally {
                    in.close();
                }
            }
        } catch (IOException e) {
            labels.add("(manifests unreadable: " + e + ")");
        }
        return labels;
    }
}
