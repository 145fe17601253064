package dev.rmqpatch.patches;

/**
 * What a patch declares for one release ({@link Patch#on(Release)}): it applies there, or it is not applied because
 * the release already does what it buys (upstream), or because it needs a variant for that release that is not
 * written yet. The last two carry the reason, with how it was found (read, javap, or the witnesses' word).
 */
public final class ReleaseFit {

    /** The three declarations. */
    public enum Kind {
        APPLIES("applies"),
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
    public static final ReleaseFit APPLIES = new ReleaseFit(Kind.APPLIES, "");

    private final Kind kind;
    private final String reason;

    private ReleaseFit(Kind kind, String reason) {
        this.kind = kind;
        this.reason = reason;
    }

    /** The release already does what the patch buys: not applied there. */
    public static ReleaseFit upstream(String reason) {
        return new ReleaseFit(Kind.UPSTREAM, requireReason(reason));
    }

    /** The patch as written would be wrong or useless there and its variant is not written yet: not applied. */
    public static ReleaseFit needsVariant(String reason) {
        return new ReleaseFit(Kind.NEEDS_VARIANT, requireReason(reason));
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

    public boolean applies() {
        return kind == Kind.APPLIES;
    }

    /** Why it is not applied; empty when it applies. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return applies() ? kind.text() : kind.text() + ": " + reason;
    }
}
