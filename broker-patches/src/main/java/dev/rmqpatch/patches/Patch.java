package dev.rmqpatch.patches;

import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * One patch: what it changes in which stock method, why, and where it is tested and measured. Everything a
 * reader or operator needs about a patch lives in its class; PATCHES.md is generated from these fields.
 */
public interface Patch {

    /** Short id, e.g. "P1". */
    String id();

    /** Name used in the jar manifest, e.g. "header-decode". */
    String name();

    /** What the broker does differently. */
    String effect();

    /** Why it pays, with the measurement behind it. */
    String why();

    /** How an operator or a test can see that it works. */
    String verification();

    /** The tests that would fail if the patch broke, by class name. */
    String tests();

    /** The JMH benchmark (module jmh-benchmarks) that measures it. */
    String benchmark();

    /** The CVEs a security patch closes ("CVE-2023-33246"), comma-separated; empty for performance patches. */
    default String closes() {
        return "";
    }

    /** The upstream RocketMQ versions (and pull requests) that fixed what a security patch closes; empty otherwise. */
    default String fixedUpstream() {
        return "";
    }

    /** The method edits, each naming its target class, method and descriptor. */
    List<MethodEdit> edits();
}
