package dev.rmqpatch.patches.build;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.transform.ClassBytes;
import dev.rmqpatch.patches.transform.ClassPool;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.ReplaceCall;
import dev.rmqpatch.patches.transform.RequireMembers;
import dev.rmqpatch.patches.transform.Switch;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A dry run of the patches, as written for 4.9.0, against another release's lib/ ({@link ReleaseLib}): every edit
 * of every patch applied in memory, in the patcher's order, to that release's class files, with the same checks
 * {@link JarPatcher} makes (target class and method exist, the codec methods an edit calls exist and are public
 * static, the target class is in the jar {@link PatchTargets#jarOf} names, a method an edit calls is added by the
 * patch) and each edit's own witnesses (call-site counts, {@code RequireMembers}, shapes). Nothing is written.
 *
 * <p>As the agent's plan does, a patch that does not fit is dropped whole and the run starts again without it, so a
 * patch is judged on classes no refused patch has half-edited; a refused patch is also tried alone on the stock
 * classes, so a refusal caused only by an earlier patch's edit of the same method is told apart. Two checks are the
 * plan's own: the header codecs of P1/P4 and P10/P11 must name every field of the release's header classes
 * ({@link HeaderMirrors}), and every RocketMQ member the codec code a patch calls can reach must exist in the release
 * ({@link CodecLinks}). "Applies" means the edits fit the release's code as these witnesses see it, not that the codec is
 * right for that release (docs/releases.md lists what they cannot see).
 */
public final class ReleasePlan {

    /** What happened to one patch. */
    public static final class Outcome {
        public final String id;
        public final String label;
        /** Null when it applies as written. */
        public final String kind;
        public final String reason;
        /** For a refused patch: whether its edits fit the classes when it is the only patch applied. */
        public final boolean appliesAlone;

        Outcome(String id, String label, String kind, String reason, boolean appliesAlone) {
            this.id = id;
            this.label = label;
            this.kind = kind;
            this.reason = reason;
            this.appliesAlone = appliesAlone;
        }

        public boolean applies() {
            return kind == null;
        }
    }

    /** Kinds of refusal, as reported. */
    public static final String CLASS_MISSING = "class missing";
    public static final String METHOD_MISSING = "target method missing";
    public static final String DESCRIPTOR_CHANGED = "descriptor changed";
    public static final String WITNESS_COUNT = "witness count differs";
    public static final String MIRRORED_MEMBER = "a member the codec mirrors changed";
    public static final String SHAPE = "code shape differs";
    public static final String JAR_MOVED = "class in another jar";
    public static final String CODEC = "codec method missing";
    public static final String CODEC_LINK = "the codec reaches what the release lacks";

    private final ReleaseLib lib;
    private final List<Outcome> outcomes;
    private final Outcome startup;

    private ReleasePlan(ReleaseLib lib, List<Outcome> outcomes, Outcome startup) {
        this.lib = lib;
        this.outcomes = outcomes;
        this.startup = startup;
    }

    /** The release read from the folder. */
    public ReleaseLib lib() {
        return lib;
    }

    /** One outcome per patch, in the patches' order. */
    public List<Outcome> outcomes() {
        return outcomes;
    }

    /** The start-up report's edits on the jars the applying patches land in. */
    public Outcome startupReport() {
        return startup;
    }

    public int applying() {
        int n = 0;
        for (Outcome o : outcomes) {
            n += o.applies() ? 1 : 0;
        }
        return n;
    }

    /** A patch's edit that did not fit. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final transient Patch patch;
        final String kind;

        Refused(Patch patch, String kind, String message) {
            super(message);
            this.patch = patch;
            this.kind = kind;
        }
    }

    /** Runs {@code patches} (in this order) and then {@code startup}'s edits against the folder's classes. */
    public static ReleasePlan of(ReleaseLib lib, List<Patch> patches, List<MethodEdit> startupEdits) throws IOException {
        ClassPool pool = new ClassPool(lib.jars());
        try {
            List<Patch> kept = new ArrayList<Patch>(patches);
            Map<String, Refused> refused = new LinkedHashMap<String, Refused>();
            Map<String, String> mirrors = HeaderMirrors.check(pool);
            for (Patch p : patches) {
                for (MethodRef call : calls(p)) {
                    String why = mirrors.get(call.owner + "." + call.name);
                    if (why != null) {
                        kept.remove(p);
                        refused.put(p.id(), new Refused(p, MIRRORED_MEMBER, why));
                        break;
                    }
                }
            }
            CodecLinks links = CodecLinks.of(pool, lib.jars());
            Map<String, ClassNode> nodes;
            while (true) {
                nodes = new LinkedHashMap<String, ClassNode>();
                try {
                    applyAll(pool, nodes, kept);
                } catch (Refused r) {
                    kept.remove(r.patch);
                    refused.put(r.patch.id(), r);
                    continue;
                }
                // The edits fit: the codec code each patch calls must link against the release too.
                boolean dropped = false;
                for (Patch p : new ArrayList<Patch>(kept)) {
                    String missing = links.missing(calls(p));
                    if (missing != null) {
                        kept.remove(p);
                        refused.put(p.id(), new Refused(p, CODEC_LINK, LINK + missing));
                        dropped = true;
                    }
                }
                if (!dropped) {
                    break;
                }
            }
            for (Refused r : new ArrayList<Refused>(refused.values())) {
                String missing = r.kind.equals(CODEC_LINK) ? null : links.missing(calls(r.patch));
                if (missing != null) {
                    refused.put(r.patch.id(), new Refused(r.patch, r.kind, r.getMessage() + "; and " + LINK + missing));
                }
            }
            List<Outcome> outcomes = new ArrayList<Outcome>();
            for (Patch p : patches) {
                Refused r = refused.get(p.id());
                if (r == null) {
                    outcomes.add(new Outcome(p.id(), PatchTargets.label(p), null, "applies as written", true));
                } else {
                    boolean alone;
                    try {
                        applyAll(pool, new LinkedHashMap<String, ClassNode>(), Collections.singletonList(p));
                        alone = true;
                    } catch (Refused again) {
                        alone = false;
                    }
                    outcomes.add(new Outcome(p.id(), PatchTargets.label(p), r.kind, r.getMessage(), alone));
                }
            }
            Set<String> artifacts = new LinkedHashSet<String>();
            for (Patch p : kept) {
                artifacts.addAll(PatchTargets.jars(p));
            }
            Outcome startup = new Outcome("start-up", "start-up report", null, "applies as written", true);
            for (MethodEdit edit : startupEdits) {
                if (!artifacts.contains(PatchTargets.jarOf(edit.target().owner))) {
                    continue;
                }
                try {
                    applyEdit(pool, nodes, null, edit, null);
                } catch (Refused r) {
                    startup = new Outcome("start-up", "start-up report", r.kind, r.getMessage(), false);
                    break;
                }
            }
            return new ReleasePlan(lib, Collections.unmodifiableList(outcomes), startup);
        } finally {
            pool.close();
        }
    }

    private static final String LINK = "the codec code the patch calls would fail to link: ";

    private static List<MethodRef> calls(Patch p) {
        List<MethodRef> calls = new ArrayList<MethodRef>();
        for (MethodEdit e : p.edits()) {
            calls.addAll(e.calls());
        }
        return calls;
    }

    private static void applyAll(ClassPool pool, Map<String, ClassNode> nodes, List<Patch> patches)
        throws Refused, IOException {
        for (Patch p : patches) {
            Switch sw = Switch.of(p.id());
            for (MethodEdit edit : p.edits()) {
                applyEdit(pool, nodes, p, edit, sw);
            }
            for (MethodEdit edit : p.edits()) {
                MethodRef added = edit instanceof ReplaceCall ? ((ReplaceCall) edit).addedMethod() : null;
                if (added != null && !ClassBytes.hasMethod(nodes.get(added.owner), added)) {
                    throw new Refused(p, SHAPE, edit.describe() + ", but no edit of the patch added " + added);
                }
            }
        }
    }

    private static void applyEdit(ClassPool pool, Map<String, ClassNode> nodes, Patch p, MethodEdit edit, Switch sw)
        throws Refused, IOException {
        for (MethodRef call : edit.calls()) {
            String missing = missingCodecMethod(pool, call);
            if (missing != null) {
                throw new Refused(p, CODEC, missing);
            }
        }
        MethodRef target = edit.target();
        ClassNode stock = pool.classNode(target.owner);
        if (stock == null) {
            throw new Refused(p, CLASS_MISSING, "class " + target.owner.replace('/', '.') + " is not in the lib/ ("
                + PatchTargets.jarOf(target.owner) + ")");
        }
        String jar = pool.jarOf(target.owner).getName();
        if (!jar.startsWith(PatchTargets.jarOf(target.owner) + "-")) {
            throw new Refused(p, JAR_MOVED, target.owner.replace('/', '.') + " is in " + jar + ", not in "
                + PatchTargets.jarOf(target.owner));
        }
        if (!ClassBytes.hasMethod(stock, target)) {
            List<String> sameName = new ArrayList<String>();
            for (MethodNode m : stock.methods) {
                if (m.name.equals(target.name)) {
                    sameName.add(m.desc);
                }
            }
            if (sameName.isEmpty()) {
                throw new Refused(p, METHOD_MISSING, "no method " + target.name + " in " + target.owner.replace('/', '.')
                    + " (the patch expects " + target.name + target.desc + ")");
            }
            throw new Refused(p, DESCRIPTOR_CHANGED, target.owner.replace('/', '.') + "." + target.name + " is "
                + sameName + ", the patch expects " + target.desc);
        }
        ClassNode cls = nodes.get(target.owner);
        if (cls == null) {
            cls = stock;
            nodes.put(target.owner, cls);
        }
        try {
            edit.apply(cls, ClassBytes.method(cls, target), sw);
        } catch (PatchException e) {
            throw new Refused(p, kindOf(edit, e.getMessage()), e.getMessage());
        } catch (RuntimeException e) {
            // An edit that trips over an unexpected shape (a cast, an index) does not fit either.
            throw new Refused(p, SHAPE, edit.describe() + ": " + e);
        }
    }

    private static String kindOf(MethodEdit edit, String message) {
        if (edit instanceof RequireMembers || message.contains("the code the patch mirrors has changed")) {
            return MIRRORED_MEMBER;
        }
        if (message.startsWith("expected ")) {
            return WITNESS_COUNT;
        }
        if (message.contains(" has no field ") || message.contains(" has no static field ")) {
            return MIRRORED_MEMBER;
        }
        return SHAPE;
    }

    /**
     * Null when {@code call} exists and is public static: in the lib/ for a RocketMQ method, else in the codec classes
     * this tool runs with (the same codec for every release).
     */
    private static String missingCodecMethod(ClassPool pool, MethodRef call) throws IOException {
        ClassNode owner = pool.classNode(call.owner);
        if (owner == null) {
            InputStream in = ReleasePlan.class.getClassLoader().getResourceAsStream(call.owner + ".class");
            if (in == null) {
                return "class " + call.owner.replace('/', '.') + " is neither in the lib/ nor in the codec";
            }
            owner = ClassBytes.read(ClassBytes.readFully(in));
        }
        for (MethodNode m : owner.methods) {
            if (m.name.equals(call.name) && m.desc.equals(call.desc)) {
                int ps = Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC;
                return (m.access & ps) == ps ? null : call + " is not public static";
            }
        }
        return "no method " + call;
    }
}
