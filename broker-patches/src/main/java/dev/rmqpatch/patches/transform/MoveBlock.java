package dev.rmqpatch.patches.transform;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Shape "block to bridge": a run of straight-line statements inside one method (matched instruction by instruction,
 * once, leaving the operand stack as it found it) moves into a private static bridge of the class, which runs the
 * same instructions while the patch is off and, while it is on, some of those instructions (the loads of the values
 * the replacement needs) followed by a static call of the replacement. For a patch that changes several statements
 * at once (stock allocates and fills an array that the replacement does not need), where a single call site is not
 * enough. The method keeps its frames: the moved block has none, and the bridge's only frame is its entry state.
 *
 * <p>The bridge takes the locals the block reads without writing them first ({@code this} and int, long, float,
 * double locals), in slot order; the locals the block writes become the bridge's own and must not be read anywhere
 * else in the method.
 */
public final class MoveBlock implements MethodEdit {

    /** One instruction of the block: its opcode and, for a field or method instruction, owner, name, descriptor. */
    public static final class Insn {
        final int opcode;
        final MethodRef member;

        private Insn(int opcode, MethodRef member) {
            this.opcode = opcode;
            this.member = member;
        }

        public static Insn op(int opcode) {
            return new Insn(opcode, null);
        }

        /** A field or method instruction; a null member name matches any name (a compiler's access$NNN). */
        public static Insn member(int opcode, String owner, String name, String desc) {
            return new Insn(opcode, new MethodRef(owner, name, desc));
        }

        boolean matches(AbstractInsnNode insn) {
            if (insn.getOpcode() != opcode) {
                return false;
            }
            if (member == null) {
                return true;
            }
            String owner;
            String name;
            String desc;
            if (insn instanceof MethodInsnNode) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                owner = mi.owner;
                name = mi.name;
                desc = mi.desc;
            } else if (insn instanceof FieldInsnNode) {
                FieldInsnNode fi = (FieldInsnNode) insn;
                owner = fi.owner;
                name = fi.name;
                desc = fi.desc;
            } else {
                return false;
            }
            return member.owner.equals(owner) && member.desc.equals(desc) && (member.name == null || member.name.equals(name));
        }

