package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.transform.ClassBytes;
import dev.rmqpatch.patches.transform.ClassPool;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.ReplaceCall;
import dev.rmqpatch.patches.transform.Switch;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Writes a patched copy of a broker's lib/ folder: jars that hold a patch target are rewritten under their own
 * file name with a {@value #MANIFEST_ATTRIBUTE} manifest attribute; every other jar is copied unchanged; the codec
 * jar is added. Every target and every codec method a patch calls is checked before anything is written.
 */
public final class JarPatcher {

    public static final String MANIFEST_ATTRIBUTE = PatchSwitches.MANIFEST_ATTRIBUTE;

    /** Entry time when a stock jar has no manifest to take it from: fixed, so builds stay reproducible. */
    private static final long FALLBACK_TIME = 1262304000000L;

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
        Map<String, Set<String>> labelsByClass = new LinkedHashMap<String, Set<String>>();
        Map<String, Set<String>> methodsByClass = new LinkedHashMap<String, Set<String>>();
        ClassPool pool = new ClassPool(poolJars);
        try {
            for (Patch patch : patches) {
                String label = PatchTargets.label(patch);
                Switch sw = Switch.of(patch.id());
                for (MethodEdit edit : patch.edits()) {
                    apply(pool, patchedClasses, edit, sw, label);
                    note(labelsByClass, edit.target().owner, patch.id());
                    note(methodsByClass, edit.target().owner, edit.target().name + edit.target().desc);
                    String jar = pool.jarOf(edit.target().owner).getName();
                    String declared = PatchTargets.jarOf(edit.target().owner);
                    if (!jar.startsWith(declared + "-")) {
                        // The docs and tests list the patches by PatchTargets' jar: they must be where the patcher finds them.
                        throw new PatchException(label + ": " + edit.target().owner.replace('/', '.') + " is in " + jar
                            + ", not in " + declared + " as PatchTargets.jarOf says");
                    }
                    if (!patchesByJar.containsKey(jar)) {
                        patchesByJar.put(jar, new LinkedHashSet<String>());
                    }
                    patchesByJar.get(jar).add(label);
                }
                pool.requireSwitch(sw, label);
            }
            for (Patch patch : patches) {
                for (MethodEdit edit : patch.edits()) {
                    MethodRef added = edit instanceof ReplaceCall ? ((ReplaceCall) edit).addedMethod() : null;
                    if (added != null && !ClassBytes.hasMethod(patchedClasses.get(added.owner), added)) {
                        throw new PatchException(PatchTargets.label(patch) + ": " + edit.describe() + ", but no edit of "
                            + "the patch adds " + added);
                    }
                }
            }
            for (MethodEdit edit : always) {
                File jar = pool.jarOf(edit.target().owner);
                if (jar != null && patchesByJar.containsKey(jar.getName())) {
                    apply(pool, patchedClasses, edit, null, "start-up report");
                    note(labelsByClass, edit.target().owner, "start-up-report");
                    note(methodsByClass, edit.target().owner, edit.target().name + edit.target().desc);
                }
            }
            Map<String, File> jarOfClass = new LinkedHashMap<String, File>();
            for (String owner : patchedClasses.keySet()) {
                jarOfClass.put(owner, pool.jarOf(owner));
            }
            if (!outLib.isDirectory() && !outLib.mkdirs()) {
                throw new IOException("cannot create " + outLib);
            }
            Map<String, String> libHashes = new LinkedHashMap<String, String>();
            for (File jar : jars) {
                libHashes.put(jar.getName(), PatchRecord.sha256(jar));
            }
            String codecHash = PatchRecord.sha256(codecJar);
            Map<String, List<String>> applied = new LinkedHashMap<String, List<String>>();
            for (File jar : jars) {
                File out = new File(outLib, jar.getName());
                Set<String> inJar = patchesByJar.get(jar.getName());
                if (inJar == null) {
                    Files.copy(jar.toPath(), out.toPath(), StandardCopyOption.REPLACE_EXISTING);
                    continue;
                }
                PatchRecord record = new PatchRecord();
                record.stockJar = jar.getName();
                record.stockJarSha256 = libHashes.get(jar.getName());
                record.codecJar = codecJar.getName();
                record.codecJarSha256 = codecHash;
                record.libJars.putAll(libHashes);
                record.rewrittenJars.addAll(patchesByJar.keySet());
                Map<String, byte[]> replaced = new LinkedHashMap<String, byte[]>();
                Map<String, String[]> about = new LinkedHashMap<String, String[]>();
                for (Map.Entry<String, File> e : jarOfClass.entrySet()) {
                    if (e.getValue().getName().equals(jar.getName())) {
                        String owner = e.getKey();
                        ClassNode cls = patchedClasses.get(owner);
                        replaced.put(owner + ".class", ClassBytes.write(cls));
                        about.put(owner + ".class", new String[] {join(labelsByClass.get(owner)),
                            methodsChanged(methodsByClass.get(owner), pool.classNode(owner), cls)});
                    }
                }
                rewriteJar(jar, out, replaced, join(inJar), about, record);
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
            edit.apply(cls, ClassBytes.method(cls, target), sw);
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

    /**
     * Writes {@code out} as a copy of {@code in} with the replaced classes, the patch list in the manifest and the
     * record as the last entry. Reproducible: entries keep stock's order and timestamps (the manifest and record
     * take the stock manifest's), so the same inputs give the same bytes on every build.
     */
    private static void rewriteJar(File in, File out, Map<String, byte[]> replaced, String patchList,
                                   Map<String, String[]> about, PatchRecord record) throws IOException {
        JarFile jar = new JarFile(in);
        try {
            Manifest manifest = jar.getManifest() == null ? new Manifest() : new Manifest(jar.getManifest());
            Attributes main = manifest.getMainAttributes();
            if (main.getValue(Attributes.Name.MANIFEST_VERSION) == null) {
                main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            }
            main.putValue(MANIFEST_ATTRIBUTE, patchList);
            JarEntry stockManifest = jar.getJarEntry(JarFile.MANIFEST_NAME);
            long fixedTime = stockManifest != null ? stockManifest.getTime() : FALLBACK_TIME;
            OutputStream fos = new FileOutputStream(out);
            JarOutputStream jos = new JarOutputStream(fos);
            try {
                JarEntry metaInf = jar.getJarEntry("META-INF/");
                if (metaInf != null) {
                    put(jos, record, "META-INF/", metaInf.getTime(), new byte[0]);
                }
                java.io.ByteArrayOutputStream mf = new java.io.ByteArrayOutputStream();
                manifest.write(mf);
                put(jos, record, JarFile.MANIFEST_NAME, fixedTime, mf.toByteArray());
                for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements(); ) {
                    JarEntry entry = en.nextElement();
                    String name = entry.getName();
                    if (name.equalsIgnoreCase(JarFile.MANIFEST_NAME) || name.equalsIgnoreCase("META-INF/")
                        || name.equals(PatchRecord.ENTRY)) {
                        continue;
                    }
                    byte[] replacement = replaced.remove(name);
                    byte[] bytes = replacement != null ? replacement : readEntry(jar, entry);
                    put(jos, record, name, entry.getTime(), bytes);
                    if (replacement != null) {
                        String[] a = about.get(name);
                        record.patched.put(name, new PatchRecord.PatchedClass(PatchRecord.sha256(readEntry(jar, entry)),
                            PatchRecord.sha256(replacement), a[0], a[1]));
                    }
                }
                JarEntry rec = new JarEntry(PatchRecord.ENTRY);
                rec.setTime(fixedTime);
                jos.putNextEntry(rec);
                jos.write(record.render().getBytes(StandardCharsets.UTF_8));
                jos.closeEntry();
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

    private static void put(JarOutputStream jos, PatchRecord record, String name, long time, byte[] bytes)
        throws IOException {
        JarEntry e = new JarEntry(name);
        e.setTime(time);
        jos.putNextEntry(e);
        jos.write(bytes);
        jos.closeEntry();
        record.entries.put(name, PatchRecord.sha256(bytes));
    }

    private static byte[] readEntry(JarFile jar, JarEntry entry) throws IOException {
        if (entry.isDirectory()) {
            return new byte[0];
        }
        InputStream is = jar.getInputStream(entry);
        try {
            java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
            copy(is, buf);
            return buf.toByteArray();
        } finally {
            is.close();
        }
    }

    /** The edited methods, then "+name(desc)" for every method the edits added (bridges), ';'-separated. */
    private static String methodsChanged(Set<String> edited, ClassNode stock, ClassNode patched) {
        Set<String> before = new LinkedHashSet<String>();
        for (MethodNode m : stock.methods) {
            before.add(m.name + m.desc);
        }
        StringBuilder sb = new StringBuilder();
        for (String m : edited) {
            sb.append(sb.length() == 0 ? "" : ";").append(m);
        }
        for (MethodNode m : patched.methods) {
            if (!before.contains(m.name + m.desc)) {
                sb.append(sb.length() == 0 ? "+" : ";+").append(m.name).append(m.desc);
            }
        }
        return sb.toString();
    }

    private static void note(Map<String, Set<String>> map, String key, String value) {
        if (!map.containsKey(key)) {
            map.put(key, new LinkedHashSet<String>());
        }
        map.get(key).add(value);
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
