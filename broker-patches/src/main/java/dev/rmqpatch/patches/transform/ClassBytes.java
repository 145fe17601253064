package dev.rmqpatch.patches.transform;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * How a target class is read, found into and written back, the same for both deliveries (the jar patcher at build time,
 * the Java agent at class-load time), so that they give the same bytes: frames are kept (expanded) from the stock
 * class and extended by the edits; only max stack and locals are recomputed.
 */
public final class ClassBytes {

    private ClassBytes() {
    }

    public static ClassNode read(byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
        return node;
    }

    /** The method {@code ref} names in {@code cls}; a PatchException when it has none (the class is not what the patch expects). */
    public static MethodNode method(ClassNode cls, MethodRef ref) throws PatchException {
        for (MethodNode m : cls.methods) {
            if (m.name.equals(ref.name) && m.desc.equals(ref.desc)) {
                return m;
            }
        }
        throw new PatchException("method " + ref + " not found");
    }

    /** Whether {@code cls} (null: no class) has the method {@code ref} names. */
    public static boolean hasMethod(ClassNode cls, MethodRef ref) {
        if (cls != null) {
            for (MethodNode m : cls.methods) {
                if (m.name.equals(ref.name) && m.desc.equals(ref.desc)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Every byte of {@code in} (a class file, a jar entry), which is closed. */
    public static byte[] readFully(java.io.InputStream in) throws java.io.IOException {
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            in.close();
        }
    }

    public static byte[] write(ClassNode cls) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cls.accept(writer);
        return writer.toByteArray();
    }
}
