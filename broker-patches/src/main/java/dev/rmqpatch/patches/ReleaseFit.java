package dev.rmqpatch.patches;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * What a patch declares for one release ({@link Patch#on(Release)}): it applies there as written, or as its variant
 * for that release (other edits, and what differs), or it is not applied because the release already does what it
 * buys (upstream), or because it needs a variant for that release that is not written yet. All but the first carry the
 * reason, with how it was found (read, javap, or the witnesses' word).
 */
public final class ReleaseFit {

    /** The three declarations. */
    public enum Kind {
        APPLIES("applies"),
        VARIANT("applies as variant"),
        UPSTREAM("already upstream"),
        NEEDS_VARIANT("needs variant");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** As reports print it: "already upstream". */
        public String text() {
            return text;
        }
    }

    /** Applies as written. */
    public static final ReleaseFit APPLIES = new ReleaseFit(Kind.APPLIES, "", null);

    private final Kind kind;
    private final String reason;
    private final List<MethodEdit> edits;

    private ReleaseFit(Kind kind, String reason, List<MethodEdit> edits) {
        this.kind = kind;
        this.reason = reason;
        this.edits = edits;
    }

    /**
     * Applies there with these edits instead of {@link Patch#edits()}; {@code what} says how the variant differs and
     * why the release needs it. Same id, so the same switch ({@code -Drmqpatch.disable}) turns it off.
     */
    public static ReleaseFit variant(String what, List<MethodEdit> edits) {
        if (edits == null || edits.isEmpty()) {
            throw new IllegalArgumentException("a variant has edits of its own");
        }
        return new ReleaseFit(Kind.VARIANT, requireReason(what),
            Collections.unmodifiableList(new ArrayList<MethodEdit>(edits)));
    }

    /** The release already does what the patch buys: not applied there. */
    public static ReleaseFit upstream(String reason) {
        return new ReleaseFit(Kind.UPSTREAM, requireReason(reason), null);
    }

    /** The patch as written would be wrong or useless there and its variant is not written yet: not applied. */
    public static ReleaseFit needsVariant(String reason) {
        return new ReleaseFit(Kind.NEEDS_VARIANT, requireReason(reason), null);
    }

    private static String requireReason(String reason) {
        if (reason == null || reason.trim().isEmpty()) {
            throw new IllegalArgumentException("a patch left out of a release says why");
        }
        return reason;
    }

    public Kind kind() {
        return kind;
    }

    /** Applied there: as written, or as its variant. */
    public boolean applies() {
        return kind == Kind.APPLIES || kind == Kind.VARIANT;
    }

    /** The variant's edits; null unless {@link Kind#VARIANT}. */
    public List<MethodEdit> variantEdits() {
        return edits;
    }

    /** Why it is not applied, or how the variant differs; empty when it applies as written. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return kind == Kind.APPLIES ? kind.text() : kind.text() + ": " + reason;
    }
}
