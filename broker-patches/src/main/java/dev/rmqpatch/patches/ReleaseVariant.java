package dev.rmqpatch.patches;

import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * A patch as it is applied on one release: the patch itself where it applies as written, or the patch with its
 * variant's edits ({@link ReleaseFit#variant}) where the release needs another edit. Everything else (id, switch,
 * documentation) is the patch's, so a variant is switched off and reported under the same id.
 */
public final class ReleaseVariant implements Patch {

    private final Patch patch;
    private final List<MethodEdit> edits;

    private ReleaseVariant(Patch patch, List<MethodEdit> edits) {
        this.patch = patch;
        this.edits = edits;
    }

    /**
     * {@code patch} as applied on {@code release}: itself, or its variant. A patch that does not apply there is an
     * error (the caller asks {@link Patch#on(Release)} first).
     */
    public static Patch of(Patch patch, Release release) {
        ReleaseFit fit = patch.on(release);
        switch (fit.kind()) {
            case APPLIES:
                return patch;
            case VARIANT:
                return new ReleaseVariant(patch, fit.variantEdits());
            default:
                throw new IllegalArgumentException(patch.id() + " is not applied on " + release.version() + ": " + fit);
        }
    }

    /** The patch this is a variant of. */
    public Patch patch() {
        return patch;
    }

    @Override
    public String id() {
        return patch.id();
    }

    @Override
    public String name() {
        return patch.name();
    }

    @Override
    public String effect() {
        return patch.effect();
    }

    @Override
    public String buys() {
        return patch.buys();
    }

    @Override
    public String why() {
        return patch.why();
    }

    @Override
    public String verification() {
        return patch.verification();
    }

    @Override
    public String tests() {
        return patch.tests();
    }

    @Override
    public String benchmark() {
        return patch.benchmark();
    }

    @Override
    public boolean onByDefault() {
        return patch.onByDefault();
    }

    @Override
    public String closes() {
        return patch.closes();
    }

    @Override
    public String fixedUpstream() {
        return patch.fixedUpstream();
    }

    @Override
    public ReleaseFit on(Release release) {
        return patch.on(release);
    }

    @Override
    public List<MethodEdit> edits() {
        return edits;
    }

    @Override
    public String toString() {
        return patch.id() + " (variant)";
    }
}
