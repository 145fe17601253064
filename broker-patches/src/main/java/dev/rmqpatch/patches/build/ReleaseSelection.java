package dev.rmqpatch.patches.build;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * Which patches go into a lib/ folder of a supported release, and why each other one does not: the patches'
 * declarations for the release ({@link Patch#on(Release)}) first, then the witnesses ({@link ReleasePlan}, run on
 * the declared-applicable patches together, as the patcher will apply them). A declared-applicable patch the witnesses
 * refuse is left out and reported as refused. The plan is also run on every patch as written, so each row carries
 * what the witnesses say of a patch declared upstream or in need of a variant: a second check of the declaration.
 */
public final class ReleaseSelection {

    /** What becomes of one patch. */
    public enum Outcome {
        APPLIED("applied"),
        UPSTREAM("already upstream"),
        NEEDS_VARIANT("needs variant"),
        REFUSED("refused by witness"),
        UNSUPPORTED("no declaration");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        /** As reports print it. */
        public String text() {
            return text;
        }
    }

    /** One patch's row. */
    public static final class Row {
        public final String id;
        public final String label;
        public final Outcome outcome;
        /**
         * Empty when applied as written; the variant's description when applied as a variant; the declaration's
         * reason, or the witness's for a refusal.
         */
        public final String reason;
        /** The witnesses' refusal kind ({@link ReleasePlan}'s kinds) when refused; null otherwise. */
        public final String witnessKind;
        /** What the witnesses say of the patch as written, every patch applied: the second check. */
        public final ReleasePlan.Outcome asWritten;

        Row(String id, String label, Outcome outcome, String reason, String witnessKind, ReleasePlan.Outcome asWritten) {
            this.id = id;
            this.label = label;
            this.outcome = outcome;
            this.reason = reason;
            this.witnessKind = witnessKind;
            this.asWritten = asWritten;
        }
    }

    private final ReleaseLib lib;
    private final Release release;
    private final List<Row> rows;
    private final List<Patch> applied;
    private final ReleasePlan.Outcome startup;

    private ReleaseSelection(ReleaseLib lib, Release release, List<Row> rows, List<Patch> applied,
                             ReleasePlan.Outcome startup) {
        this.lib = lib;
        this.release = release;
        this.rows = rows;
        this.applied = applied;
        this.startup = startup;
    }

    /** Decides, for {@code patches} in this order, what {@code lib}'s release gets. */
    public static ReleaseSelection of(ReleaseLib lib, List<Patch> patches, List<MethodEdit> startupEdits) throws IOException {
        ReleasePlan asWritten = ReleasePlan.of(lib, patches, startupEdits);
        Map<String, ReleasePlan.Outcome> written = byId(asWritten);
        Release release = Release.of(lib.release());
        List<Row> rows = new ArrayList<Row>();
        if (release == null) {
            for (Patch p : patches) {
                rows.add(new Row(p.id(), PatchTargets.label(p), Outcome.UNSUPPORTED, "RocketMQ " + lib.release()
                    + " is not a release the patches declare themselves for (" + Release.supported() + ")", null,
                    written.get(p.id())));
            }
            return new ReleaseSelection(lib, null, Collections.unmodifiableList(rows), Collections.<Patch>emptyList(),
                asWritten.startupReport());
        }
        List<Patch> declared = new ArrayList<Patch>();
        for (Patch p : patches) {
            if (p.on(release).applies()) {
                declared.add(ReleaseVariant.of(p, release));
            }
        }
        ReleasePlan plan = ReleasePlan.of(lib, declared, startupEdits);
        Map<String, ReleasePlan.Outcome> fits = byId(plan);
        List<Patch> applied = new ArrayList<Patch>();
        for (Patch p : patches) {
            ReleaseFit fit = p.on(release);
            ReleasePlan.Outcome w = written.get(p.id());
            if (!fit.applies()) {
                Outcome o = fit.kind() == ReleaseFit.Kind.UPSTREAM ? Outcome.UPSTREAM : Outcome.NEEDS_VARIANT;
                rows.add(new Row(p.id(), PatchTargets.label(p), o, fit.reason(), null, w));
            } else if (fits.get(p.id()).applies()) {
                applied.add(ReleaseVariant.of(p, release));
                rows.add(new Row(p.id(), PatchTargets.label(p), Outcome.APPLIED, fit.reason(), null, w));
            } else {
                ReleasePlan.Outcome f = fits.get(p.id());
                rows.add(new Row(p.id(), PatchTargets.label(p), Outcome.REFUSED, f.reason, f.kind, w));
            }
        }
        return new ReleaseSelection(lib, release, Collections.unmodifiableList(rows),
            Collections.unmodifiableList(applied), plan.startupReport());
    }

    private static Map<String, ReleasePlan.Outcome> byId(ReleasePlan plan) {
        Map<String, ReleasePlan.Outcome> m = new LinkedHashMap<String, ReleasePlan.Outcome>();
        for (ReleasePlan.Outcome o : plan.outcomes()) {
            m.put(o.id, o);
        }
        return m;
    }

    public ReleaseLib lib() {
        return lib;
    }

    /** The release, or null when the patches declare nothing for the folder's release. */
    public Release release() {
        return release;
    }

    public boolean supported() {
        return release != null;
    }

    /** One row per patch, in the patches' order. */
    public List<Row> rows() {
        return rows;
    }

    /**
     * The patches to apply, in the patches' order: declared applicable and passed by the witnesses; a patch applied
     * as its variant is its {@link ReleaseVariant}, whose edits are the variant's.
     */
    public List<Patch> applied() {
        return applied;
    }

    /** The start-up report's edits on the jars the applied patches land in. */
    public ReleasePlan.Outcome startupReport() {
        return startup;
    }

    /** How many rows have this outcome. */
    public int count(Outcome outcome) {
        int n = 0;
        for (Row r : rows) {
            n += r.outcome == outcome ? 1 : 0;
        }
        return n;
    }
}
