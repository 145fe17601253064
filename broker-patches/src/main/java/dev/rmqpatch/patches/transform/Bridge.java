package dev.rmqpatch.patches.transform;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A private static method added to a patched class that runs the patched or the stock code by the patch's
 * switch. A call site that a patch changes calls the bridge instead, so the switch needs no stack-map frames
 * inside the (large) stock method: the bridge's only frame is its own entry state.
 */
public final class Bridge {

    private Bridge() {
    }

    /**
     * Adds {@code private static synthetic <desc> <name>(args)} to {@code cls}: {@code patched} when the switch is
     * on, else {@code stock}. Both read the arguments from locals 0..n and leave the return value on the stack.
     *
     * @return the call of the new method
     */
    public static MethodInsnNode add(ClassNode cls, String name, String desc, Switch sw, InsnList patched, InsnList stock)
        throws PatchException {
        if ((cls.access & Opcodes.ACC_INTERFACE) != 0) {
            throw new PatchException("cannot add a bridge method to interface " + cls.name);
        }
        for (MethodNode existing : cls.methods) {
            if (existing.name.equals(name) && existing.desc.equals(desc)) {
                return new MethodInsnNode(Opcodes.INVOKESTATIC, cls.name, name, desc, false);
            }
        }
        MethodNode m = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name, desc,
            null, null);
        int ret = Type.getReturnType(desc).getOpcode(Opcodes.IRETURN);
        LabelNode stockPath = new LabelNode();
        Object[] locals = Bytecode.entryLocals(cls.name, m);
        m.instructions.add(sw.jumpIfOff(stockPath));
        m.instructions.add(patched);
        m.instructions.add(new InsnNode(ret));
        m.instructions.add(stockPath);
        m.instructions.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]));
        m.instructions.add(stock);
        m.instructions.add(new InsnNode(ret));
        cls.methods.add(m);
        return new MethodInsnNode(Opcodes.INVOKESTATIC, cls.name, name, desc, false);
    }

    /** Loads the arguments of a static method with descriptor {@code desc} from locals 0..n. */
    static InsnList loadArgs(String desc) {
        MethodNode shape = new MethodNode(Opcodes.ACC_STATIC, "args", desc, null, null);
        return Bytecode.loadThisAndArgs(shape);
    }
}
