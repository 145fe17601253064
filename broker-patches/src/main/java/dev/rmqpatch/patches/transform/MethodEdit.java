package dev.rmqpatch.patches.transform;

import java.io.IOException;
import java.util.List;

import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/** One change to one method of a stock class. Implementations check that the method looks as expected. */
public interface MethodEdit {

    /** The method this edit rewrites. */
    MethodRef target();

    /** Methods the rewritten code calls (codec hooks); the patcher checks they exist and are public static. */
    List<MethodRef> calls();

    /**
     * Rewrites {@code method} of {@code owner} in place (frames are expanded: every frame is F_NEW). With a switch,
     * the rewritten code reads it first and runs the stock code when the patch is turned off; without one (null) an
     * entry hook always applies, and the other shapes refuse. An edit may add private static bridge methods to {@code owner}.
     *
     * @throws PatchException when the method's code does not have the expected shape (for example a call-site
     *                        count other than the expected one), so a changed RocketMQ version fails the build
     */
    void apply(ClassNode owner, MethodNode method, Switch sw) throws PatchException, IOException;

    /** One line for PATCHES.md and the build log. */
    String describe();

    /** What runs instead, in a few words with simple class names ({@link MethodRef#shortName()}): README's patch table. */
    String brief();
}
