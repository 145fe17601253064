package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Shape "entry hook with fallback": the method first calls a static hook with {@code this} and its arguments.
 * For a method that returns an object, a non-null hook result is returned and null falls through to the stock
 * body; for a void method, a hook returning {@code true} means "handled"; for a boolean method, a boolean hook's
 * {@code true} makes it return {@code true} at once ({@link #refusing}: a boolean hook whose
 * {@code true} makes an object-returning method return null). The stock body stays intact, so
 * whatever the hook declines, and everything while the patch is switched off, behaves exactly as before.
 * {@link #withStaticFields}: the hook gets the values of static fields of the class first, for a codec method that
 * needs the class's private state.
 */
public final class EntryHook implements MethodEdit {

    private final MethodRef target;
    private final MethodRef hook;
    private final boolean refusal;
    /** The hook is a method another edit of the same patch adds to the target's class, not a codec method. */
    private final boolean added;
    /** Static fields of the target's class whose values the hook gets first (fields named like methods). */
    private final List<MethodRef> statics;

    public EntryHook(MethodRef target, MethodRef hook) {
        this(target, hook, false, false, Collections.<MethodRef>emptyList());
    }

    private EntryHook(MethodRef target, MethodRef hook, boolean refusal, boolean added, List<MethodRef> statics) {
        this.target = target;
        this.hook = hook;
        this.refusal = refusal;
        this.added = added;
        this.statics = statics;
    }

    /**
     * The hook gets the values of static fields of the target's class (private ones included), in the order given,
     * then {@code this} and the method's arguments: for a codec method that needs the class's private static state
     * and leaves it where it is. Each field's type must be the hook's parameter type exactly.
     */
    public static EntryHook withStaticFields(MethodRef target, List<MethodRef> fields, MethodRef hook) {
        for (MethodRef f : fields) {
            if (!f.owner.equals(target.owner)) {
                throw new IllegalArgumentException(f + " is not a field of " + target.owner);
            }
        }
        return new EntryHook(target, hook, false, false, Collections.unmodifiableList(new java.util.ArrayList<MethodRef>(fields)));
    }

    /**
     * The hook is a static method that an earlier edit of the same patch adds to the target's class (an
     * {@link AddDelegate}, which checks the codec method it calls); it is not looked up among the codec's methods.
     */
    public static EntryHook ofAddedHook(MethodRef target, MethodRef hook) {
        if (!hook.owner.equals(target.owner)) {
            throw new IllegalArgumentException(hook + " is not in " + target.owner);
        }
        return new EntryHook(target, hook, false, true, Collections.<MethodRef>emptyList());
    }

    /**
     * For an object-returning method: a hook returning {@code true} makes the method return null at once (as stock
     * does for what it does not find), {@code false} runs the stock body.
     */
    public static EntryHook refusing(MethodRef target, MethodRef hook) {
        return new EntryHook(target, hook, true, false, Collections.<MethodRef>emptyList());
    }

    @Override
    public MethodRef target() {
        return target;
    }

    @Override
    public List<MethodRef> calls() {
        return added ? Collections.<MethodRef>emptyList() : Collections.singletonList(hook);
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        Type returnType = Type.getReturnType(m.desc);
        Type hookReturn = Type.getReturnType(hook.desc);
        boolean isVoid = returnType.getSort() == Type.VOID;
        boolean isBoolean = returnType.getSort() == Type.BOOLEAN;
        if (refusal && (isVoid || isBoolean || hookReturn.getSort() != Type.BOOLEAN)) {
            throw new PatchException("refusing hook " + hook + " must return boolean, for an object-returning " + target);
        }
        boolean booleanHook = isVoid || isBoolean;
        if (!refusal && (booleanHook ? hookReturn.getSort() != Type.BOOLEAN : hookReturn.getSort() != Type.OBJECT)) {
            throw new PatchException("hook " + hook + " must return " + (booleanHook ? "boolean" : "an object")
                + " for " + target);
        }
        if (added && !hasMethod(owner, hook)) {
            throw new PatchException("hook " + hook + " must be added to " + owner.name + " before this edit");
        }
        if (!isVoid && !isBoolean && returnType.getSort() != Type.OBJECT) {
            throw new PatchException("entry hooks support void, boolean or object-returning methods, not " + target);
        }
        LabelNode stock = new LabelNode();
        InsnList code = new InsnList();
        if (sw != null) {
            code.add(sw.jumpIfOff(stock));
        }
        Type[] hookArgs = Type.getArgumentTypes(hook.desc);
        if (hookArgs.length < statics.size()) {
            throw new PatchException("hook " + hook + " must take the " + statics.size() + " static field value(s) first");
        }
        for (int i = 0; i < statics.size(); i++) {
            MethodRef f = statics.get(i);
            if (!hasStaticField(owner, f)) {
                throw new PatchException(owner.name + " has no static field " + f.name + " " + f.desc);
            }
            if (!hookArgs[i].getDescriptor().equals(f.desc)) {
                throw new PatchException("hook " + hook + " takes " + hookArgs[i] + " where static field " + f.name
                    + " is " + f.desc);
            }
            code.add(new FieldInsnNode(Opcodes.GETSTATIC, f.owner, f.name, f.desc));
        }
        code.add(Bytecode.loadThisAndArgs(m));
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, hook.owner, hook.name, hook.desc, false));
        Object[] locals = Bytecode.entryLocals(target.owner, m);
        if (isVoid) {
            code.add(new JumpInsnNode(Opcodes.IFEQ, stock));
            code.add(new InsnNode(Opcodes.RETURN));
        } else if (isBoolean) {
            code.add(new JumpInsnNode(Opcodes.IFEQ, stock));
            code.add(new InsnNode(Opcodes.ICONST_1));
            code.add(new InsnNode(Opcodes.IRETURN));
        } else if (refusal) {
            code.add(new JumpInsnNode(Opcodes.IFEQ, stock));
            code.add(new InsnNode(Opcodes.ACONST_NULL));
            code.add(new InsnNode(Opcodes.ARETURN));
        } else {
            LabelNode declined = new LabelNode();
            code.add(new InsnNode(Opcodes.DUP));
            code.add(new JumpInsnNode(Opcodes.IFNULL, declined));
            if (!hookReturn.equals(returnType)) {
                code.add(new TypeInsnNode(Opcodes.CHECKCAST, returnType.getInternalName()));
            }
            code.add(new InsnNode(Opcodes.ARETURN));
            code.add(declined);
            code.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 1,
                new Object[] {hookReturn.getInternalName()}));
            code.add(new InsnNode(Opcodes.POP));
        }
        code.add(Bytecode.stockEntry(stock, locals, m));
        m.instructions.insert(code);
    }

    private static boolean hasStaticField(ClassNode owner, MethodRef ref) {
        for (FieldNode f : owner.fields) {
            if (f.name.equals(ref.name) && f.desc.equals(ref.desc) && (f.access & Opcodes.ACC_STATIC) != 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasMethod(ClassNode owner, MethodRef ref) {
        for (MethodNode m : owner.methods) {
            if (m.name.equals(ref.name) && m.desc.equals(ref.desc)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String brief() {
        return "`" + hook.shortName() + "` first";
    }

    @Override
    public String describe() {
        return "entry of " + target + " calls " + hook + (statics.isEmpty() ? "" : " with " + statics.size()
            + " static field value(s)") + (refusal ? "; returns null when it refuses, else" : ";")
            + " stock body runs when the hook declines";
    }
}
