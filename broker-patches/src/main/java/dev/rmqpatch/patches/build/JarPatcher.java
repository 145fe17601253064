package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import dev.rmqpatch.codec.switches.PatchSwitches;
import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.transform.ClassPool;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.Switch;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Writes a patched copy of a broker's lib/ folder: jars that hold a patch target are rewritten under their own
 * file name with a {@value #MANIFEST_ATTRIBUTE} manifest attribute; every other jar is copied unchanged; the codec
 * jar is added. Every target and every codec method a patch calls is checked before anything is written.
 */
public final class JarPatcher {

    public static final String MANIFEST_ATTRIBUTE = PatchSwitches.MANIFEST_ATTRIBUTE;

    private JarPatcher() {
    }

    /**
     * @param patches each applied behind its own switch ({@code -Drmqpatch.disable=ID} turns it off at start)
     * @param always  edits applied without a switch (the start-up report), to classes of the jars patched anyway
     * @return jar file name to the patches applied in it
     */
    public static Map<String, List<String>> patch(File stockLib, File codecJar, List<Patch> patches,
                                                  List<MethodEdit> always, File outLib)
        throws IOException, PatchException {
        List<File> jars = jarsIn(stockLib);
        List<File> poolJars = new ArrayList<File>(jars);
        poolJars.add(codecJar);
        Map<String, ClassNode> patchedClasses = new LinkedHashMap<String, ClassNode>();
        Map<String, Set<String>> patchesByJar = new LinkedHashMap<String, Set<String>>();
        ClassPool pool = new ClassPool(poolJars);
        try {
            for (Patch patch : patches) {
                String label = patch.id() + " " + patch.name();
                Switch sw = Switch.of(patch.id());
                for (MethodEdit edit : patch.edits()) {
                    apply(pool, patchedClasses, edit, sw, label);
                    String jar = pool.jarOf(edit.target().owner).getName();
                    if (!patchesByJar.containsKey(jar)) {
                        patchesByJar.put(jar, new LinkedHashSet<String>());
                    }
                    patchesByJar.get(jar).add(label);
                }
                pool.requireSwitch(sw, label);
            }
            for (MethodEdit edit : always) {
                File jar = pool.jarOf(edit.target().owner);
                if (jar != null && patchesByJar.containsKey(jar.getName())) {
                    apply(pool, patchedClasses, edit, null, "start-up report");
                }
            }
            Map<String, File> jarOfClass = new LinkedHashMap<String, File>();
            for (String owner : patchedClasses.keySet()) {
                jarOfClass.put(owner, pool.jarOf(owner));
            }
            if (!outLib.isDirectory() && !outLib.mkdirs()) {
                throw new IOException("cannot create " + outLib);
            }
            Map<String, List<String>> applied = new LinkedHashMap<String, List<String>>();
            for (File jar : jars) {
                File out = new File(outLib, jar.getName());
                Set<String> inJar = patchesByJar.get(jar.getName());
                if (inJar == null) {
                    Files.copy(jar.toPath(), out.toPath(), StandardCopyOption.REPLACE_EXISTING);
                    continue;
                }
                Map<String, byte[]> replaced = new LinkedHashMap<String, byte[]>();
                for (Map.Entry<String, File> e : jarOfClass.entrySet()) {
                    if (e.getValue().getName().equals(jar.getName())) {
                        replaced.put(e.getKey() + ".class", write(patchedClasses.get(e.getKey())));
                    }
                }
                rewriteJar(jar, out, replaced, join(inJar));
                applied.put(jar.getName(), new ArrayList<String>(inJar));
            }
            Files.copy(codecJar.toPath(), new File(outLib, codecJar.getName()).toPath(), StandardCopyOption.REPLACE_EXISTING);
            return applied;
        } finally {
            pool.close();
        }
    }

    private static void apply(ClassPool pool, Map<String, ClassNode> patchedClasses, MethodEdit edit, Switch sw,
                              String label) throws IOException, PatchException {
        for (MethodRef call : edit.calls()) {
            pool.requireMethod(call, true, label);
        }
        MethodRef target = edit.target();
        pool.requireMethod(target, false, label);
        ClassNode cls = patchedClasses.get(target.owner);
        if (cls == null) {
            cls = pool.classNode(target.owner);
            patchedClasses.put(target.owner, cls);
        }
        try {
            edit.apply(cls, method(cls, target), sw);
        } catch (PatchException e) {
            throw new PatchException(label + ": " + e.getMessage());
        }
    }

    static List<File> jarsIn(File dir) throws IOException {
        File[] files = dir.listFiles();
        if (files == null) {
            throw new IOException("not a folder: " + dir);
        }
        List<File> jars = new ArrayList<File>();
        for (File f : files) {
            if (f.getName().endsWith(".jar")) {
                jars.add(f);
            }
        }
        java.util.Collections.sort(jars);
        return jars;
    }

    private static MethodNode method(ClassNode cls, MethodRef ref) throws PatchException {
        for (MethodNode m : cls.methods) {
            if (m.name.equals(ref.name) && m.desc.equals(ref.desc)) {
                return m;
            }
        }
        throw new PatchException("method " + ref + " not found");
    }

    /** Frames are kept (expanded) from the stock class and extended by the edits; only max stack/locals are recomputed. */
    private static byte[] write(ClassNode cls) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cls.accept(writer);
        return writer.toByteArray();
    }

    private static void rewriteJar(File in, File out, Map<String, byte[]> replaced, String patchList) throws IOException {
        JarFile jar = new JarFile(in);
        try {
            Manifest manifest = jar.getManifest() == null ? new Manifest() : new Manifest(jar.getManifest());
            Attributes main = manifest.getMainAttributes();
            if (main.getValue(Attributes.Name.MANIFEST_VERSION) == null) {
                main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            }
            main.putValue(MANIFEST_ATTRIBUTE, patchList);
            OutputStream fos = new FileOutputStream(out);
            JarOutputStream jos = new JarOutputStream(fos, manifest);
            try {
                for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements(); ) {
                    JarEntry entry = en.nextElement();
                    String name = entry.getName();
                    if (name.equalsIgnoreCase(JarFile.MANIFEST_NAME) || name.equalsIgnoreCase("META-INF/")) {
                        continue;
                    }
                    jos.putNextEntry(new JarEntry(name));
                    byte[] replacement = replaced.remove(name);
                    if (replacement != null) {
                        jos.write(replacement);
                    } else if (!entry.isDirectory()) {
                        InputStream is = jar.getInputStream(entry);
                        try {
                            copy(is, jos);
                        } finally {
                            is.close();
                        }
                    }
                    jos.closeEntry();
                }
            } finally {
                jos.close();
            }
            if (!replaced.isEmpty()) {
                throw new IOException("classes not found in " + in.getName() + ": " + replaced.keySet());
            }
        } finally {
            jar.close();
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, n);
        }
    }

    private static String join(Set<String> items) {
        StringBuilder sb = new StringBuilder();
        for (String s : items) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(s);
        }
        return sb.toString();
    }
}
