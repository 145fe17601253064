package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A check, not a change: the stock method still refers to the fields and methods that a codec method mirrors (for
 * a patch whose codec re-implements the method for other arguments and leaves the method itself as it is), and, when
 * named, no longer refers to those of another version of the code (P2's 4.9.3+ variant: no {@code String.split}).
 */
public final class RequireMembers implements MethodEdit {

    private final MethodRef target;
    private final List<MethodRef> members;
    private final List<MethodRef> absent;

    public RequireMembers(MethodRef target, List<MethodRef> members) {
        this(target, members, Collections.<MethodRef>emptyList());
    }

    /** As {@link #RequireMembers(MethodRef, List)}, and {@code absent} must not be referred to. */
    public RequireMembers(MethodRef target, List<MethodRef> members, List<MethodRef> absent) {
        this.target = target;
        this.members = members;
        this.absent = absent;
    }

    @Override
    public MethodRef target() {
        return target;
    }

    @Override
    public List<MethodRef> calls() {
        return Collections.emptyList();
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        Switch.require(sw, this);
        Members.require(target, m, members);
        Members.forbid(target, m, absent);
    }

    @Override
    public String brief() {
        return "checked, unchanged";
    }

    @Override
    public String describe() {
        return target + " is checked to refer to " + members.size() + " member(s) the codec mirrors"
            + (absent.isEmpty() ? "" : " and to none of " + absent.size() + " other(s)") + "; unchanged";
    }
}
