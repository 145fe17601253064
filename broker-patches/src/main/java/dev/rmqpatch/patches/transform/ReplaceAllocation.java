package dev.rmqpatch.patches.transform;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Shape "allocation to factory": inside one method (a constructor, say), {@code new T(args)} becomes a call of a
 * static codec factory with the constructor's arguments that returns a T (typically a subclass), through a bridge
 * that allocates stock's T while the patch is switched off. The site is {@code NEW T; DUP; <arguments>;
 * INVOKESPECIAL T.<init>}: NEW and DUP are removed and the INVOKESPECIAL becomes the bridge call, so the stack after
 * the site holds one T as before. The arguments must be straight-line code (no branch into or out of them, no
 * stack-map frame among them, since a frame there would name the removed NEW's uninitialized value), and the number
 * of sites is part of the patch, as for {@link ReplaceCall}.
 */
public final class ReplaceAllocation implements MethodEdit {

    private final MethodRef inMethod;
    private final String type;
    private final String ctorDesc;
    private final MethodRef factory;
    private final int expectedSites;

    /**
     * @param type     internal name of the allocated class, {@code java/util/concurrent/atomic/AtomicLong}
     * @param ctorDesc descriptor of the constructor the sites call, {@code (J)V}
     * @param factory  public static method taking the constructor's arguments and returning {@code type}
     */
    public ReplaceAllocation(MethodRef inMethod, String type, String ctorDesc, MethodRef factory, int expectedSites) {
        if (!ctorDesc.endsWith(")V")) {
            throw new IllegalArgumentException("not a constructor descriptor: " + ctorDesc);
        }
        this.inMethod = inMethod;
        this.type = type;
        this.ctorDesc = ctorDesc;
        this.factory = factory;
        this.expectedSites = expectedSites;
    }

    /** The descriptor the factory (and the bridge) must have: the constructor's arguments, returning the type. */
    private String factoryDesc() {
        return ctorDesc.substring(0, ctorDesc.length() - 1) + "L" + type + ";";
    }

    @Override
    public MethodRef target() {
        return inMethod;
    }

    @Override
    public List<MethodRef> calls() {
        return Collections.singletonList(factory);
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        String desc = factoryDesc();
        if (!desc.equals(factory.desc)) {
            throw new PatchException("factory " + factory + " must have descriptor " + desc + " to replace new "
                + type + ctorDesc);
        }
        List<AbstractInsnNode[]> sites = sites(m);
        if (sites.size() != expectedSites) {
            throw new PatchException("expected " + expectedSites + " allocation(s) new " + type + ctorDesc + " in "
                + inMethod + ", found " + sites.size());
        }
        Switch.require(sw, this);
        InsnList patched = Bridge.loadArgs(desc);
        patched.add(new MethodInsnNode(Opcodes.INVOKESTATIC, factory.owner, factory.name, factory.desc, false));
        InsnList stock = new InsnList();
        stock.add(new TypeInsnNode(Opcodes.NEW, type));
        stock.add(new InsnNode(Opcodes.DUP));
        stock.add(Bridge.loadArgs(desc));
        stock.add(new MethodInsnNode(Opcodes.INVOKESPECIAL, type, "<init>", ctorDesc, false));
        String simple = type.substring(type.lastIndexOf('/') + 1);
        MethodInsnNode newCall = Bridge.add(owner, "rmqpatch$" + sw.field + "$new" + simple, desc, sw, patched, stock);
        for (AbstractInsnNode[] site : sites) {
            m.instructions.remove(site[0]);
            m.instructions.remove(site[1]);
            m.instructions.set(site[2], (MethodInsnNode) newCall.clone(null));
        }
    }

    /** Each site's NEW, DUP and INVOKESPECIAL, in code order; refuses a site whose arguments are not straight-line. */
    private List<AbstractInsnNode[]> sites(MethodNode m) throws PatchException {
        List<AbstractInsnNode[]> sites = new ArrayList<AbstractInsnNode[]>();
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() != Opcodes.NEW || !((TypeInsnNode) insn).desc.equals(type)) {
                continue;
            }
            AbstractInsnNode dup = next(insn);
            if (dup == null || dup.getOpcode() != Opcodes.DUP) {
                throw new PatchException("new " + type + " in " + inMethod + " is not followed by DUP");
            }
            AbstractInsnNode init = null;
            for (AbstractInsnNode a = dup.getNext(); a != null; a = a.getNext()) {
                if (a.getType() == AbstractInsnNode.FRAME || a instanceof JumpInsnNode
                    || a instanceof TableSwitchInsnNode || a instanceof LookupSwitchInsnNode
                    || a.getOpcode() == Opcodes.NEW || a.getOpcode() == Opcodes.ATHROW
                    || (a.getOpcode() >= Opcodes.IRETURN && a.getOpcode() <= Opcodes.RETURN)
                    || (a instanceof LabelNode && isHandlerOrJumpTarget(m, (LabelNode) a))) {
                    throw new PatchException("the arguments of new " + type + " in " + inMethod
                        + " are not straight-line code");
                }
                if (a.getOpcode() == Opcodes.INVOKESPECIAL) {
                    MethodInsnNode mi = (MethodInsnNode) a;
                    if (mi.owner.equals(type) && mi.name.equals("<init>")) {
                        if (!mi.desc.equals(ctorDesc)) {
                            throw new PatchException("new " + type + " in " + inMethod + " calls constructor "
                                + mi.desc + ", not " + ctorDesc);
                        }
                        init = a;
                        break;
                    }
                }
            }
            if (init == null) {
                throw new PatchException("new " + type + " in " + inMethod + " has no constructor call");
            }
            sites.add(new AbstractInsnNode[] {insn, dup, init});
        }
        return sites;
    }

    private static AbstractInsnNode next(AbstractInsnNode insn) {
        AbstractInsnNode n = insn.getNext();
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }

    private static boolean isHandlerOrJumpTarget(MethodNode m, LabelNode label) {
        for (TryCatchBlockNode tc : m.tryCatchBlocks) {
            if (tc.start == label || tc.end == label || tc.handler == label) {
                return true;
            }
        }
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof JumpInsnNode && ((JumpInsnNode) insn).label == label) {
                return true;
            }
            if (insn instanceof TableSwitchInsnNode && (((TableSwitchInsnNode) insn).dflt == label
                || ((TableSwitchInsnNode) insn).labels.contains(label))) {
                return true;
            }
            if (insn instanceof LookupSwitchInsnNode && (((LookupSwitchInsnNode) insn).dflt == label
                || ((LookupSwitchInsnNode) insn).labels.contains(label))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String brief() {
        return "`new " + Type.getObjectType(type).getClassName().substring(type.lastIndexOf('/') + 1) + "` \u2192 `"
            + factory.shortName() + "`";
    }

    @Override
    public String describe() {
        return expectedSites + " allocation(s) new " + type + ctorDesc + " in " + inMethod + " call " + factory;
    }
}
