package dev.rmqpatch.patches;

import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * One patch: what it changes in which stock method, why, and where it is tested and measured. Everything a
 * reader or operator needs about a patch lives in its class, written once: PATCHES.md, README's patch table and the
 * tests' per-jar patch lists ({@link PatchTargets}) are generated from these fields.
 */
public interface Patch {

    /** Short id, e.g. "P1". */
    String id();

    /** Name used in the jar manifest, e.g. "header-decode". */
    String name();

    /** What the broker does differently. */
    String effect();

    /** What it buys, in one short phrase for README's patch table ({@link #effect()} says it in full). */
    String buys();

    /**
     * Why it pays, with the measurement behind it. Documents are cited by their path from the repository root
     * ("docs/baseline.md"); a test checks that each exists.
     */
    String why();

    /** How an operator or a test can see that it works. */
    String verification();

    /**
     * The tests that would fail if the patch broke, by class name: broker-patches' own first, then, after "; ", a
     * module's name and a colon ("codec: ", "stall-agent: ") and that module's. The only list of them (class Javadoc says "see tests()"); a test checks that each exists.
     */
    String tests();

    /** The JMH benchmark (module jmh-benchmarks) that measures it, or how it is measured end to end. */
    String benchmark();

    /**
     * False for a patch that ships off: in the jars, but run only when {@code -Drmqpatch.enable} names it, because it
     * was measured to cost more than it buys where most operators run it ({@link #why()} says what). The codec's
     * {@code PatchSwitches.OFF_BY_DEFAULT} lists the same ids; a test checks that both agree.
     */
    default boolean onByDefault() {
        return true;
    }

    /** The CVEs a security patch closes ("CVE-2023-33246"), comma-separated; empty for performance patches. */
    default String closes() {
        return "";
    }

    /** The upstream RocketMQ versions (and pull requests) that fixed what a security patch closes; empty otherwise. */
    default String fixedUpstream() {
        return "";
    }

    /**
     * What this patch is on {@code release}: applied there, already upstream, or in need of a variant not written yet
     * (both not applied, with the reason and how it was found: docs/releases.md has the evidence). The patch-lib
     * command applies a patch only where this says it applies and the edits' witnesses agree ({@code ReleasePlan});
     * the witnesses are the second check, not the only one. Default: applies on every release of {@link Release}.
     */
    default ReleaseFit on(Release release) {
        return ReleaseFit.APPLIES;
    }

    /** The method edits, each naming its target class, method and descriptor. */
    List<MethodEdit> edits();
}