        @Override
        public String toString() {
            return "opcode " + opcode + (member == null ? "" : " " + member);
        }
    }

    private final MethodRef inMethod;
    private final String bridgeName;
    private final List<Insn> block;
    private final int[] patchedLoads;
    private final MethodRef replacement;

    /**
     * @param bridgeName   the bridge's name after {@code rmqpatch$<patch id>$}
     * @param block        the block's instructions, labels and line numbers aside
     * @param patchedLoads the indices (in {@code block}) of the instructions that load the replacement's arguments,
     *                     in the order it takes them; a result it returns is dropped
     * @param replacement  a static method; its owner may be a method another edit of the same patch adds
     */
    public MoveBlock(MethodRef inMethod, String bridgeName, List<Insn> block, int[] patchedLoads, MethodRef replacement) {
        this.inMethod = inMethod;
        this.bridgeName = bridgeName;
        this.block = block;
        this.patchedLoads = patchedLoads.clone();
        this.replacement = replacement;
    }

    @Override
    public MethodRef target() {
        return inMethod;
    }

    /** None that the codec holds: the replacement is a method the patch adds (checked when it is added). */
    @Override
    public List<MethodRef> calls() {
        return Collections.emptyList();
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        Switch.require(sw, this);
        List<AbstractInsnNode> found = find(m);
        // Locals: read before written (the bridge's arguments), and written (the bridge's own).
        TreeMap<Integer, Type> args = new TreeMap<Integer, Type>();
        List<Integer> written = new ArrayList<Integer>();
        for (AbstractInsnNode insn : found) {
            if (insn instanceof IincInsnNode) {
                throw new PatchException(describe() + ": an iinc in the block is not supported");
            }
            if (!(insn instanceof VarInsnNode)) {
                continue;
            }
            int var = ((VarInsnNode) insn).var;
            int op = insn.getOpcode();
            if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE) {
                if (!args.containsKey(var) && !written.contains(var)) {
                    written.add(var);
                }
            } else if (!written.contains(var) && !args.containsKey(var)) {
                args.put(var, argType(owner, m, op, var));
            }
        }
        requireUnusedOutside(m, found, written);
        Map<Integer, Integer> remap = new HashMap<Integer, Integer>();
        StringBuilder desc = new StringBuilder("(");
        int slot = 0;
        InsnList call = new InsnList();
        for (Map.Entry<Integer, Type> arg : args.entrySet()) {
            remap.put(arg.getKey(), slot);
            desc.append(arg.getValue().getDescriptor());
            call.add(new VarInsnNode(arg.getValue().getOpcode(Opcodes.ILOAD), arg.getKey()));
            slot += arg.getValue().getSize();
        }
        desc.append(")V");
        for (Integer var : written) {
            remap.put(var, slot);
            slot += 2; // room for a long or double
        }
        InsnList stock = new InsnList();
        for (AbstractInsnNode insn : found) {
            stock.add(copy(insn, remap));
        }
        InsnList patched = new InsnList();
        for (int i : patchedLoads) {
            patched.add(copy(found.get(i), remap));
        }
        patched.add(new MethodInsnNode(Opcodes.INVOKESTATIC, replacement.owner, replacement.name, replacement.desc,
            false));
        int size = Type.getReturnType(replacement.desc).getSize();
        if (size > 0) {
            patched.add(new InsnNode(size == 2 ? Opcodes.POP2 : Opcodes.POP));
        }
        MethodInsnNode bridge = Bridge.add(owner, "rmqpatch$" + sw.field + "$" + bridgeName, desc.toString(), sw,
            patched, stock);
        AbstractInsnNode first = found.get(0);
        call.add(bridge);
        m.instructions.insertBefore(first, call);
        for (AbstractInsnNode insn : found) {
            m.instructions.remove(insn);
        }
        dropLocalVariables(m, written);
    }

    /** The block's real instructions, matched once in the method; labels and line numbers stay where they are. */
    private List<AbstractInsnNode> find(MethodNode m) throws PatchException {
        List<List<AbstractInsnNode>> matches = new ArrayList<List<AbstractInsnNode>>();
        for (AbstractInsnNode start = m.instructions.getFirst(); start != null; start = start.getNext()) {
            List<AbstractInsnNode> match = matchAt(start);
            if (match != null) {
                matches.add(match);
            }
        }
        if (matches.size() != 1) {
            throw new PatchException("expected the block " + block + " once in " + inMethod + ", found "
                + matches.size());
        }
        return matches.get(0);
    }

    private List<AbstractInsnNode> matchAt(AbstractInsnNode start) {
        List<AbstractInsnNode> match = new ArrayList<AbstractInsnNode>();
        AbstractInsnNode insn = start;
        for (Insn want : block) {
            while (insn != null && insn.getOpcode() < 0 && !(insn instanceof FrameNode) && (match.size() > 0)) {
                insn = insn.getNext();
            }
            if (insn == null || insn instanceof JumpInsnNode || !want.matches(insn)) {
                return null;
            }
            match.add(insn);
            insn = insn.getNext();
        }
        return match;
    }

    private Type argType(ClassNode owner, MethodNode m, int op, int var) throws PatchException {
        switch (op) {
            case Opcodes.ILOAD:
                return Type.INT_TYPE;
            case Opcodes.LLOAD:
                return Type.LONG_TYPE;
            case Opcodes.FLOAD:
                return Type.FLOAT_TYPE;
            case Opcodes.DLOAD:
                return Type.DOUBLE_TYPE;
            default:
                if (var == 0 && !Bytecode.isStatic(m)) {
                    return Type.getObjectType(owner.name);
                }
                throw new PatchException(describe() + ": the block reads object local " + var + "; only this is supported");
        }
    }

    private void requireUnusedOutside(MethodNode m, List<AbstractInsnNode> found, List<Integer> written)
        throws PatchException {
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (found.contains(insn)) {
                continue;
            }
            int var = insn instanceof VarInsnNode ? ((VarInsnNode) insn).var
                : insn instanceof IincInsnNode ? ((IincInsnNode) insn).var : -1;
            if (written.contains(var)) {
                throw new PatchException(describe() + ": local " + var + ", written in the block, is used outside it");
            }
        }
    }

    private static AbstractInsnNode copy(AbstractInsnNode insn, Map<Integer, Integer> remap) {
        AbstractInsnNode c = insn.clone(Collections.<LabelNode, LabelNode>emptyMap());
        if (c instanceof VarInsnNode) {
            VarInsnNode v = (VarInsnNode) c;
            v.var = remap.get(v.var);
        }
        return c;
    }

    /** The debug entries of the locals that moved into the bridge: the method no longer writes them. */
    private static void dropLocalVariables(MethodNode m, List<Integer> written) {
        if (m.localVariables == null) {
            return;
        }
        for (Iterator<LocalVariableNode> it = m.localVariables.iterator(); it.hasNext(); ) {
            if (written.contains(it.next().index)) {
                it.remove();
            }
        }
    }

    @Override
    public String brief() {
        return "a " + block.size() + "-instruction block \u2192 `" + replacement.shortName() + "`";
    }

    @Override
    public String describe() {
        return "a block of " + block.size() + " instruction(s) in " + inMethod + " moves into a bridge that calls "
            + replacement;
    }
}
