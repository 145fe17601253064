package dev.rmqpatch.patches.build;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the patcher did to one rewritten jar, stored inside it as {@value #ENTRY}: the sha256 of the stock jar it
 * was made from, of every stock jar of the lib/ it was built against, of the codec jar, of every entry it wrote
 * (stock's bytes for untouched entries), and for every rewritten class the stock and patched sha256, the patch
 * labels and the methods edited or added. Tab-separated lines, so a JDK 8 tool reads it without a JSON library.
 * It proves nothing against whoever can edit the jar; the published SHA256SUMS and a rebuild are the anchors.
 */
public final class PatchRecord {

    public static final String ENTRY = "META-INF/rmqpatch/RECORD";
    private static final String HEADER = "rmqpatch-record\t1";

    /** A rewritten class: its hashes before and after, the patches that touched it, the methods changed. */
    public static final class PatchedClass {
        public final String stockSha256;
        public final String patchedSha256;
        public final String patches;
        public final String methods;

        PatchedClass(String stockSha256, String patchedSha256, String patches, String methods) {
            this.stockSha256 = stockSha256;
            this.patchedSha256 = patchedSha256;
            this.patches = patches;
            this.methods = methods;
        }
    }

    String stockJar;
    String stockJarSha256;
    String codecJar;
    String codecJarSha256;
    final Map<String, String> libJars = new LinkedHashMap<String, String>();
    final Set<String> rewrittenJars = new LinkedHashSet<String>();
    final Map<String, String> entries = new LinkedHashMap<String, String>();
    final Map<String, PatchedClass> patched = new LinkedHashMap<String, PatchedClass>();

    public String stockJar() {
        return stockJar;
    }

    public String stockJarSha256() {
        return stockJarSha256;
    }

    public String codecJar() {
        return codecJar;
    }

    public String codecJarSha256() {
        return codecJarSha256;
    }

    /** Every stock jar of the lib/ the build patched, by file name, with its sha256. */
    public Map<String, String> libJars() {
        return Collections.unmodifiableMap(libJars);
    }

    /** The jars this build rewrote, by file name: all of them belong in an install. */
    public Set<String> rewrittenJars() {
        return Collections.unmodifiableSet(rewrittenJars);
    }

    /** Every entry of the rewritten jar except this record, by name, with the sha256 of its bytes in the jar. */
    public Map<String, String> entries() {
        return Collections.unmodifiableMap(entries);
    }

    public Map<String, PatchedClass> patchedClasses() {
        return Collections.unmodifiableMap(patched);
    }

    String render() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        line(sb, "stock-jar", stockJar, stockJarSha256);
        line(sb, "codec-jar", codecJar, codecJarSha256);
        for (Map.Entry<String, String> e : libJars.entrySet()) {
            line(sb, "lib-jar", e.getKey(), e.getValue());
        }
        for (String jar : rewrittenJars) {
            line(sb, "rewritten-jar", jar);
        }
        for (Map.Entry<String, String> e : entries.entrySet()) {
            PatchedClass p = patched.get(e.getKey());
            if (p == null) {
                line(sb, "entry", e.getKey(), e.getValue());
            } else {
                line(sb, "patched", e.getKey(), p.stockSha256, p.patchedSha256, p.patches, p.methods);
            }
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String... fields) {
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append('\t');
            }
            sb.append(fields[i]);
        }
        sb.append('\n');
    }

    /** Parses a record; fails naming the line when it is not one this version writes. */
    public static PatchRecord read(InputStream in) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String first = r.readLine();
        if (!HEADER.equals(first)) {
            throw new IOException("not an rmqpatch record (first line '" + first + "')");
        }
        PatchRecord rec = new PatchRecord();
        int n = 1;
        for (String line; (line = r.readLine()) != null; ) {
            n++;
            String[] f = line.split("\t", -1);
            String kind = f[0];
            if (kind.equals("stock-jar") && f.length == 3) {
                rec.stockJar = f[1];
                rec.stockJarSha256 = f[2];
            } else if (kind.equals("codec-jar") && f.length == 3) {
                rec.codecJar = f[1];
                rec.codecJarSha256 = f[2];
            } else if (kind.equals("lib-jar") && f.length == 3) {
                rec.libJars.put(f[1], f[2]);
            } else if (kind.equals("rewritten-jar") && f.length == 2) {
                rec.rewrittenJars.add(f[1]);
            } else if (kind.equals("entry") && f.length == 3) {
                rec.entries.put(f[1], f[2]);
            } else if (kind.equals("patched") && f.length == 6) {
                rec.entries.put(f[1], f[3]);
                rec.patched.put(f[1], new PatchedClass(f[2], f[3], f[4], f[5]));
            } else {
                throw new IOException("rmqpatch record line " + n + " not understood: " + line);
            }
        }
        if (rec.stockJar == null || rec.codecJar == null) {
            throw new IOException("rmqpatch record without stock-jar or codec-jar line");
        }
        return rec;
    }

    public static String sha256(byte[] bytes) {
        return hex(digest().digest(bytes));
    }

    public static String sha256(File file) throws IOException {
        MessageDigest md = digest();
        InputStream in = new FileInputStream(file);
        try {
            byte[] buf = new byte[65536];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        } finally {
            in.close();
        }
        return hex(md.digest());
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }
}
