package dev.rmqpatch.patches;

import java.io.IOException;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.ReplaceCall;
import dev.rmqpatch.patches.transform.Switch;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * An instance-call substitution ({@link ReplaceCall#ofInstanceCall}) for a replacement that may return a different
 * value than the call it replaces: it refuses the method unless every site discards the call's long result (the
 * next instruction is POP2), so no stock code can read what the replacement returns.
 */
final class DiscardedResultCall implements MethodEdit {

    private final MethodRef call;
    private final ReplaceCall replace;

    DiscardedResultCall(MethodRef inMethod, MethodRef call, MethodRef replacement, int expectedSites) {
        if (!call.desc.endsWith(")J")) {
            throw new IllegalArgumentException("only calls returning long are checked for POP2: " + call);
        }
        this.call = call;
        this.replace = ReplaceCall.ofInstanceCall(inMethod, call, Opcodes.INVOKEVIRTUAL, replacement, expectedSites);
    }

    @Override
    public MethodRef target() {
        return replace.target();
    }

    @Override
    public List<MethodRef> calls() {
        return replace.calls();
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException, IOException {
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() == Opcodes.INVOKEVIRTUAL) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                if (call.matches(mi.owner, mi.name, mi.desc)) {
                    AbstractInsnNode next = mi.getNext();
                    while (next != null && next.getOpcode() < 0) {
                        next = next.getNext();
                    }
                    if (next == null || next.getOpcode() != Opcodes.POP2) {
                        throw new PatchException("a call of " + call + " in " + target() + " uses its result: "
                            + "the replacement's return value is not stock's");
                    }
                }
            }
        }
        replace.apply(owner, m, sw);
    }

    @Override
    public String describe() {
        return replace.describe() + " (every result discarded)";
    }

    @Override
    public String brief() {
        return replace.brief();
    }
}
