package dev.rmqpatch.patches.transform;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The RocketMQ release a set of classes is, read from {@code org.apache.rocketmq.common.MQVersion}'s class file (never
 * loaded): the {@code MQVersion.Version} constant its static initialiser stores the ordinal of in
 * {@code CURRENT_VERSION}. The one reader of it: the agent's plan (which accepts only {@code V4_9_0}) and the release
 * recognition of a lib/ folder ({@code build/ReleaseLib}) both call it.
 */
public final class MqVersionFile {

    /** Internal name of the class that names the release. */
    public static final String MQ_VERSION = "org/apache/rocketmq/common/MQVersion";
    private static final String MQ_VERSION_ENUM = MQ_VERSION + "$Version";

    private MqVersionFile() {
    }

    /** The constant's name ("V4_9_0") that {@code CURRENT_VERSION} is set from, or null (no class file, no such store). */
    public static String versionOf(byte[] mqVersion) {
        if (mqVersion == null) {
            return null;
        }
        ClassNode node = new ClassNode();
        new ClassReader(mqVersion).accept(node, ClassReader.SKIP_FRAMES);
        for (MethodNode m : node.methods) {
            if (!m.name.equals("<clinit>")) {
                continue;
            }
            String last = null;
            for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                if (insn instanceof FieldInsnNode) {
                    FieldInsnNode f = (FieldInsnNode) insn;
                    if (f.getOpcode() == Opcodes.GETSTATIC && f.owner.equals(MQ_VERSION_ENUM)) {
                        last = f.name;
                    } else if (f.getOpcode() == Opcodes.PUTSTATIC && f.owner.equals(MQ_VERSION)
                        && f.name.equals("CURRENT_VERSION")) {
                        return last;
                    }
                }
            }
        }
        return null;
    }

    /** "V4_9_7" as a release number, "4.9.7"; "V4_9_8_SNAPSHOT" as "4.9.8-SNAPSHOT"; null for null. */
    public static String release(String constant) {
        if (constant == null) {
            return null;
        }
        String s = constant.startsWith("V") ? constant.substring(1) : constant;
        String suffix = "";
        int snap = s.indexOf("_SNAPSHOT");
        if (snap >= 0) {
            suffix = "-SNAPSHOT";
            s = s.substring(0, snap);
        }
        return s.replace('_', '.') + suffix;
    }
}
