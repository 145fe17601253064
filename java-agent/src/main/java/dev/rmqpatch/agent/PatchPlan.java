package dev.rmqpatch.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.transform.ClassBytes;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MqVersionFile;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.Switch;
import org.objectweb.asm.tree.ClassNode;

/**
 * What the agent does to the RocketMQ classes of one class loader, decided once, from their class files, before the
 * first of them is defined: the same patches, edits and order as the build-time patcher (broker-patches' JarPatcher:
 * every patch the release declares ({@link Patch#on(Release)}; on 4.9.0 all of {@link Patches#all()}, elsewhere as
 * written or as its variant) behind its switch, then {@link StartupReport}'s edits on the artifacts a patch lands in;
 * frames kept, max stack and locals recomputed), so a class comes out byte for byte as in the patched jars, or as in
 * patch-lib's lib/ of that release.
 *
 * <p>Refused as a whole (nothing patched) when the RocketMQ version the loader sees is not a release the patches
 * declare themselves for ({@link Release}; read from {@code MQVersion}'s own class file by {@link MqVersionFile}), when
 * it cannot be told, or when the classes are rmqpatch's rewritten ones already. A patch whose target class does not look as the patch expects (its edit throws
 * {@link PatchException}) is dropped whole, in every class it edits, and the plan is made again without it: no class
 * is ever half-patched and no patch half-applied. A target class the loader cannot see (the broker's classes in a client JVM) is simply not there
 * to patch; the patch's other classes are patched, as its rewritten jars would be.
 */
public final class PatchPlan {

    static final String MQ_VERSION = MqVersionFile.MQ_VERSION;
    private static final byte[] CODEC_PACKAGE = "dev/rmqpatch/codec/".getBytes(StandardCharsets.UTF_8);

    /** Where the class files come from: the defining loader's resources, or jars in a test. */
    public interface ClassFiles {
        /** The class file of a class (internal name), or null when there is none. */
        byte[] read(String internalName) throws IOException;
    }

    private final String version;
    private final String refusal;
    private final Map<String, byte[]> stock;
    private final Map<String, byte[]> patched;
    private final List<Patch> applied;
    private final Map<String, String> dropped;
    private final Map<String, String> notForRelease;

    private PatchPlan(String version, String refusal, Map<String, byte[]> stock, Map<String, byte[]> patched,
                      List<Patch> applied, Map<String, String> dropped, Map<String, String> notForRelease) {
        this.version = version;
        this.refusal = refusal;
        this.stock = stock;
        this.patched = patched;
        this.applied = applied;
        this.dropped = dropped;
        this.notForRelease = notForRelease;
    }

    /** Internal names of every class a patch (as written or as any release's variant) or the start-up report edits. */
    public static Set<String> targetClasses() {
        Set<String> names = new LinkedHashSet<String>();
        for (Patch p : Patches.all()) {
            for (MethodEdit e : p.edits()) {
                names.add(e.target().owner);
            }
            for (Release r : Release.values()) {
                if (p.on(r).kind() == ReleaseFit.Kind.VARIANT) {
                    for (MethodEdit e : p.on(r).variantEdits()) {
                        names.add(e.target().owner);
                    }
                }
            }
        }
        for (MethodEdit e : StartupReport.edits()) {
            names.add(e.target().owner);
        }
        return Collections.unmodifiableSet(names);
    }

    /** Decides for the classes {@code files} gives; never throws for what the classes are, only for failing I/O. */
    public static PatchPlan of(ClassFiles files) throws IOException {
        String version = MqVersionFile.versionOf(files.read(MQ_VERSION));
        if (version == null) {
            return refused(null, "cannot tell the RocketMQ version (no " + MQ_VERSION.replace('/', '.')
                + " with a CURRENT_VERSION it names)");
        }
        Release release = Release.ofMqVersion(version);
        if (release == null) {
            return refused(version, "RocketMQ " + version + " is not a release the patches declare themselves for ("
                + Release.supported() + ")");
        }
        Map<String, byte[]> stock = new LinkedHashMap<String, byte[]>();
        for (String name : targetClasses()) {
            byte[] b = files.read(name);
            if (b == null) {
                continue;
            }
            if (contains(b, CODEC_PACKAGE)) {
                return refused(version, name.replace('/', '.') + " already calls rmqpatch's codec (rmqpatch's"
                    + " rewritten jars are in use; use the jars or the agent, not both)");
            }
            stock.put(name, b);
        }
        List<Patch> kept = new ArrayList<Patch>();
        Map<String, String> notForRelease = new LinkedHashMap<String, String>();
        for (Patch p : Patches.all()) {
            ReleaseFit fit = p.on(release);
            if (fit.applies()) {
                kept.add(ReleaseVariant.of(p, release));
            } else {
                notForRelease.put(PatchTargets.label(p), fit.toString());
            }
        }
        Map<String, String> dropped = new LinkedHashMap<String, String>();
        while (true) {
            try {
                Map<String, byte[]> out = apply(stock, kept);
                return new PatchPlan(version, null, stock, out, Collections.unmodifiableList(kept),
                    Collections.unmodifiableMap(dropped), Collections.unmodifiableMap(notForRelease));
            } catch (Dropped d) {
                if (d.patch == null) {
                    return refused(version, "the start-up report cannot be added: " + d.getMessage());
                }
                kept.remove(d.patch);
                dropped.put(PatchTargets.label(d.patch), d.getMessage());
            }
        }
    }

