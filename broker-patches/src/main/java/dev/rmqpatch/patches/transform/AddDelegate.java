package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Shape "added delegate": a {@code public static synthetic} method added to the target's class, which hands fields
 * of its first argument (an instance of the class; fields it can read, private ones included) and its other
 * arguments to a codec method, and returns what that returns. For a codec method that re-implements the target for
 * other arguments and needs the class's private state; the target itself is unchanged but must still refer to the
 * members the codec mirrors ({@link Members}). The new method has no switch: only switched code calls it.
 */
public final class AddDelegate implements MethodEdit {

    private final MethodRef target;
    private final List<MethodRef> mirrored;
    private final MethodRef added;
    private final List<List<MethodRef>> fieldPaths;
    private final MethodRef delegate;

    /**
     * @param added      the new method (its owner is the target's class); its first argument is the class
     * @param fieldPaths what the delegate gets first, one chain of field reads from the first argument per entry,
     *                   followed by the new method's other arguments
     */
    public AddDelegate(MethodRef target, List<MethodRef> mirrored, MethodRef added, List<List<MethodRef>> fieldPaths,
                       MethodRef delegate) {
        this.target = target;
        this.mirrored = mirrored;
        this.added = added;
        this.fieldPaths = fieldPaths;
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
        Switch.require(sw, this);
        Members.require(target, m, mirrored);
        if (!added.owner.equals(owner.name)) {
            throw new PatchException(added + " must be added to " + owner.name);
        }
        for (MethodNode existing : owner.methods) {
            if (existing.name.equals(added.name)) {
                throw new PatchException(owner.name + " already has a method " + added.name);
            }
        }
        Type[] args = Type.getArgumentTypes(added.desc);
        if (args.length == 0 || !args[0].getInternalName().equals(owner.name)) {
            throw new PatchException(added + " must take " + owner.name + " first");
        }
        StringBuilder wanted = new StringBuilder("(");
        MethodNode method = new MethodNode(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, added.name,
            added.desc, null, null);
        for (List<MethodRef> path : fieldPaths) {
            method.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
            for (MethodRef field : path) {
                method.instructions.add(new FieldInsnNode(Opcodes.GETFIELD, field.owner, field.name, field.desc));
            }
            wanted.append(path.get(path.size() - 1).desc);
        }
        for (List<MethodRef> path : fieldPaths) {
            for (MethodRef field : path) {
                if (field.owner.equals(owner.name) && !hasField(owner, field)) {
                    throw new PatchException(owner.name + " has no field " + field.name + " " + field.desc);
                }
            }
        }
        int slot = 1;
        for (int i = 1; i < args.length; i++) {
            method.instructions.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slot));
            slot += args[i].getSize();
            wanted.append(args[i].getDescriptor());
        }
        Type ret = Type.getReturnType(added.desc);
        wanted.append(')').append(ret.getDescriptor());
        if (!delegate.desc.equals(wanted.toString())) {
            // Field types are passed where their supertypes are expected, so only the shape is compared loosely.
            Type[] got = Type.getArgumentTypes(delegate.desc);
            Type[] want = Type.getArgumentTypes(wanted.toString());
            if (got.length != want.length || !Type.getReturnType(delegate.desc).equals(ret)) {
                throw new PatchException("delegate " + delegate + " must take " + wanted + " (or supertypes)");
            }
        }
        method.instructions.add(new MethodInsnNode(Opcodes.INVOKESTATIC, delegate.owner, delegate.name, delegate.desc,
            false));
        method.instructions.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
        owner.methods.add(method);
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
        return "`" + added.shortName() + "` added, calls `" + delegate.shortName() + "`";
    }

    @Override
    public String describe() {
        return "adds " + added + " to " + target.owner + ", which passes private state to " + delegate;
    }
}
