package dev.rmqpatch.patches.build;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rmqpatch.patches.transform.ClassPool;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * A check of {@link ReleasePlan}'s, not of the patcher's: the header codecs an entry hook hands a header to must name,
 * as a string constant, every field the release's header class has, its superclasses' included (stock's reflection
 * walks them from 4.9.7's {@code RpcRequestHeader} on). The groups are the codec's registries' arrays: the send and
 * pull groups of {@code HeaderCodecs} (P1/P4 and P10/P11 as written) and of {@code RpcHeaderEncoders} (P4's and P11's
 * 4.9.7+ variants); a group that misses a field refuses every patch whose edits call one of its hooks. The entry hooks
 * themselves fit any release whose {@code RemotingCommand} keeps the methods' descriptors, so without this a release
 * that added a header field would "apply" while the codec drops the field. Everything is read from class files: the
 * codec's from this tool's class path, the headers' from the lib/.
 */
final class HeaderMirrors {

    private static final String HEADER_CODECS = "dev/rmqpatch/codec/header/HeaderCodecs";
    private static final String RPC_HEADER_ENCODERS = "dev/rmqpatch/codec/header/RpcHeaderEncoders";
    private static final String HOOKS = "dev/rmqpatch/codec/hook/RemotingCommandHooks.";
    private static final String RPC_HOOKS = "dev/rmqpatch/codec/hook/RpcHeaderHooks.";

    /**
     * Each registry's group field to the hook methods (owner.name) that hand headers to that group (the
     * registries' and the hooks' Javadoc say the same; ReleasePlanTest: P4 and P11 as written are refused on 4.9.7,
     * their variants are not).
     */
    private static final Map<String, List<String>> HOOKS_OF_GROUP = new LinkedHashMap<String, List<String>>();

    static {
        HOOKS_OF_GROUP.put(HEADER_CODECS + ".SEND",
            Arrays.asList(HOOKS + "decodeCommandCustomHeader", HOOKS + "makeCustomHeaderToNet"));
        HOOKS_OF_GROUP.put(HEADER_CODECS + ".PULL", Arrays.asList(HOOKS + "decodePullCustomHeader", HOOKS + "makePullHeaderToNet"));
        HOOKS_OF_GROUP.put(RPC_HEADER_ENCODERS + ".SEND", Arrays.asList(RPC_HOOKS + "makeRpcHeaderToNet"));
        HOOKS_OF_GROUP.put(RPC_HEADER_ENCODERS + ".PULL", Arrays.asList(RPC_HOOKS + "makeRpcPullHeaderToNet"));
    }

    private HeaderMirrors() {
    }

    /**
     * Hook method ({@code owner.name}, owner an internal name) to why the codecs it hands headers to do not mirror the
     * release's headers; empty when they all do. A patch is refused when one of its edits calls such a hook.
     */
    static Map<String, String> check(ClassPool lib) throws IOException {
        Map<String, String> refusals = new LinkedHashMap<String, String>();
        for (String registry : new String[] {HEADER_CODECS, RPC_HEADER_ENCODERS}) {
            ClassNode codecs = codecClass(registry);
            List<String> pending = new ArrayList<String>();
            for (MethodNode m : codecs.methods) {
                if (!m.name.equals("<clinit>")) {
                    continue;
                }
                for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                    if (insn.getOpcode() == Opcodes.NEW) {
                        pending.add(((TypeInsnNode) insn).desc);
                    } else if (insn.getOpcode() == Opcodes.PUTSTATIC && ((FieldInsnNode) insn).owner.equals(registry)) {
                        List<String> hooks = HOOKS_OF_GROUP.get(registry + "." + ((FieldInsnNode) insn).name);
                        if (hooks != null) {
                            String why = checkGroup(lib, pending);
                            if (why != null) {
                                for (String hook : hooks) {
                                    refusals.put(hook, why);
                                }
                            }
                        }
                        pending = new ArrayList<String>();
                    }
                }
            }
        }
        return refusals;
    }

    /** Null when every codec of the group names every field of its header class in the lib/. */
    private static String checkGroup(ClassPool lib, List<String> codecClasses) throws IOException {
        StringBuilder why = new StringBuilder();
        for (String codecName : codecClasses) {
            if (!codecName.startsWith("dev/rmqpatch/codec/header/")) {
                continue;
            }
            ClassNode codec = codecClass(codecName);
            String header = headerClass(codec);
            Set<String> named = new LinkedHashSet<String>();
            for (MethodNode m : codec.methods) {
                for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                    if (insn instanceof LdcInsnNode && ((LdcInsnNode) insn).cst instanceof String) {
                        named.add((String) ((LdcInsnNode) insn).cst);
                    }
                }
            }
            if (header == null) {
                why.append(why.length() == 0 ? "" : "; ").append(codecName).append(" names no header class");
                continue;
            }
            String simple = header.substring(header.lastIndexOf('/') + 1);
            ClassNode cls = lib.classNode(header);
            if (cls == null) {
                why.append(why.length() == 0 ? "" : "; ").append(simple).append(" is not in the lib/");
                continue;
            }
            List<String> missing = new ArrayList<String>();
            for (ClassNode c = cls; c != null; c = c.superName == null ? null : lib.classNode(c.superName)) {
                for (FieldNode f : c.fields) {
                    if ((f.access & Opcodes.ACC_STATIC) == 0 && !f.name.startsWith("this") && !named.contains(f.name)) {
                        String from = c == cls ? "" : " (from " + c.name.substring(c.name.lastIndexOf('/') + 1) + ")";
                        missing.add(f.name + from);
                    }
                }
            }
            if (!missing.isEmpty()) {
                why.append(why.length() == 0 ? "" : "; ").append(simple).append(" has field(s) ").append(missing)
                    .append(" that ").append(codecName.substring(codecName.lastIndexOf('/') + 1))
                    .append(" does not name");
            }
        }
        return why.length() == 0 ? null : "the header codecs would drop fields the release sends: " + why;
    }

    /** The class its {@code headerClass()} returns (a class literal), as an internal name, or null. */
    private static String headerClass(ClassNode codec) {
        for (MethodNode m : codec.methods) {
            if (m.name.equals("headerClass") && m.desc.equals("()Ljava/lang/Class;")) {
                for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                    if (insn instanceof LdcInsnNode && ((LdcInsnNode) insn).cst instanceof Type) {
                        return ((Type) ((LdcInsnNode) insn).cst).getInternalName();
                    }
                }
            }
        }
        return null;
    }

    private static ClassNode codecClass(String internalName) throws IOException {
        InputStream in = HeaderMirrors.class.getClassLoader().getResourceAsStream(internalName + ".class");
        if (in == null) {
            throw new IOException("the codec's " + internalName.replace('/', '.') + " is not on the class path");
        }
        ClassNode node = new ClassNode();
        new ClassReader(dev.rmqpatch.patches.transform.ClassBytes.readFully(in)).accept(node, ClassReader.SKIP_FRAMES);
        return node;
    }
}
