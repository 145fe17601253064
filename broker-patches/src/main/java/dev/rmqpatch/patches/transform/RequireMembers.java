package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A check, not a change: the stock method still refers to the fields and methods that a codec method mirrors (for
 * a patch whose codec re-implements the method for other arguments and leaves the method itself as it is).
 */
public final class RequireMembers implements MethodEdit {

    private final MethodRef target;
    private final List<MethodRef> members;

    public RequireMembers(MethodRef target, List<MethodRef> members) {
        this.target = target;
        this.members = members;
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
    }

    @Override
    public String brief() {
        return "checked, unchanged";
    }

    @Override
    public String describe() {
        return target + " is checked to refer to " + members.size() + " member(s) the codec mirrors; unchanged";
    }
}
