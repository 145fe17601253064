package dev.rmqpatch.patches.transform;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;

/**
 * The start-up switch of one patch: a {@code public static final boolean} in the codec's PatchSwitches, named by
 * the patch id. Every edit reads it first and takes the stock path when it is false, so any patch can be turned
 * off with {@code -Drmqpatch.disable=ID} without a rebuild.
 */
public final class Switch {

    public static final String OWNER = "dev/rmqpatch/codec/switches/PatchSwitches";

    public final String field;

    private Switch(String field) {
        this.field = field;
    }

    public static Switch of(String patchId) {
        return new Switch(patchId);
    }

    /**
     * Shapes that keep the stock code only behind the switch (delegation, call substitution) have no unswitched form:
     * only entry hooks run unswitched (the start-up report).
     */
    public static void require(Switch sw, MethodEdit edit) throws PatchException {
        if (sw == null) {
            throw new PatchException(edit.describe() + ": this edit must belong to a patch with a switch");
        }
    }

    /** {@code if (!PatchSwitches.ID) goto target;} with the operand stack unchanged. */
    InsnList jumpIfOff(LabelNode target) {
        InsnList list = new InsnList();
        list.add(new FieldInsnNode(Opcodes.GETSTATIC, OWNER, field, "Z"));
        list.add(new JumpInsnNode(Opcodes.IFEQ, target));
        return list;
    }

    @Override
    public String toString() {
        return OWNER.replace('/', '.') + "." + field;
    }
}
