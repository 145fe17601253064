package dev.rmqpatch.patches.transform;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Class files of a set of jars, looked up by internal name, read as bytes and never loaded: the patcher must
 * see exactly the stock version's classes, not whatever happens to be on its own class path.
 */
public final class ClassPool implements AutoCloseable {

    private final Map<String, ZipFile> jarOfClass = new HashMap<String, ZipFile>();
    private final List<ZipFile> jars = new ArrayList<ZipFile>();

    public ClassPool(List<File> jarFiles) throws IOException {
        for (File f : jarFiles) {
            ZipFile zip = new ZipFile(f);
            jars.add(zip);
            for (java.util.Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    String internal = name.substring(0, name.length() - ".class".length());
                    if (!jarOfClass.containsKey(internal)) {
                        jarOfClass.put(internal, zip);
                    }
                }
            }
        }
    }

    /** The jar file that holds the class, or null. */
    public File jarOf(String internalName) {
        ZipFile zip = jarOfClass.get(internalName);
        return zip == null ? null : new File(zip.getName());
    }

    public byte[] bytes(String internalName) throws IOException {
        ZipFile zip = jarOfClass.get(internalName);
        if (zip == null) {
            return null;
        }
        return ClassBytes.readFully(zip.getInputStream(zip.getEntry(internalName + ".class")));
    }

    /** The parsed class (frames expanded, as the transforms expect), or null when no jar has it. */
    public ClassNode classNode(String internalName) throws IOException {
        byte[] b = bytes(internalName);
        if (b == null) {
            return null;
        }
        return ClassBytes.read(b);
    }

    /** Fails unless the method exists in the pool; with {@code publicStatic}, it must also be public static. */
    public void requireMethod(MethodRef ref, boolean publicStatic, String patch) throws PatchException, IOException {
        ClassNode owner = classNode(ref.owner);
        if (owner == null) {
            throw new PatchException(patch + ": class " + ref.owner.replace('/', '.') + " is not in the jars being patched");
        }
        for (MethodNode m : owner.methods) {
            if (m.name.equals(ref.name) && m.desc.equals(ref.desc)) {
                int ps = Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC;
                if (publicStatic && (m.access & ps) != ps) {
                    throw new PatchException(patch + ": " + ref + " must be public static");
                }
                return;
            }
        }
        throw new PatchException(patch + ": method " + ref + " does not exist in " + jarOf(ref.owner).getName());
    }

    /** Fails unless the codec declares the patch's switch as a {@code public static final boolean}. */
    public void requireSwitch(Switch sw, String patch) throws PatchException, IOException {
        ClassNode owner = classNode(Switch.OWNER);
        if (owner == null) {
            throw new PatchException(patch + ": class " + Switch.OWNER.replace('/', '.') + " is not in the codec jar");
        }
        int psf = Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL;
        for (FieldNode f : owner.fields) {
            if (f.name.equals(sw.field) && f.desc.equals("Z") && (f.access & psf) == psf) {
                return;
            }
        }
        throw new PatchException(patch + ": no switch " + sw + " (a public static final boolean named by the patch id)");
    }

    @Override
    public void close() throws IOException {
        for (ZipFile z : jars) {
            z.close();
        }
    }
}
