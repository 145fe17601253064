package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Shape "body delegation with fields": like {@link DelegateBody}, the body of an instance method becomes a call of a
 * static codec method, behind the switch; the codec method gets, instead of {@code this}, what chains of field reads
 * from {@code this} give (private fields and an inner class's {@code this$0} included; an empty chain passes
 * {@code this}, which the codec may take as a public supertype), then the method's arguments. For a method of a
 * class the codec cannot name (package-private) whose replacement needs its private state. Parameter types are
 * compared by kind only (a field's value may go where a supertype is expected); the verifier checks the rest when
 * the class loads.
 */
public final class DelegateFields implements MethodEdit {

    private final MethodRef target;
    private final List<List<MethodRef>> loads;
    private final MethodRef delegate;

    public DelegateFields(MethodRef target, List<List<MethodRef>> loads, MethodRef delegate) {
        this.target = target;
        this.loads = loads;
        this.delegate = delegate;
    }

    @Override
    public MethodRef target() {
        return target;
    }

    @Override
    public List<MethodRef> calls() {
        return Collections.singletonList(delegate);
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        if (Bytecode.isStatic(m)) {
            throw new PatchException(target + " is static: nothing to read fields from");
        }
        Switch.require(sw, this);
        Type[] args = Type.getArgumentTypes(m.desc);
        Type[] got = Type.getArgumentTypes(delegate.desc);
        if (got.length != loads.size() + args.length
            || !Type.getReturnType(delegate.desc).equals(Type.getReturnType(m.desc))) {
            throw new PatchException("delegate " + delegate + " must take " + loads.size() + " field value(s) and the "
                + "arguments of " + target + " and return its type");
        }
        InsnList code = new InsnList();
        LabelNode stock = new LabelNode();
        code.add(sw.jumpIfOff(stock));
        int i = 0;
        for (List<MethodRef> path : loads) {
            code.add(new VarInsnNode(Opcodes.ALOAD, 0));
            String type = "L" + owner.name + ";";
            for (MethodRef field : path) {
                if (field.owner.equals(owner.name) && !hasField(owner, field)) {
                    throw new PatchException(owner.name + " has no field " + field.name + " " + field.desc);
                }
                code.add(new FieldInsnNode(Opcodes.GETFIELD, field.owner, field.name, field.desc));
                type = field.desc;
            }
            requireSameKind(Type.getType(type), got[i++]);
        }
        int slot = 1;
        for (Type a : args) {
            requireSameKind(a, got[i++]);
            code.add(new VarInsnNode(a.getOpcode(Opcodes.ILOAD), slot));
            slot += a.getSize();
        }
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, delegate.owner, delegate.name, delegate.desc, false));
        code.add(new InsnNode(Type.getReturnType(m.desc).getOpcode(Opcodes.IRETURN)));
        code.add(Bytecode.stockEntry(stock, Bytecode.entryLocals(target.owner, m), m));
        m.instructions.insert(code);
    }

    private void requireSameKind(Type value, Type parameter) throws PatchException {
        boolean same = value.getSort() == parameter.getSort()
            || (value.getSort() >= Type.ARRAY && parameter.getSort() >= Type.ARRAY);
        if (!same) {
            throw new PatchException("delegate " + delegate + ": a " + value + " cannot go where " + parameter
                + " is expected");
        }
    }

    private static boolean hasField(ClassNode owner, MethodRef field) {
        for (FieldNode f : owner.fields) {
            if (f.name.equals(field.name) && f.desc.equals(field.desc)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String brief() {
        return "`" + delegate.shortName() + "`";
    }

    @Override
    public String describe() {
        return "body of " + target + " delegates to " + delegate + ", given " + loads.size() + " field value(s)";
    }
}
