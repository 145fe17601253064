package dev.rmqpatch.patches.transform;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Shape "call-site substitution": inside one method, calls of a method become calls of a static replacement
 * (through a bridge method that calls the stock method while the patch is switched off). For a static call the
 * replacement has the same descriptor; for an instance call ({@link #ofInstanceCall}) it takes the receiver first.
 * The number of call sites is part of the patch; any other count fails the build, because a silent zero means the
 * patch does nothing and an extra site means the code has changed.
 */
public final class ReplaceCall implements MethodEdit {

    private final MethodRef inMethod;
    private final MethodRef call;
    private final MethodRef replacement;
    private final int expectedSites;
    /** INVOKESTATIC, INVOKEVIRTUAL or INVOKEINTERFACE: how {@code call} is invoked at the sites. */
    private final int invoke;
    /** The replacement is a method an {@link AddDelegate} of the same patch adds to the called class, not a codec method. */
    private final boolean added;

    public ReplaceCall(MethodRef inMethod, MethodRef call, MethodRef replacement, int expectedSites) {
        this(inMethod, call, replacement, expectedSites, Opcodes.INVOKESTATIC);
    }

    private ReplaceCall(MethodRef inMethod, MethodRef call, MethodRef replacement, int expectedSites, int invoke) {
        this(inMethod, call, replacement, expectedSites, invoke, false);
    }

    private ReplaceCall(MethodRef inMethod, MethodRef call, MethodRef replacement, int expectedSites, int invoke,
                        boolean added) {
        this.added = added;
        this.inMethod = inMethod;
        this.call = call;
        this.replacement = replacement;
        this.expectedSites = expectedSites;
        this.invoke = invoke;
    }

    /**
     * Calls of an instance method ({@code invoke} is INVOKEVIRTUAL or INVOKEINTERFACE) become calls of a static
     * replacement that takes the receiver as its first argument.
     */
    public static ReplaceCall ofInstanceCall(MethodRef inMethod, MethodRef call, int invoke, MethodRef replacement,
                                             int expectedSites) {
        if (invoke != Opcodes.INVOKEVIRTUAL && invoke != Opcodes.INVOKEINTERFACE) {
            throw new IllegalArgumentException("not an instance call opcode: " + invoke);
        }
        return new ReplaceCall(inMethod, call, replacement, expectedSites, invoke);
    }

    /**
     * Like {@link #ofInstanceCall}, but the replacement is a {@code public static} method that an {@link AddDelegate}
     * of the same patch adds to the called method's class (for a caller that must reach that class's private state
     * another way than through the call it replaces); the patcher checks it was added ({@link #addedMethod}).
     */
    public static ReplaceCall ofInstanceCallToAdded(MethodRef inMethod, MethodRef call, int invoke, MethodRef addedMethod,
                                                    int expectedSites) {
        if (invoke != Opcodes.INVOKEVIRTUAL && invoke != Opcodes.INVOKEINTERFACE) {
            throw new IllegalArgumentException("not an instance call opcode: " + invoke);
        }
        if (!addedMethod.owner.equals(call.owner)) {
            throw new IllegalArgumentException(addedMethod + " is not in " + call.owner);
        }
        return new ReplaceCall(inMethod, call, addedMethod, expectedSites, invoke, true);
    }

    /** The method another edit adds that this one calls, or null (a codec method, checked through {@link #calls}). */
    public MethodRef addedMethod() {
        return added ? replacement : null;
    }

    /** The descriptor the replacement (and the bridge) must have: the call's, with the receiver first if any. */
    private String staticDesc() {
        return invoke == Opcodes.INVOKESTATIC ? call.desc : "(L" + call.owner + ";" + call.desc.substring(1);
    }

    @Override
    public MethodRef target() {
        return inMethod;
    }

    @Override
    public List<MethodRef> calls() {
        return added ? Collections.<MethodRef>emptyList() : Collections.singletonList(replacement);
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        String desc = staticDesc();
        if (!desc.equals(replacement.desc)) {
            throw new PatchException("replacement " + replacement + " must have descriptor " + desc + " to replace " + call);
        }
        List<MethodInsnNode> sites = expectedSites(m, inMethod, call, invoke, expectedSites);
        Switch.require(sw, this);
        InsnList patched = Bridge.loadArgs(desc);
        patched.add(new MethodInsnNode(Opcodes.INVOKESTATIC, replacement.owner, replacement.name, replacement.desc, false));
        InsnList stock = Bridge.loadArgs(desc);
        stock.add(new MethodInsnNode(invoke, call.owner, call.name, call.desc, invoke == Opcodes.INVOKEINTERFACE));
        callBridge(m, sites, Bridge.add(owner, "rmqpatch$" + sw.field + "$" + call.name, desc, sw, patched, stock));
    }

    /** The sites of {@code call} in {@code m}; fails the build unless there are exactly {@code expected}. */
    static List<MethodInsnNode> expectedSites(MethodNode m, MethodRef inMethod, MethodRef call, int invoke, int expected)
        throws PatchException {
        List<MethodInsnNode> sites = callSites(m, call, invoke);
        if (sites.size() != expected) {
            throw new PatchException("expected " + expected + " call(s) of " + call + " in " + inMethod
                + ", found " + sites.size());
        }
        return sites;
    }

    /** Every site becomes a call of {@code bridge}. */
    static void callBridge(MethodNode m, List<MethodInsnNode> sites, MethodInsnNode bridge) {
        for (MethodInsnNode site : sites) {
            m.instructions.set(site, (MethodInsnNode) bridge.clone(null));
        }
    }

    /** Static call sites of {@code call} in {@code m}, in code order. */
    public static List<MethodInsnNode> callSites(MethodNode m, MethodRef call) {
        return callSites(m, call, Opcodes.INVOKESTATIC);
    }

    private static List<MethodInsnNode> callSites(MethodNode m, MethodRef call, int invoke) {
        List<MethodInsnNode> sites = new ArrayList<MethodInsnNode>();
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() == invoke) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                if (call.matches(mi.owner, mi.name, mi.desc)) {
                    sites.add(mi);
                }
            }
        }
        return sites;
    }

    @Override
    public String brief() {
        return "`" + call.shortName() + "` \u2192 `" + replacement.shortName() + "`";
    }

    @Override
    public String describe() {
        return expectedSites + " call(s) of " + call + " in " + inMethod + " call " + replacement;
    }
}
