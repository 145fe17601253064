package dev.rmqpatch.patches.transform;

import java.util.Collections;
import java.util.List;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Shape "argument filter": inside one method, calls of an instance method stay calls of that method, but their last
 * argument (a primitive) first passes through a static codec function of that type ({@code (J)J} for a long), through
 * a bridge that passes it unchanged while the patch is switched off. For a stock call that must stay (it is protected,
 * or its side effects are the point) whose argument a patch chooses: a wait's interval. The number of call sites is
 * part of the patch, as for {@link ReplaceCall}.
 */
public final class FilterArgument implements MethodEdit {

    private final MethodRef inMethod;
    private final MethodRef call;
    private final int invoke;
    private final MethodRef filter;
    private final int expectedSites;

    /**
     * Calls of {@code call} ({@code invoke}: INVOKEVIRTUAL or INVOKEINTERFACE) in {@code inMethod} get their last
     * argument through {@code filter}, whose descriptor is {@code (T)T} for that argument's primitive type T.
     */
    public FilterArgument(MethodRef inMethod, MethodRef call, int invoke, MethodRef filter, int expectedSites) {
        if (invoke != Opcodes.INVOKEVIRTUAL && invoke != Opcodes.INVOKEINTERFACE) {
            throw new IllegalArgumentException("not an instance call opcode: " + invoke);
        }
        Type[] args = Type.getArgumentTypes(call.desc);
        if (args.length == 0 || args[args.length - 1].getSort() > Type.DOUBLE) {
            throw new IllegalArgumentException(call + " has no primitive last argument");
        }
        String desc = "(" + args[args.length - 1].getDescriptor() + ")" + args[args.length - 1].getDescriptor();
        if (!filter.desc.equals(desc)) {
            throw new IllegalArgumentException("filter " + filter + " must have descriptor " + desc);
        }
        this.inMethod = inMethod;
        this.call = call;
        this.invoke = invoke;
        this.filter = filter;
        this.expectedSites = expectedSites;
    }

    @Override
    public MethodRef target() {
        return inMethod;
    }

    @Override
    public List<MethodRef> calls() {
        return Collections.singletonList(filter);
    }

    @Override
    public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
        List<MethodInsnNode> sites = ReplaceCall.expectedSites(m, inMethod, call, invoke, expectedSites);
        Switch.require(sw, this);
        String desc = "(L" + call.owner + ";" + call.desc.substring(1);
        InsnList patched = Bridge.loadArgs(desc);
        patched.add(new MethodInsnNode(Opcodes.INVOKESTATIC, filter.owner, filter.name, filter.desc, false));
        patched.add(new MethodInsnNode(invoke, call.owner, call.name, call.desc, invoke == Opcodes.INVOKEINTERFACE));
        InsnList stock = Bridge.loadArgs(desc);
        stock.add(new MethodInsnNode(invoke, call.owner, call.name, call.desc, invoke == Opcodes.INVOKEINTERFACE));
        // "$arg": never the bridge a ReplaceCall of the same call would add (Bridge.add reuses a same-named one)
        ReplaceCall.callBridge(m, sites, Bridge.add(owner, "rmqpatch$" + sw.field + "$" + call.name + "$arg", desc, sw,
            patched, stock));
    }

    @Override
    public String brief() {
        return "`" + call.shortName() + "`'s argument through `" + filter.shortName() + "`";
    }

    @Override
    public String describe() {
        return expectedSites + " call(s) of " + call + " in " + inMethod + " take their last argument through " + filter;
    }
}
