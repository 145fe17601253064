package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * Where the patches land, derived from their edits: the stock jar (by artifact name, "rocketmq-store") and class of
 * every target, and the labels the jars' manifests carry. The one place the tests, the docs and the patcher's own
 * check read per-jar and per-class patch lists from, so adding a patch means adding its class and nothing else.
 */
public final class PatchTargets {

    private static final String ROCKETMQ = "org/apache/rocketmq/";

    private PatchTargets() {
    }

    /** "P3 transient-properties": how manifests, records, logs and rmqpatch-info name a patch. */
    public static String label(Patch p) {
        return p.id() + " " + p.name();
    }

    /**
     * The RocketMQ artifact that holds a class, by its package: {@code org/apache/rocketmq/store/...} is in
     * rocketmq-store (true of every 4.9.0 jar a patch targets; the patcher checks it against the jar it finds).
     */
    public static String jarOf(String internalName) {
        int end = internalName.indexOf('/', ROCKETMQ.length());
        if (!internalName.startsWith(ROCKETMQ) || end < 0) {
            throw new IllegalArgumentException("not a RocketMQ class: " + internalName);
        }
        return "rocketmq-" + internalName.substring(ROCKETMQ.length(), end);
    }

    /** The artifacts a patch rewrites, in the order of its edits. */
    public static List<String> jars(Patch p) {
        Set<String> jars = new LinkedHashSet<String>();
        for (MethodEdit edit : p.edits()) {
            jars.add(jarOf(edit.target().owner));
        }
        return new ArrayList<String>(jars);
    }

    /** Artifact ("rocketmq-broker") to the labels of the patches applied in it, in patch order; sorted by artifact. */
    public static Map<String, List<String>> labelsByJar(List<Patch> patches) {
        Map<String, List<String>> byJar = new TreeMap<String, List<String>>();
        for (Patch p : patches) {
            for (String jar : jars(p)) {
                if (!byJar.containsKey(jar)) {
                    byJar.put(jar, new ArrayList<String>());
                }
                byJar.get(jar).add(label(p));
            }
        }
        return Collections.unmodifiableMap(byJar);
    }

    /** The ids of the patches that edit a class (internal name), in patch order. */
    public static List<String> idsEditing(List<Patch> patches, String internalName) {
        List<String> ids = new ArrayList<String>();
        for (Patch p : patches) {
            for (MethodEdit edit : p.edits()) {
                if (edit.target().owner.equals(internalName)) {
                    ids.add(p.id());
                    break;
                }
            }
        }
        return ids;
    }
}
