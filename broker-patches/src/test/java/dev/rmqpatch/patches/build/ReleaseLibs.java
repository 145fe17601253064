package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** lib/ folders of other releases for the unit tests: 4.9.7's RocketMQ jars, and a made-up release without declarations. */
final class ReleaseLibs {

    private ReleaseLibs() {
    }

    /** The RocketMQ jars of 4.9.7 (the pom's release-4.9.7-jars copy, from the local repository); skips when absent. */
    static Path release497() {
        return releaseJars("4.9.7", "rmqpatch.release497.lib");
    }

    /** The RocketMQ jars of 4.9.3 (the pom's release-4.9.3-jars copy); skips when absent. */
    static Path release493() {
        return releaseJars("4.9.3", "rmqpatch.release493.lib");
    }

    /** The RocketMQ jars of 4.9.4 (the pom's release-4.9.4-jars copy); skips when absent. */
    static Path release494() {
        return releaseJars("4.9.4", "rmqpatch.release494.lib");
    }

    private static Path releaseJars(String version, String property) {
        Path jars = Path.of(System.getProperty(property, "target/release-" + version));
        assumeTrue(Files.isDirectory(jars), "no " + jars + " (the pom's release-" + version + "-jars copy)");
        return jars;
    }

    /** A copy of the 4.9.7 jars, to change. */
    static Path copyOf497(Path into) throws IOException {
        Files.createDirectories(into);
        try (var s = Files.list(release497())) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.copy(p, into.resolve(p.getFileName()));
            }
        }
        return into;
    }

    /**
     * A lib/ with one jar, rocketmq-common-V.jar, whose MQVersion sets CURRENT_VERSION from {@code Version.V<v>} and
     * whose manifest says V: a release told without doubt, whatever it is.
     */
    static Path fakeRelease(Path into, String version) throws IOException {
        Files.createDirectories(into);
        String mq = "org/apache/rocketmq/common/MQVersion";
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, mq, null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "CURRENT_VERSION", "I", null, null).visitEnd();
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        mv.visitCode();
        mv.visitFieldInsn(Opcodes.GETSTATIC, mq + "$Version", "V" + version.replace('.', '_'), "L" + mq + "$Version;");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, mq + "$Version", "ordinal", "()I", false);
        mv.visitFieldInsn(Opcodes.PUTSTATIC, mq, "CURRENT_VERSION", "I");
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
        try (OutputStream os = Files.newOutputStream(into.resolve("rocketmq-common-" + version + ".jar"));
             JarOutputStream jos = new JarOutputStream(os, mf)) {
            jos.putNextEntry(new JarEntry(mq + ".class"));
            jos.write(cw.toByteArray());
            jos.closeEntry();
        }
        return into;
    }
}
