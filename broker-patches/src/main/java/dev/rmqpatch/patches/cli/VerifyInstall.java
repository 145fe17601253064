package dev.rmqpatch.patches.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import dev.rmqpatch.patches.build.PatchRecord;

/**
 * {@code --verify LIB_DIR}: checks an install against the records inside its rewritten jars. Every rewritten jar
 * of the build must be there; every entry of it must have the recorded sha256 (the patched hash for rewritten
 * classes, stock's for the rest), with nothing added or missing; the codec jar must match. Other jars that the
 * build read are compared with the stock jars it was made from, and a RocketMQ jar of another version is an
 * error. A record inside a jar proves nothing against whoever can rewrite the jar: compare the jars with the
 * published SHA256SUMS or a rebuild first; this finds what changed after that, and where.
 */
final class VerifyInstall {

    static final int VERIFIED = 0;
    static final int NO_RECORD = 1;
    static final int USAGE = 2;
    static final int DIFFERS = 5;

    private final PrintStream out;
    private final List<String> problems = new ArrayList<String>();

    private VerifyInstall(PrintStream out) {
        this.out = out;
    }

    static int run(File lib, PrintStream out, PrintStream err) {
        File[] files = lib.listFiles();
        if (files == null) {
            err.println("rmqpatch-info: not a folder: " + lib);
            return USAGE;
        }
        Arrays.sort(files);
        try {
            return new VerifyInstall(out).verify(lib, files);
        } catch (IOException e) {
            err.println("rmqpatch-info: cannot read " + lib + ": " + e.getMessage());
            return USAGE;
        }
    }

    private int verify(File lib, File[] files) throws IOException {
        Map<String, PatchRecord> records = new LinkedHashMap<String, PatchRecord>();
        for (File f : files) {
            if (f.getName().endsWith(".jar") && ListPatches.patchesOf(f) != null) {
                PatchRecord r = recordOf(f);
                if (r == null) {
                    problem(f.getName() + ": rewritten jar without an rmqpatch record (an older build, or altered)");
                } else {
                    records.put(f.getName(), r);
                }
            }
        }
        if (records.isEmpty()) {
            out.println("no rmqpatch record in " + lib + " (a stock lib/, or jars from a build before records)");
            for (String p : problems) {
                out.println("DIFF " + p);
            }
            return problems.isEmpty() ? NO_RECORD : DIFFERS;
        }
        PatchRecord build = records.values().iterator().next();
        for (Map.Entry<String, PatchRecord> r : records.entrySet()) {
            if (!r.getValue().rewrittenJars().equals(build.rewrittenJars())
                || !r.getValue().codecJarSha256().equals(build.codecJarSha256())) {
                problem(r.getKey() + ": comes from another rmqpatch build than " + records.keySet().iterator().next());
            }
        }
        for (String jar : build.rewrittenJars()) {
            File f = new File(lib, jar);
            if (!f.isFile()) {
                problem(jar + ": missing; this build rewrote it (a stock jar or another version in its place?)");
            } else if (records.containsKey(jar)) {
                checkEntries(f, records.get(jar));
            }
        }
        File codec = new File(lib, build.codecJar());
        if (!codec.isFile()) {
            problem(build.codecJar() + ": missing; the rewritten jars call it");
        } else if (!PatchRecord.sha256(codec).equals(build.codecJarSha256())) {
            problem(build.codecJar() + ": differs from the codec jar of this build");
        } else {
            out.println("OK   " + build.codecJar() + ": the codec jar of this build");
        }
        checkOtherJars(files, build, records);
        for (String p : problems) {
            out.println("DIFF " + p);
        }
        out.println(problems.isEmpty() ? "verified: " + lib + " matches the rmqpatch record"
            : problems.size() + " difference(s) from the rmqpatch record in " + lib);
        return problems.isEmpty() ? VERIFIED : DIFFERS;
    }

