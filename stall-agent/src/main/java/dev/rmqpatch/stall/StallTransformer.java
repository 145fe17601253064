package dev.rmqpatch.stall;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Puts {@code Stalls.at(point)} at the entry of every method named {@link StallPoint#method} in
 * {@link StallPoint#owner}, and changes nothing else. Entry code has no branch before it, so the stack map frames stay
 * valid; only the maximum stack grows (computed by ASM).
 */
final class StallTransformer implements ClassFileTransformer {
    private static final String HOOK = "dev/rmqpatch/stall/Stalls";
    private final StallPoint point;
    private volatile int changed;

    StallTransformer(StallPoint point) {
        this.point = point;
    }

    /** Methods given the call so far (0 until the point's class has loaded). */
    int changed() {
        return changed;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) {
        if (!point.owner.equals(className)) {
            return null;
        }
        try {
            return rewrite(bytes);
        } catch (RuntimeException e) {
            // A transformer's exception is swallowed by the JVM: say it, or a run would measure no stall silently.
            System.err.println("[rmqpatch-stall] could not rewrite " + className + ": " + e);
            return null;
        }
    }

    byte[] rewrite(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        final int[] n = {0};
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                if (!point.method.equals(name) || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                    return mv;
                }
                n[0]++;
                return new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        super.visitIntInsn(Opcodes.BIPUSH, point.ordinal());
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "at", "(I)V", false);
                    }
                };
            }
        }, 0);
        if (n[0] == 0) {
            throw new IllegalStateException("no method " + point.method + " in " + point.owner);
        }
        changed += n[0];
        return writer.toByteArray();
    }
}
