package dev.rmqpatch.patches.transform;

import java.util.List;

import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The fields and methods a stock method's code refers to: where a codec method mirrors a stock method's logic, the
 * patch names what that logic reads and calls, and the build fails when the stock method no longer refers to one of
 * them (a changed RocketMQ version).
 */
final class Members {

    private Members() {
    }

    /**
     * Fails unless {@code m}'s code reads or calls every member (a field is named like a method: owner, name and
     * field descriptor).
     */
    static void require(MethodRef target, MethodNode m, List<MethodRef> members) throws PatchException {
        for (MethodRef member : members) {
            if (!refers(m, member)) {
                throw new PatchException(target + " no longer refers to " + member
                    + ": the code the patch mirrors has changed");
            }
        }
    }

    /**
     * Fails if {@code m}'s code reads or calls one of {@code members}: the release still has the code the codec would
     * replace by a re-implementation of another version.
     */
    static void forbid(MethodRef target, MethodNode m, List<MethodRef> members) throws PatchException {
        for (MethodRef member : members) {
            if (refers(m, member)) {
                throw new PatchException(target + " still refers to " + member
                    + ": the code the patch mirrors has changed");
            }
        }
    }

    private static boolean refers(MethodNode m, MethodRef member) {
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof MethodInsnNode) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                if (member.matches(mi.owner, mi.name, mi.desc)) {
                    return true;
                }
            } else if (insn instanceof FieldInsnNode) {
                FieldInsnNode fi = (FieldInsnNode) insn;
                if (member.matches(fi.owner, fi.name, fi.desc)) {
                    return true;
                }
            }
        }
        return false;
    }
}