    private void checkEntries(File jarFile, PatchRecord record) throws IOException {
        Map<String, String> expected = new LinkedHashMap<String, String>(record.entries());
        int before = problems.size();
        JarFile jar = new JarFile(jarFile);
        try {
            for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements(); ) {
                JarEntry e = en.nextElement();
                if (e.getName().equals(PatchRecord.ENTRY)) {
                    continue;
                }
                String want = expected.remove(e.getName());
                if (want == null) {
                    problem(jarFile.getName() + ": " + e.getName() + " is not in the record (added after the build)");
                    continue;
                }
                if (!want.equals(PatchRecord.sha256(read(jar, e)))) {
                    PatchRecord.PatchedClass p = record.patchedClasses().get(e.getName());
                    problem(jarFile.getName() + ": " + e.getName() + (p != null
                        ? " differs from the class this build patched (" + p.patches + ")"
                        : " differs from stock " + record.stockJar()));
                }
            }
        } finally {
            jar.close();
        }
        for (String missing : expected.keySet()) {
            problem(jarFile.getName() + ": " + missing + " is missing");
        }
        if (problems.size() == before) {
            out.println("OK   " + jarFile.getName() + ": " + record.entries().size() + " entries, "
                + record.patchedClasses().size() + " patched classes as recorded, every other entry as in stock "
                + record.stockJar());
        }
    }

    /** Jars the build read must be its stock jars; a RocketMQ jar of another version must not be there at all. */
    private void checkOtherJars(File[] files, PatchRecord build, Map<String, PatchRecord> records) throws IOException {
        for (File f : files) {
            String name = f.getName();
            if (!name.endsWith(".jar") || build.rewrittenJars().contains(name) || name.equals(build.codecJar())) {
                continue;
            }
            String stock = build.libJars().get(name);
            if (stock != null) {
                if (!stock.equals(PatchRecord.sha256(f))) {
                    problem(name + ": differs from the stock jar this build was made from");
                }
            } else if (name.startsWith("rocketmq-") && sameArtifactOtherVersion(name, build)) {
                problem(name + ": a RocketMQ jar of another version than this build's " + build.stockJar());
            } else if (name.startsWith("rmqpatch-codec")) {
                problem(name + ": a second codec jar; the rewritten jars need exactly " + build.codecJar());
            } else {
                out.println("NOTE " + name + ": not part of this build, not checked");
            }
        }
    }

    private static boolean sameArtifactOtherVersion(String name, PatchRecord build) {
        String artifact = artifactOf(name);
        for (String known : build.libJars().keySet()) {
            if (artifactOf(known).equals(artifact)) {
                return true;
            }
        }
        return false;
    }

    /** "rocketmq-common-4.9.1.jar" -> "rocketmq-common": the name up to the first "-digit". */
    private static String artifactOf(String jarName) {
        for (int i = 0; i + 1 < jarName.length(); i++) {
            if (jarName.charAt(i) == '-' && Character.isDigit(jarName.charAt(i + 1))) {
                return jarName.substring(0, i);
            }
        }
        return jarName;
    }

    private static PatchRecord recordOf(File jarFile) throws IOException {
        JarFile jar = new JarFile(jarFile);
        try {
            JarEntry e = jar.getJarEntry(PatchRecord.ENTRY);
            if (e == null) {
                return null;
            }
            InputStream in = jar.getInputStream(e);
            try {
                return PatchRecord.read(in);
            } finally {
                in.close();
            }
        } finally {
            jar.close();
        }
    }

    private static byte[] read(JarFile jar, JarEntry e) throws IOException {
        InputStream in = jar.getInputStream(e);
        try {
            java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
            byte[] b = new byte[8192];
            for (int n; (n = in.read(b)) > 0; ) {
                buf.write(b, 0, n);
            }
            return buf.toByteArray();
        } finally {
            in.close();
        }
    }

    private void problem(String text) {
        problems.add(text);
    }
}
