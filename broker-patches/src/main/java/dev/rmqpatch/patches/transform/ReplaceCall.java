package dev.rmqpatch.patches.transform;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Shape "call-site substitution": inside one method, calls of a static method become calls of a static
 * replacement with the same descriptor (through a bridge method that calls the stock method while the patch is
 * switched off). The number of call sites is part of the patch; any other count fails
 * the build, because a silent zero means the patch does nothing and an extra site means the code has changed.
 */
public final class ReplaceCall implements MethodEdit {

    private final MethodRef inMethod;
    private final MethodRef call;
    private final MethodRef replacement;
    private final int expectedSites;

    public ReplaceCall(MethodRef inMethod, MethodRef call, MethodRef replacement, int expectedSites) {
        this.inMethod = inMethod;
        this.call = call;
        this.replacement = replacement;
        this.expectedSites = expectedSites;
    }

    @Override
    public MethodRef target() {
        return inMethod;
    }

    @Override
    public List<MethodRef> calls() {
        return Collections.singletonList(replacement);
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        if (!call.desc.equals(replacement.desc)) {
            throw new PatchException("replacement " + replacement + " must have the descriptor of " + call);
        }
        List<MethodInsnNode> sites = callSites(m, call);
        if (sites.size() != expectedSites) {
            throw new PatchException("expected " + expectedSites + " call(s) of " + call + " in " + inMethod
                + ", found " + sites.size());
        }
        MethodInsnNode newCall;
        if (sw == null) {
            newCall = new MethodInsnNode(Opcodes.INVOKESTATIC, replacement.owner, replacement.name, replacement.desc, false);
        } else {
            InsnList patched = Bridge.loadArgs(call.desc);
            patched.add(new MethodInsnNode(Opcodes.INVOKESTATIC, replacement.owner, replacement.name, replacement.desc, false));
            InsnList stock = Bridge.loadArgs(call.desc);
            stock.add(new MethodInsnNode(Opcodes.INVOKESTATIC, call.owner, call.name, call.desc, false));
            newCall = Bridge.add(owner, "rmqpatch$" + sw.field + "$" + call.name, call.desc, sw, patched, stock);
        }
        for (MethodInsnNode site : sites) {
            m.instructions.set(site, (MethodInsnNode) newCall.clone(null));
        }
    }

    /** Static call sites of {@code call} in {@code m}, in code order. */
    public static List<MethodInsnNode> callSites(MethodNode m, MethodRef call) {
        List<MethodInsnNode> sites = new ArrayList<MethodInsnNode>();
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() == Opcodes.INVOKESTATIC) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                if (call.matches(mi.owner, mi.name, mi.desc)) {
                    sites.add(mi);
                }
            }
        }
        return sites;
    }

    @Override
    public String describe() {
        return expectedSites + " call(s) of " + call + " in " + inMethod + " call " + replacement;
    }
}
