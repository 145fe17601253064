package dev.rmqpatch.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a result depends on besides the code: machine, JVM, command line, file checksums. */
public final class Metadata {
    private Metadata() {
    }

    public static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hostname", hostname());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("cpus", Runtime.getRuntime().availableProcessors());
        m.put("cpuModel", procField("/proc/cpuinfo", "model name"));
        String mem = procField("/proc/meminfo", "MemTotal");
        m.put("memory", mem);
        m.put("loadAverageAtStart", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return m;
    }

    public static Map<String, Object> coordinatorJvm() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", System.getProperty("java.version"));
        m.put("vendor", System.getProperty("java.vendor"));
        m.put("vmName", System.getProperty("java.vm.name"));
        m.put("home", System.getProperty("java.home"));
        m.put("inputArguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return m;
    }

    public static String commandLine(String command, String[] args) {
        String launcher = System.getProperty("rmqpatch.launcher");
        launcher = launcher == null ? "java -jar distributed-bench.jar " + command : launcher;
        return launcher + (args.length == 0 ? "" : " " + String.join(" ", List.of(args)));
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String procField(String file, String key) {
        try {
            for (String line : Files.readAllLines(Path.of(file))) {
                if (line.startsWith(key)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[65536];
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
