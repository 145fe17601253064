package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.transform.ClassPool;
import dev.rmqpatch.patches.transform.MethodRef;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * A check of {@link ReleasePlan}'s, not of the patcher's: the codec is compiled against 4.9.0, so every RocketMQ
 * class, method and field that the codec code a patch calls can reach (its hook methods, then every codec method they
 * call, transitively; a call through a codec interface reaches every codec method of that name and descriptor; a
 * class's static initialiser with it) must exist in the release, else the patched code throws a
 * {@code NoSuchMethodError} or {@code NoClassDefFoundError} there. A reference into a RocketMQ jar the lib/ does not
 * hold is not judged; a member inherited from a class outside the lib/ is looked up in the JDK, else taken as there.
 */
final class CodecLinks {

    private static final String CODEC = "dev/rmqpatch/codec/";
    private static final String ROCKETMQ = "org/apache/rocketmq/";

    private final ClassPool lib;
    private final List<File> libJars;
    private final Map<String, ClassNode> codec;
    private final Map<String, String> cache = new HashMap<String, String>();

    private CodecLinks(ClassPool lib, List<File> libJars, Map<String, ClassNode> codec) {
        this.lib = lib;
        this.libJars = libJars;
        this.codec = codec;
    }

    /** @param libJars the jars of the lib/ the pool reads (a reference into a RocketMQ jar not among them is not judged) */
    static CodecLinks of(ClassPool lib, List<File> libJars) throws IOException {
        return new CodecLinks(lib, libJars, codecClasses());
    }

    /** The first RocketMQ member the codec reaches from {@code entries} that the release lacks, or null. */
    String missing(List<MethodRef> entries) throws IOException {
        Deque<String> todo = new ArrayDeque<String>();
        Set<String> seen = new LinkedHashSet<String>();
        for (MethodRef e : entries) {
            if (e.owner.startsWith(CODEC)) {
                todo.add(e.owner + "." + e.name + e.desc);
            }
        }
        while (!todo.isEmpty()) {
            String key = todo.poll();
            if (!seen.add(key)) {
                continue;
            }
            int dot = key.indexOf('.');
            String owner = key.substring(0, dot);
            String nameDesc = key.substring(dot + 1);
            ClassNode cls = codec.get(owner);
            if (cls == null) {
                continue;
            }
            todo.add(owner + ".<clinit>()V");
            for (MethodNode m : cls.methods) {
                if (!(m.name + m.desc).equals(nameDesc)) {
                    continue;
                }
                for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                    String problem = null;
                    if (insn instanceof MethodInsnNode) {
                        MethodInsnNode mi = (MethodInsnNode) insn;
                        if (mi.owner.startsWith(CODEC)) {
                            todo.add(mi.owner + "." + mi.name + mi.desc);
                            ClassNode target = codec.get(mi.owner);
                            if (target != null && (target.access & org.objectweb.asm.Opcodes.ACC_INTERFACE) != 0) {
                                for (ClassNode c : codec.values()) {
                                    todo.add(c.name + "." + mi.name + mi.desc);
                                }
                            }
                        } else {
                            problem = check(mi.owner, mi.name, mi.desc, true);
                        }
                    } else if (insn instanceof FieldInsnNode) {
                        FieldInsnNode fi = (FieldInsnNode) insn;
                        if (fi.owner.startsWith(CODEC)) {
                            todo.add(fi.owner + ".<clinit>()V");
                        } else {
                            problem = check(fi.owner, fi.name, fi.desc, false);
                        }
                    } else if (insn instanceof TypeInsnNode) {
                        problem = checkClass(Type.getObjectType(((TypeInsnNode) insn).desc));
                    } else if (insn instanceof LdcInsnNode && ((LdcInsnNode) insn).cst instanceof Type) {
                        problem = checkClass((Type) ((LdcInsnNode) insn).cst);
                    }
                    if (problem != null) {
                        return problem + ", which " + owner.substring(owner.lastIndexOf('/') + 1) + "." + m.name
                            + " uses";
                    }
                }
            }
        }
        return null;
    }

    private String checkClass(Type t) throws IOException {
        while (t.getSort() == Type.ARRAY) {
            t = t.getElementType();
        }
        if (t.getSort() != Type.OBJECT || !judged(t.getInternalName())) {
            return null;
        }
        return lib.classNode(t.getInternalName()) == null ? "the release has no class "
            + t.getInternalName().replace('/', '.') : null;
    }

    /** A RocketMQ class whose jar the lib/ holds. */
    private boolean judged(String internalName) {
        if (!internalName.startsWith(ROCKETMQ) || internalName.indexOf('/', ROCKETMQ.length()) < 0) {
            return false;
        }
        String jar = PatchTargets.jarOf(internalName) + "-";
        for (File f : libJars) {
            if (f.getName().startsWith(jar)) {
                return true;
            }
        }
        return false;
    }

    private String check(String owner, String name, String desc, boolean method) throws IOException {
        if (!judged(owner)) {
            return null;
        }
        String key = owner + "." + name + desc;
        if (cache.containsKey(key)) {
            return cache.get(key);
        }
        String problem;
        if (lib.classNode(owner) == null) {
            problem = "the release has no class " + owner.replace('/', '.');
        } else {
            problem = has(owner, name, desc, method, new LinkedHashSet<String>()) ? null
                : "the release has no " + (method ? "method " : "field ") + owner.replace('/', '.') + "." + name
                + (method ? desc : " " + desc);
        }
        cache.put(key, problem);
        return problem;
    }

    /** Whether {@code owner} or a supertype declares the member; a supertype outside the lib/ and the JDK counts as yes. */
    private boolean has(String owner, String name, String desc, boolean method, Set<String> visited) throws IOException {
        if (owner == null || !visited.add(owner)) {
            return false;
        }
        ClassNode cls = lib.classNode(owner);
        if (cls == null) {
            return jdkHas(owner, name, desc, method);
        }
        if (method) {
            for (MethodNode m : cls.methods) {
                if (m.name.equals(name) && m.desc.equals(desc)) {
                    return true;
                }
            }
            if (name.equals("<init>")) {
                return false;
            }
        } else {
            for (org.objectweb.asm.tree.FieldNode f : cls.fields) {
                if (f.name.equals(name) && f.desc.equals(desc)) {
                    return true;
                }
            }
        }
        if (has(cls.superName, name, desc, method, visited)) {
            return true;
        }
        for (String i : cls.interfaces) {
            if (has(i, name, desc, method, visited)) {
                return true;
            }
        }
        return false;
    }

    private static boolean jdkHas(String owner, String name, String desc, boolean method) {
        if (!owner.startsWith("java/") && !owner.startsWith("javax/")) {
            return true;
        }
        try {
            for (Class<?> c = Class.forName(owner.replace('/', '.'), false, null); c != null; c = c.getSuperclass()) {
                if (method) {
                    for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                        if (m.getName().equals(name) && Type.getMethodDescriptor(m).equals(desc)) {
                            return true;
                        }
                    }
                } else {
                    for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                        if (f.getName().equals(name)) {
                            return true;
                        }
                    }
                }
            }
            return !method;
        } catch (ClassNotFoundException e) {
            return true;
        }
    }

    /** Every class of the codec this tool runs with, read from its jar or classes folder. */
    private static Map<String, ClassNode> codecClasses() throws IOException {
        String marker = "dev/rmqpatch/codec/switches/PatchSwitches.class";
        URL url = CodecLinks.class.getClassLoader().getResource(marker);
        if (url == null) {
            throw new IOException("the codec (" + marker + ") is not on the class path");
        }
        Map<String, ClassNode> out = new HashMap<String, ClassNode>();
        if (url.getProtocol().equals("jar")) {
            JarFile jar = ((JarURLConnection) url.openConnection()).getJarFile();
            for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements(); ) {
                JarEntry e = en.nextElement();
                if (e.getName().startsWith(CODEC) && e.getName().endsWith(".class")) {
                    put(out, read(jar.getInputStream(e)));
                }
            }
        } else {
            File root;
            try {
                root = new File(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
            for (int i = 0; i < marker.split("/").length; i++) {
                root = root.getParentFile();
            }
            walk(new File(root, CODEC), out);
        }
        if (out.isEmpty()) {
            throw new IOException("no codec classes found from " + url);
        }
        return out;
    }

    private static void walk(File dir, Map<String, ClassNode> out) throws IOException {
        File[] files = dir.listFiles();
        if (files == null) {
            return;
        }
        for (File f : files) {
            if (f.isDirectory()) {
                walk(f, out);
            } else if (f.getName().endsWith(".class")) {
                put(out, read(new java.io.FileInputStream(f)));
            }
        }
    }

    private static void put(Map<String, ClassNode> out, byte[] bytes) {
        ClassNode node = new ClassNode();
        new ClassReader(bytes).accept(node, ClassReader.SKIP_FRAMES);
        out.put(node.name, node);
    }

    private static byte[] read(InputStream in) throws IOException {
        return dev.rmqpatch.patches.transform.ClassBytes.readFully(in);
    }
}
