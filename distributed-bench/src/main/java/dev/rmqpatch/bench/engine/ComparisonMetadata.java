package dev.rmqpatch.bench.engine;

import dev.rmqpatch.bench.report.Metadata;
import dev.rmqpatch.bench.workload.Workload;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The metadata block of a comparison's results.json (both modes): what the figures depend on besides the code. */
public final class ComparisonMetadata {
    private ComparisonMetadata() {
    }

    /** Conf settings appended for a variant: its own (see {@link Variant#overrides}) and then every --set. */
    public static Map<String, String> overrides(Variant v, RunOptions o) {
        Map<String, String> all = new LinkedHashMap<>(v.overrides(Runtime.getRuntime().availableProcessors()));
        all.putAll(o.brokerSettings);
        return all;
    }

    /**
     * Fills {@code m}: command line, start time, then {@code modeSpecific} (rounds and order, or the efficiency
     * design), then workload, agents, brokers, topology, machine, JVM, and per variant its distribution, conf and jar
     * checksums.
     */
    public static void describe(RunOptions o, Map<String, Object> m, Map<String, Object> modeSpecific, List<String> agentJvmOptions) {
        m.put("command", o.commandLine);
        m.put("startedAt", Instant.now().toString());
        m.putAll(modeSpecific);
        m.put("workload", workloadView(o.workload));
        m.put("agents", o.agents);
        m.put("agentJvmOptions", agentJvmOptions);
        m.put("brokerHeap", o.brokerHeap);
        m.put("topology", o.topology.label());
        m.put("topologyDescription", o.topology.description());
        m.put("machine", Metadata.machine());
        m.put("coordinatorJvm", Metadata.coordinatorJvm());
        Map<String, Object> dists = new LinkedHashMap<>();
        for (Variant v : o.variants) {
            Map<String, Object> d = new LinkedHashMap<>();
            RemoteCluster remote = remote(o, v);
            if (remote == null) {
                d.put("distribution", v.dist(o.distDir).toString());
                d.put("conf", v.confName());
                d.put("confOverrides", overrides(v, o));
                d.put("jars", checksums(v.dist(o.distDir).resolve("lib")));
            } else {
                // Deployed by someone else (run-distributed.sh keeps each host's broker.conf in its results folder).
                d.put("distribution", v.distName());
                d.put("conf", v.confName());
                d.put("remote", remote.describe());
            }
            dists.put(v.name(), d);
        }
        m.put("variants", dists);
        String jar = System.getProperty("java.class.path").split(java.io.File.pathSeparator)[0];
        if (jar.endsWith(".jar")) {
            m.put("benchJar", Map.of("path", Path.of(jar).toAbsolutePath().toString(), "sha256", Metadata.sha256(Path.of(jar))));
        }
    }

    /** The variant's remote cluster (--remote), or null when the plan starts its brokers here. */
    public static RemoteCluster remote(RunOptions o, Variant v) {
        if (o.remote == null) {
            return null;
        }
        for (RemoteCluster c : o.remote) {
            if (c.variant().equals(v.name())) {
                return c;
            }
        }
        throw new IllegalStateException("no --remote for variant " + v.name());
    }

    /** Where a variant's broker command line goes once its first broker ran. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> variantEntry(Map<String, Object> metadata, String variant) {
        return (Map<String, Object>) ((Map<String, Object>) metadata.get("variants")).get(variant);
    }

    static Object workloadView(Workload w) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", w.name());
        v.put("topics", w.topics());
        v.put("partitionsPerTopic", w.partitionsPerTopic());
        v.put("messageSize", w.messageSize());
        v.put("producersPerTopic", w.producersPerTopic());
        v.put("producerRate", w.producerRate());
        v.put("warmupDurationSeconds", w.warmupDurationSeconds());
        v.put("testDurationSeconds", w.testDurationSeconds());
        v.put("threadsPerAgent", w.threadsPerAgent());
        v.put("sendMode", w.sendMode().label());
        v.put("subscriptionsPerTopic", w.subscriptionsPerTopic());
        v.put("consumerPerSubscription", w.consumerPerSubscription());
        v.put("consumerBacklogSizeGB", w.consumerBacklogSizeGB());
        v.put("client", w.client().label());
        if (w.messageTags() != null) {
            v.put("messageTags", w.messageTags());
        }
        if (w.messageKeys() != null) {
            v.put("messageKeys", w.messageKeys());
        }
        return v;
    }

    /** sha256 of the RocketMQ and rmqpatch jars (what differs between variants), and of all jars together. */
    static Map<String, String> checksums(Path lib) {
        Map<String, String> all = new TreeMap<>();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "*.jar")) {
            for (Path jar : jars) {
                all.put(jar.getFileName().toString(), Metadata.sha256(jar));
            }
        } catch (IOException e) {
            return Map.of("error", "cannot list " + lib + ": " + e.getMessage());
        }
        Map<String, String> shown = new TreeMap<>();
        StringBuilder combined = new StringBuilder();
        all.forEach((name, sha) -> {
            combined.append(name).append(' ').append(sha).append('\n');
            if (name.startsWith("rocketmq-") || name.startsWith("rmqpatch-")) {
                shown.put(name, sha);
            }
        });
        shown.put("all-lib-jars", sha256(combined.toString()));
        return shown;
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
