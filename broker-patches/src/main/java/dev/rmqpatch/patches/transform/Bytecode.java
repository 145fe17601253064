package dev.rmqpatch.patches.transform;

import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/** Small bytecode helpers shared by the transforms. */
final class Bytecode {

    private Bytecode() {
    }

    static boolean isStatic(MethodNode m) {
        return (m.access & Opcodes.ACC_STATIC) != 0;
    }

    /** Loads {@code this} (for instance methods) and every argument, in order, onto the operand stack. */
    static InsnList loadThisAndArgs(MethodNode m) {
        InsnList list = new InsnList();
        int slot = 0;
        if (!isStatic(m)) {
            list.add(new VarInsnNode(Opcodes.ALOAD, slot++));
        }
        for (Type t : Type.getArgumentTypes(m.desc)) {
            list.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            slot += t.getSize();
        }
        return list;
    }

    /** The method's locals at entry, in the expanded-frame form ASM's FrameNode takes. */
    static Object[] entryLocals(String owner, MethodNode m) {
        List<Object> locals = new ArrayList<Object>();
        if (!isStatic(m)) {
            locals.add(owner);
        }
        for (Type t : Type.getArgumentTypes(m.desc)) {
            locals.add(frameType(t));
        }
        return locals.toArray();
    }

    static Object frameType(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN:
            case Type.BYTE:
            case Type.CHAR:
            case Type.SHORT:
            case Type.INT:
                return Opcodes.INTEGER;
            case Type.FLOAT:
                return Opcodes.FLOAT;
            case Type.LONG:
                return Opcodes.LONG;
            case Type.DOUBLE:
                return Opcodes.DOUBLE;
            default:
                return t.getInternalName();
        }
    }

    /**
     * Where the untouched stock body begins after inserted code: the label jumps land on and the frame of the
     * method's entry state. A NOP follows when the stock code itself starts with a frame, because two frames at
     * one bytecode offset are invalid.
     */
    static InsnList stockEntry(LabelNode label, Object[] locals, MethodNode m) {
        InsnList list = new InsnList();
        list.add(label);
        list.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]));
        AbstractInsnNode first = m.instructions.getFirst();
        while (first != null && first.getOpcode() < 0 && !(first instanceof FrameNode)) {
            first = first.getNext();
        }
        if (first instanceof FrameNode) {
            list.add(new InsnNode(Opcodes.NOP));
        }
        return list;
    }
}