    private static PatchPlan refused(String version, String why) {
        Map<String, byte[]> none = Collections.emptyMap();
        return new PatchPlan(version, why, none, none, Collections.<Patch>emptyList(),
            Collections.<String, String>emptyMap(), Collections.<String, String>emptyMap());
    }

    /** A patch (null: the start-up report) whose edit did not fit its class. */
    private static final class Dropped extends Exception {
        private static final long serialVersionUID = 1L;
        final transient Patch patch;

        Dropped(Patch patch, String message) {
            super(message);
            this.patch = patch;
        }
    }

    /** JarPatcher's order: each patch's edits on the classes present, then the report on the patched artifacts. */
    private static Map<String, byte[]> apply(Map<String, byte[]> stock, List<Patch> patches) throws Dropped {
        Map<String, ClassNode> nodes = new LinkedHashMap<String, ClassNode>();
        Set<String> artifacts = new LinkedHashSet<String>();
        for (Patch p : patches) {
            Switch sw = Switch.of(p.id());
            for (MethodEdit edit : p.edits()) {
                String owner = edit.target().owner;
                if (!stock.containsKey(owner)) {
                    continue;
                }
                try {
                    edit.apply(node(nodes, stock, owner), ClassBytes.method(nodes.get(owner), edit.target()), sw);
                } catch (PatchException e) {
                    throw new Dropped(p, owner.replace('/', '.') + ": " + e.getMessage());
                } catch (IOException e) {
                    throw new Dropped(p, owner.replace('/', '.') + ": " + e);
                } catch (RuntimeException e) {
                    // An edit that trips over an unexpected shape (a cast, an index) is a mismatch too.
                    throw new Dropped(p, owner.replace('/', '.') + ": " + e);
                }
                artifacts.add(PatchTargets.jarOf(owner));
            }
        }
        for (MethodEdit edit : StartupReport.edits()) {
            String owner = edit.target().owner;
            if (stock.containsKey(owner) && artifacts.contains(PatchTargets.jarOf(owner))) {
                try {
                    edit.apply(node(nodes, stock, owner), ClassBytes.method(nodes.get(owner), edit.target()), null);
                } catch (PatchException e) {
                    throw new Dropped(null, owner.replace('/', '.') + ": " + e.getMessage());
                } catch (IOException e) {
                    throw new Dropped(null, owner.replace('/', '.') + ": " + e);
                } catch (RuntimeException e) {
                    throw new Dropped(null, owner.replace('/', '.') + ": " + e);
                }
            }
        }
        Map<String, byte[]> out = new LinkedHashMap<String, byte[]>();
        for (Map.Entry<String, ClassNode> e : nodes.entrySet()) {
            out.put(e.getKey(), ClassBytes.write(e.getValue()));
        }
        return out;
    }

    private static ClassNode node(Map<String, ClassNode> nodes, Map<String, byte[]> stock, String owner) {
        ClassNode node = nodes.get(owner);
        if (node == null) {
            node = ClassBytes.read(stock.get(owner));
            nodes.put(owner, node);
        }
        return node;
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The version MQVersion names ("V4_9_0"), or null when it could not be told. */
    public String version() {
        return version;
    }

    /** Why nothing is patched, or null when the plan patches. */
    public String refusal() {
        return refusal;
    }

    /** Internal name to patched class file, for every class the plan rewrites. */
    public Map<String, byte[]> patched() {
        return Collections.unmodifiableMap(patched);
    }

    /** Internal name to the class file the plan was made from (the ones the loader will define, unless changed). */
    public Map<String, byte[]> stock() {
        return Collections.unmodifiableMap(stock);
    }

    /** The patches applied (to the classes present), in build order. */
    public List<Patch> applied() {
        return applied;
    }

    /** Label ("P1 header-decode") to why it was dropped, for patches whose classes did not match. */
    public Map<String, String> dropped() {
        return dropped;
    }

    /**
     * Label to what the release's declaration says ("already upstream: ...", "needs variant: ..."), for the patches
     * not applied on this release by declaration; empty on 4.9.0.
     */
    public Map<String, String> notForRelease() {
        return notForRelease;
    }

    /** The labels of the applied patches that edit a class present, as a rewritten jar's manifest lists them. */
    public List<String> appliedLabels() {
        List<String> labels = new ArrayList<String>();
        for (Patch p : applied) {
            for (MethodEdit e : p.edits()) {
                if (stock.containsKey(e.target().owner)) {
                    labels.add(PatchTargets.label(p));
                    break;
                }
            }
        }
        return labels;
    }
}
