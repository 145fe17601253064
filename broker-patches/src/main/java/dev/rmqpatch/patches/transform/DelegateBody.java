package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Shape "body delegation": the whole body becomes a call to a static method taking the same arguments
 * ({@code this} first for instance methods) and returning the same type. For methods whose every input is
 * handled by the replacement; the stock body stays behind the patch's switch and runs only when it is off.
 */
public final class DelegateBody implements MethodEdit {

    private final MethodRef target;
    private final MethodRef delegate;

    public DelegateBody(MethodRef target, MethodRef delegate) {
        this.target = target;
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
        Type[] args = Type.getArgumentTypes(m.desc);
        Type[] expected;
        if (Bytecode.isStatic(m)) {
            expected = args;
        } else {
            expected = new Type[args.length + 1];
            expected[0] = Type.getObjectType(target.owner);
            System.arraycopy(args, 0, expected, 1, args.length);
        }
        String wanted = Type.getMethodDescriptor(Type.getReturnType(m.desc), expected);
        if (!wanted.equals(delegate.desc)) {
            throw new PatchException("delegate " + delegate + " must have descriptor " + wanted + " to replace " + target);
        }
        Switch.require(sw, this);
        LabelNode stock = new LabelNode();
        InsnList code = sw.jumpIfOff(stock);
        code.add(Bytecode.loadThisAndArgs(m));
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, delegate.owner, delegate.name, delegate.desc, false));
        code.add(new InsnNode(Type.getReturnType(m.desc).getOpcode(Opcodes.IRETURN)));
        code.add(Bytecode.stockEntry(stock, Bytecode.entryLocals(target.owner, m), m));
        m.instructions.insert(code);
    }

    @Override
    public String brief() {
        return "`" + delegate.shortName() + "`";
    }

    @Override
    public String describe() {
        return "body of " + target + " delegates to " + delegate;
    }
}
